/* key-checks.h - what a table of keys (lab/keys/key-table.h) says of each key's
 * values, tried on the setter its parser calls. Included by the tests of
 * each table (cmocka first). */
#ifndef TESTS_KEY_CHECKS_H
#define TESTS_KEY_CHECKS_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/keys/key-table.h"

/* How many keys of each form check_ranges() tried. */
struct ranges_tried {
	size_t numbers, words;
};

/* Whether KEY's row takes VALUE on CTX: its setter says NULL. */
static inline bool key_takes(const struct key_table *t, void *ctx, const char *key, const char *value)
{
	const struct key_def *row = key_table_find(t, key);
	if (!row)
		fail_msg("%s is in the listing of %s keys, but the parser has no row for it", key, t->kind);
	struct strbuf scratch = STRBUF_INIT;
	bool taken = key_table_set(row, ctx, key, value, 1, &scratch) == NULL;
	strbuf_release(&scratch);
	return taken;
}

static inline void expect_taken(const struct key_table *t, void *ctx, const struct key_info *k,
				const char *value, bool taken)
{
	if (key_takes(t, ctx, k->name, value) != taken)
		fail_msg("%s = %s is %s, but its values are '%s'", k->name, value,
			 taken ? "refused" : "taken", k->range);
}

/* A word of a range as a file writes it: no blank, no placeholder. */
static inline bool plain_word(const char *w, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)w[i]) && !strchr("_.-", w[i]))
			return false;
	/* EVENT, FILTER: placeholders */
	for (size_t i = 0; i < len; i++)
		if (islower((unsigned char)w[i]) || isdigit((unsigned char)w[i]))
			return true;
	return false;
}

/* Fails the test when the settings WITH (a file with KEY = its default
 * VALUE) differ from WITHOUT (the file without the key), naming the first
 * line that differs in each. Both are "name=value" lines. */
static inline void expect_same_settings(const char *key, const char *value, const char *with,
					const char *without)
{
	size_t at = 0;
	while (with[at] && with[at] == without[at])
		at++;
	if (!with[at] && !without[at])
		return;
	while (at && with[at - 1] != '\n')
		at--;
	fail_msg("%s = %s (its default) gives %.*s, but a file without it %.*s", key, value,
		 (int)strcspn(with + at, "\n"), with + at, (int)strcspn(without + at, "\n"), without + at);
}

/* A value key K can take, as a file writes it, into BUF: its default when
 * that is a value, else the low end of "A to B", else the first word of
 * "a | b"; NULL when the row says none (the test names one). */
static inline const char *example_value(const struct key_info *k, char *buf, size_t size)
{
	long lo;
	if (k->fallback[0] != '(')
		return k->fallback;
	if (sscanf(k->range, "%ld to", &lo) == 1) {
		snprintf(buf, size, "%ld", lo);
		return buf;
	}
	size_t len = strcspn(k->range, " ");
	if (strstr(k->range, " | ") && plain_word(k->range, len)) {
		snprintf(buf, size, "%.*s", (int)len, k->range);
		return buf;
	}
	return NULL;
}

/* A value for K: example_value()'s, else the one EXAMPLES (N pairs of key
 * and value, the test's own) gives it; the test fails naming K without one. */
static inline const char *key_example(const struct key_info *k, const char *const (*examples)[2],
				      size_t n, char *buf, size_t size)
{
	const char *v = example_value(k, buf, size);
	for (size_t x = 0; !v && x < n; x++)
		if (!strcmp(examples[x][0], k->name))
			v = examples[x][1];
	if (!v)
		fail_msg("%s: no value to try (add one to examples[])", k->name);
	return v;
}

/*
 * Every key T lists whose values are "A to B" (numbers) or "a | b | c"
 * (words), tried on CTX (a parsed file's struct): A and B are taken, A - 1
 * and B + 1 refused; each plain word is taken, and when all of them are
 * plain words a word not among them is refused.
 */
static inline struct ranges_tried check_ranges(const struct key_table *t, void *ctx)
{
	struct ranges_tried tried = { 0, 0 };
	size_t n;
	struct key_info *keys = key_table_list(t, &n);
	for (size_t i = 0; i < n; i++) {
		const struct key_info *k = &keys[i];
		long lo, hi;
		int end = 0;
		if (sscanf(k->range, "%ld to %ld%n", &lo, &hi, &end) == 2 && !k->range[end]) {
			char text[32];
			snprintf(text, sizeof(text), "%ld", lo);
			expect_taken(t, ctx, k, text, true);
			snprintf(text, sizeof(text), "%ld", hi);
			expect_taken(t, ctx, k, text, true);
			snprintf(text, sizeof(text), "%ld", lo - 1);
			expect_taken(t, ctx, k, text, false);
			snprintf(text, sizeof(text), "%ld", hi + 1);
			expect_taken(t, ctx, k, text, false);
			tried.numbers++;
			continue;
		}
		if (!strstr(k->range, " | "))
			continue;
		bool all_plain = true;
		for (const char *w = k->range; *w;) {
			size_t len = strcspn(w, "|");
			while (len && w[len - 1] == ' ')
				len--;
			if (plain_word(w, len)) {
				char *word = xstrndup(w, len);
				expect_taken(t, ctx, k, word, true);
				free(word);
			} else {
				all_plain = false;
			}
			w += strcspn(w, "|");
			w += strspn(w, "| ");
		}
		if (all_plain)
			expect_taken(t, ctx, k, "no-such-value", false);
		tried.words++;
	}
	free(keys);
	return tried;
}

#endif
