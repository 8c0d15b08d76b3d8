/*
 * `key = value` files (profiles, experiments): blank lines and comments are
 * skipped, every other line sets one key through the setter of its row in
 * the file kind's table (key-table.h), and anything wrong is one line naming
 * the file and line; a key the table lacks is offered the nearest it has.
 */
#ifndef LAB_KVFILE_H
#define LAB_KVFILE_H

#include <stdbool.h>

#include "common/util.h"
#include "key-table.h"

/* What a setter returns for a key it does not know. */
extern const char kvfile_unknown_key[];

struct kvfile_options {
	bool inline_comments;             /* '#' anywhere starts a comment (else only at a line's start) */
};

/* Sets each key of TEXT (read from FILE) on CTX through its row of KEYS;
 * -1 with one line in ERR at the first that is wrong. */
int kvfile_parse(const char *file, const char *text, const struct kvfile_options *opts,
		 const struct key_table *keys, void *ctx, struct strbuf *err);

/* The names of the .conf files in the lab's configs/<subdir>/ and the user's
 * $XDG_CONFIG_HOME/oomlab/<subdir>/ (common/paths.h), each once, sorted. */
void kvfile_names(const char *subdir, struct strlist *names);
/*
 * Reads configs/<subdir>/<name>.conf of the lab, else of the user's
 * $XDG_CONFIG_HOME/oomlab/<subdir>/, into *text (its path into *file). When
 * it is in neither: -1, and err lists the KIND names that do exist; in both:
 * -1, and err names both files (neither wins).
 */
int kvfile_read_named(const char *subdir, const char *kind, const char *name, char **file, char **text,
		      struct strbuf *err);

/* 0 when NAME (of KIND, "experiment" or "profile", read from FILE) follows the
 * lab's one name rule (common/proto/name-rule.h); else -1 and one line in ERR
 * naming the file. */
int kvfile_name_check(const char *name, const char *kind, const char *file, struct strbuf *err);

#endif
