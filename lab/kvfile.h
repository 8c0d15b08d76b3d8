/*
 * `key = value` files (profiles, experiments): blank lines and comments are
 * skipped, every other line sets one key through the caller's setter, and
 * anything wrong is one line naming the file and line.
 */
#ifndef LAB_KVFILE_H
#define LAB_KVFILE_H

#include <stdbool.h>

#include "common/util.h"

/* What a setter returns for a key it does not know. */
extern const char kvfile_unknown_key[];

/* Returns NULL when the value was taken, kvfile_unknown_key, or why the value is bad.
 * LINE is the value's line in the file. */
typedef const char *(*kvfile_setter)(void *ctx, const char *key, const char *value, int line);

struct kvfile_options {
	bool inline_comments;             /* '#' anywhere starts a comment (else only at a line's start) */
	const char *const *repeatable;    /* keys that may appear more than once, NULL-terminated */
};

int kvfile_parse(const char *file, const char *text, const struct kvfile_options *opts, kvfile_setter set,
	     void *ctx, struct strbuf *err);

/* The names of the .conf files in configs/<subdir>/ of the checkout, sorted. */
void kvfile_names(const char *subdir, struct strlist *names);
/*
 * Reads configs/<subdir>/<name>.conf into *text (its path into *file). When
 * it is missing: -1, and err lists the KIND names that do exist.
 */
int kvfile_read_named(const char *subdir, const char *kind, const char *name, char **file, char **text,
		      struct strbuf *err);

#endif
