/* compare_verdict.h - the verdicts of the comparison table and the one
 * table of what each is: the word every format prints, what its claim
 * carries, what it settles and how the terminal and the HTML report show
 * it. compare.h says when a row gets which verdict; a new verdict is an
 * enum value here and a row in compare_verdict.c, and every writer, the
 * report's style and lab compare's usage follow. */
#ifndef OOMLAB_COMPARE_VERDICT_H
#define OOMLAB_COMPARE_VERDICT_H

#include <stdbool.h>

struct strbuf;	/* common/util.h */

enum compare_verdict {
	VERDICT_BETTER,
	VERDICT_WORSE,
	VERDICT_DIFFERS,	/* significant, but the metric has no "better" */
	VERDICT_EQUIVALENT,
	VERDICT_NOT_DETECTED,
	VERDICT_INCONCLUSIVE,
	VERDICT_COUNT		/* not a verdict: how many there are */
};

/* What a verdict's claim carries after its word ("equivalent (+-2%)"). */
enum compare_verdict_detail {
	VERDICT_DETAIL_NONE,
	VERDICT_DETAIL_MARGIN,	/* the equivalence margin it was judged against */
	VERDICT_DETAIL_MDE,	/* the difference that could have been missed */
	VERDICT_DETAIL_WHY,	/* the row's reason (compare_row.why), else "no test" */
};

struct compare_verdict_info {
	enum compare_verdict verdict;	/* the value this row is for */
	const char *word;	/* every format's word, the JSON and CSV value */
	const char *gloss;	/* what lab compare's usage says after the word, or NULL */
	enum compare_verdict_detail detail;
	bool significant;	/* p-adj < alpha: the row claims a difference */
	bool decided;		/* settles the question (what a sequential run waits for) */
	const char *sgr;	/* the text format's colour on a terminal, as the
				 * parameter of an ANSI SGR code ("32"), or NULL */
	const char *css_class;	/* the class of its cell in the HTML report */
	const char *css;	/* that class's declarations in the report's style, or NULL */
};

/* The row of VERDICT; a value out of range gets a row whose word is "?"
 * and whose flags are all false. */
const struct compare_verdict_info *compare_verdict_info(enum compare_verdict verdict);

/* compare_verdict_info(VERDICT)->word: "better", ..., "not detected". */
const char *compare_verdict_word(enum compare_verdict verdict);
/* compare_verdict_info(VERDICT)->decided: better, worse, differs or
 * equivalent. */
bool compare_verdict_decided(enum compare_verdict verdict);

/* Which verdicts compare_verdict_list() names. */
enum compare_verdict_set {
	VERDICTS_ALL,
	VERDICTS_DECIDED,
	VERDICTS_SIGNIFICANT,
};

/* Appends the words of the verdicts in SET, in the table's order, as the
 * list of a sentence: "better, worse or differs". With GLOSSES a word that
 * has a gloss is followed by it in parentheses. */
void compare_verdict_list(struct strbuf *sb, enum compare_verdict_set set, bool glosses);

#endif
