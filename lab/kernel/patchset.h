/*
 * Applying a variant's patches to the one shared source tree, and taking
 * them out again. Before a patch touches the tree, every file it names is
 * backed up and listed in a state folder; restoring puts those files back
 * with a fresh modification time (so make recompiles them) and deletes the
 * files the patches created. A build killed half-way is undone by the next.
 * A file that shares its inode (a hard link) gets one of its own before it
 * is patched: only the tree's own files are ever written.
 */
#ifndef LAB_PATCHSET_H
#define LAB_PATCHSET_H

#include "common/util.h"

/* Files a patch touches, with the first path component stripped (-p1). */
int patch_targets(const char *patch_path, struct strlist *files, struct strbuf *err);
/* Summarises patch(1)'s complaint as "hunk #2 FAILED at 869 in FILE". */
char *describe_patch_failure(const char *patch_output);
/* Undoes whatever the state folder records; a no-op when it records nothing. */
int tree_restore(const char *tree, const char *state_dir, struct strbuf *err);
/* Applies patches in order; on failure restores the tree and explains in err. */
int tree_apply_patches(const char *tree, const char *state_dir, const struct strlist *patches,
		       struct strbuf *err);
/*
 * PATCHES as tree_apply_patches does, then OPTIONAL on top when it applies:
 * *APPLIED says whether it did, and WHY_NOT gets why not. A failure of
 * PATCHES is one as before.
 */
int tree_apply_patches_then(const char *tree, const char *state_dir, const struct strlist *patches,
			    const char *optional, bool *applied, struct strbuf *why_not,
			    struct strbuf *err);

#endif
