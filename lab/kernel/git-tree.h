/*
 * A commit's tree in a local git repository, read with git's read-only
 * commands (rev-parse, cat-file, diff-tree, archive): the repository is
 * never written, no worktree of it is registered.
 *
 * Exported into a folder of the cache: the first time every file (git
 * archive), later only the files that differ between the tree the folder
 * holds and the new one (git diff-tree), so that make rebuilds what
 * changed. Files are written with the time of writing (tar -m), never the
 * commit's: an older commit checked out later is still newer to make. The
 * tree the folder holds is recorded in STATE, removed while an export is
 * under way, so an export cut short is done again in full.
 */
#ifndef LAB_GIT_TREE_H
#define LAB_GIT_TREE_H

#include <stdbool.h>

#include "common/util.h"

/* git -C REPO ARGS... (NULL-terminated; a read-only command, as above), its
 * stdout and stderr into OUT; the exit status. */
int git_capture(const char *repo, const char *const *args, struct strbuf *out);
/* git_capture, its output as lines (capture_lines, common/run-command.h). */
int git_capture_lines(const char *repo, const char *const *args, struct strlist *lines);
/* REF's tree id and commit id in REPO (malloc'd); -1 with the reason. */
int git_resolve(const char *repo, const char *ref, char **tree, char **commit, struct strbuf *err);
/* Whether TREE has PATH. */
bool git_tree_has(const char *repo, const char *tree, const char *path);
/* Makes DEST hold TREE's files (see above); 0, or -1 with the reason. */
int git_tree_export(const char *repo, const char *tree, const char *dest, const char *state,
		    struct strbuf *err);

#endif
