/* compare_fail_on.c - verdicts a CI gates on (compare_fail_on.h). */
#include "compare_fail_on.h"

#include <string.h>

#include "common/util.h"

/* WORD (LEN bytes) is VERDICT's word, '-' standing for a blank. */
static bool names(const char *word, size_t len, enum compare_verdict verdict)
{
	const char *w = compare_verdict_word(verdict);

	if (strlen(w) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (word[i] != w[i] && !(word[i] == '-' && w[i] == ' '))
			return false;
	return true;
}

/* The words of MASK as the option takes them, SEP between, into SB. */
static void add_words(struct strbuf *sb, compare_verdict_mask mask, const char *sep)
{
	size_t n = 0;

	for (int v = 0; v < VERDICT_COUNT; v++) {
		if (!(mask & (1u << v)))
			continue;
		if (n++)
			strbuf_addstr(sb, sep);
		for (const char *c = compare_verdict_word(v); *c; c++)
			strbuf_addf(sb, "%c", *c == ' ' ? '-' : *c);
	}
}

void compare_fail_on_list(struct strbuf *sb)
{
	add_words(sb, (1u << VERDICT_COUNT) - 1, ", ");
}

int compare_fail_on_parse(const char *words, compare_verdict_mask *mask, struct strbuf *err)
{
	*mask = 0;
	for (const char *p = words;; p++) {
		size_t len = strcspn(p, ",");
		const char *w = p;
		size_t wlen = len;

		while (wlen && (*w == ' ' || *w == '\t'))
			w++, wlen--;
		while (wlen && (w[wlen - 1] == ' ' || w[wlen - 1] == '\t'))
			wlen--;
		int found = -1;
		for (int v = 0; v < VERDICT_COUNT && found < 0; v++)
			if (names(w, wlen, v))
				found = v;
		if (found < 0) {
			strbuf_addf(err, "'%.*s' is not a verdict (", (int)wlen, w);
			compare_fail_on_list(err);
			strbuf_addstr(err, ", commas between)");
			return -1;
		}
		*mask |= 1u << found;
		p += len;
		if (!*p)
			return 0;
	}
}

void compare_fail_on_words(struct strbuf *sb, compare_verdict_mask mask)
{
	add_words(sb, mask, ",");
}

bool compare_row_fails(const struct compare_row *row, compare_verdict_mask mask)
{
	return (unsigned)row->verdict < VERDICT_COUNT && (mask & (1u << row->verdict));
}

size_t compare_table_failures(const struct compare_table *t, compare_verdict_mask mask)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_rows; i++)
		n += compare_row_fails(&t->rows[i], mask);
	return n;
}
