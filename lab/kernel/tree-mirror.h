/*
 * A mirror of a source tree to build from without writing the tree: the
 * same folders, each file a hard link to the tree's (a copy when the two
 * are on different file systems), each symlink with the same target;
 * folders named .git are left out. Making it again brings it up to date:
 *
 *   a file new to the mirror            linked
 *   the same inode as the tree's        kept (an edit in place shows at once)
 *   another file with the same bytes    kept (a patched file put back)
 *   anything else                       a fresh copy, with the time of now
 *   an entry the tree no longer has     removed
 *
 * so that every file make sees either is the tree's own, with the tree's
 * time, or is younger than any object built from other content. The mirror
 * never writes a file of the tree: a patch applied to the mirror first
 * gives each file it changes an inode of its own (patchset.h does).
 */
#ifndef LAB_TREE_MIRROR_H
#define LAB_TREE_MIRROR_H

#include "common/util.h"

/* Brings DEST up to date with SRC; 0, or -1 with the reason in ERR. */
int tree_mirror(const char *src, const char *dest, struct strbuf *err);

#endif
