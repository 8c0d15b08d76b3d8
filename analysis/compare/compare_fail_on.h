/* compare_fail_on.h - verdicts a CI gates on (lab compare/run --fail-on).
 *
 * WORDS is a comma list of verdict words as compare_verdict.c has them,
 * with '-' for the blank ("not-detected"; "not detected" is taken too).
 * A table fails when one of its rows (the family it shows: the headline
 * metrics by default) has one of them; the lab then exits
 * COMPARE_EXIT_FAIL_ON, apart from 1 (an error) and 2 (bad input). */
#ifndef OOMLAB_COMPARE_FAIL_ON_H
#define OOMLAB_COMPARE_FAIL_ON_H

#include <stdbool.h>
#include <stddef.h>

#include "compare_types.h"

struct strbuf;	/* common/util.h */

#define COMPARE_EXIT_FAIL_ON 3

/* A set of verdicts: bit (1u << verdict). */
typedef unsigned compare_verdict_mask;

/* 0 and the set in *MASK; -1 with why in ERR ("'wrose' is not a verdict:
 * better, worse, ..."): an unknown or empty word. */
int compare_fail_on_parse(const char *words, compare_verdict_mask *mask, struct strbuf *err);
/* Every word the option takes, into SB: "better, worse, ..., not-detected, inconclusive". */
void compare_fail_on_list(struct strbuf *sb);
/* The words of MASK as a list ("worse,differs"), into SB. */
void compare_fail_on_words(struct strbuf *sb, compare_verdict_mask mask);
bool compare_row_fails(const struct compare_row *row, compare_verdict_mask mask);
/* How many rows of TABLE fail. */
size_t compare_table_failures(const struct compare_table *table, compare_verdict_mask mask);

#endif
