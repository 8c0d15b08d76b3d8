/*
 * The keys of a kind of `key = value` file (profiles, experiments) as one
 * table: a row a key, or a family of keys, holding what is said about it
 * (type, default, values, meaning) and the setter its parser calls. The
 * parser (kvfile.h) finds each key's row here, a mistyped key is offered
 * the nearest names from here, and `lab keys` prints the rows: one home for
 * each key, so the reference cannot drift from what the parser takes.
 */
#ifndef LAB_KEY_TABLE_H
#define LAB_KEY_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"

/*
 * Takes VALUE for KEY (as written in the file: for a family, its member) at
 * LINE: NULL when taken, else why not, said after "KEY = VALUE: KEY " (so
 * "wants a whole number"), or kvfile_unknown_key. A row whose values are
 * "A to B" has VALUE held to them before its setter runs
 * (key_table_set()), so a setter parses and stores, and the bounds are
 * written once, in the row.
 */
typedef const char *(*key_setter)(void *ctx, const char *key, const char *value, int line);

/* What is said of a key (static texts). */
struct key_info {
	const char *name;
	const char *type;      /* one word: text, size, count, bool, word, words, margin, ... */
	/* The default: a value as a file would write it (a file saying it parses
	 * as one without the key), or a description in parentheses, such as
	 * KEY_REQUIRED. */
	const char *fallback;
	const char *range;     /* the values taken: "1 to 64", "lzo | lz4"; "" for any text */
	const char *meaning;   /* one line */
	bool repeats;          /* may be given more than once */
};

struct key_def {
	struct key_info info;
	key_setter set;
	/* A family of keys: every key that begins with PREFIX (info.name
	 * "equivalence.GLOB", prefix "equivalence."). NULL: the one key. */
	const char *prefix;
	/* A family whose members another table declares (lmkd.*, the fault
	 * injection keys): the I-th member's texts into *OUT, false past the
	 * last. Its rows print these, one each, and info is unused. */
	bool (*member)(size_t i, struct key_info *out);
};

/* The default of a key a file must set. */
#define KEY_REQUIRED "(required)"

/* Rows as tables write them: a key; a key that may repeat; a family of the
 * keys that begin with PREFIX; a family whose members MEMBER gives. */
#define KEY(name_, type_, fallback_, range_, meaning_, set_) \
	{ .info = { .name = name_, .type = type_, .fallback = fallback_, .range = range_, \
		    .meaning = meaning_ }, .set = set_ }
#define KEY_REPEATED(name_, type_, fallback_, range_, meaning_, set_) \
	{ .info = { .name = name_, .type = type_, .fallback = fallback_, .range = range_, \
		    .meaning = meaning_, .repeats = true }, .set = set_ }
#define KEY_FAMILY(name_, type_, fallback_, range_, meaning_, set_, prefix_) \
	{ .info = { .name = name_, .type = type_, .fallback = fallback_, .range = range_, \
		    .meaning = meaning_ }, .set = set_, .prefix = prefix_ }
#define KEY_MEMBERS(name_, set_, member_) \
	{ .info = { .name = name_ }, .set = set_, .member = member_ }

struct key_table {
	const char *kind;      /* "profile", "experiment": the file kind */
	const char *where;     /* where such files live: "configs/profiles/NAME.conf" */
	const struct key_def *rows;
	size_t n;
};

/* ROW takes VALUE for KEY at LINE, as kvfile_parse() has it: a row whose
 * values are "A to B" refuses a value outside them (its message in
 * SCRATCH), then the row's setter; NULL or why not (key_setter). */
const char *key_table_set(const struct key_def *row, void *ctx, const char *key, const char *value,
			  int line, struct strbuf *scratch);
/* The row that takes KEY, or NULL. */
const struct key_def *key_table_find(const struct key_table *t, const char *key);
/* Every key the table lists, families' members one each, in the table's
 * order: a malloc'd array, its length into *N. */
struct key_info *key_table_list(const struct key_table *t, size_t *n);
/* The names nearest TYPED (glob.h's glob_suggest(), at most MAX), quoted as
 * a sentence lists them, appended to SB; how many. */
size_t key_table_suggest(struct strbuf *sb, const struct key_table *t, const char *typed, size_t max);

#endif
