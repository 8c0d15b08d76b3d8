/*
 * Globs as text (fnmatch(3) without flags: '*', '?', bracket expressions,
 * '\' escapes), for checking metric names before a run: is one well formed,
 * can two of them match one name, and how far is a name from one.
 */
#ifndef LAB_GLOB_H
#define LAB_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* NULL when GLOB is well formed, else what is wrong ("'[' without its ']'"):
 * fnmatch takes such a glob for literal text, which no metric name is. */
const char *glob_malformed(const char *glob);
/* A flag of a glob: its '*' takes no '.', as for the lab's own metric
 * names, which are flat (docs/FORMATS.md). */
#define GLOB_FLAT 1u

/* True when some name matches both A (with A_FLAGS) and B (a name is a glob
 * without wildcards). Both must be well formed. */
bool glob_intersects(const char *a, unsigned a_flags, const char *b);
/* How far glob B is from glob A (with A_FLAGS), in half edits: Levenshtein's
 * distance (inserts, deletes, replaces of one-character tokens, and swaps of
 * two neighbouring ones, as Damerau's has it) doubled,
 * where a '*' of either takes any run of the other's tokens at 1 each, so
 * that a name nearly written out is nearer than a broad glob. (size_t)-1 for
 * a malformed glob. */
size_t glob_distance(const char *a, unsigned a_flags, const char *b);

/* "Did you mean": the names of POOL (N of them, FLAGS[i] the flags of the
 * i-th, FLAGS NULL for none) nearest GLOB by glob_distance(), nearest first,
 * of those at most half of whose characters differ (a distance below
 * strlen(GLOB) + 1 half edits), each name once: at most MAX indices into
 * BEST. Returns how many. Both a mistyped metric and a mistyped command
 * get their suggestions here. */
size_t glob_closest(const char *const *pool, const unsigned *flags, size_t n, const char *glob,
		    size_t *best, size_t max);
struct strbuf;	/* common/util.h */
/* glob_closest()'s names (at most MAX), quoted as a sentence lists them,
 * appended to SB: "'compare'", "'run' or 'boot'", "'a', 'b' or 'c'".
 * Returns how many. */
size_t glob_suggest(struct strbuf *sb, const char *const *pool, size_t n, const char *typed,
		    size_t max);

#endif
