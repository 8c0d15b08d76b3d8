/*
 * The content hash of a folder, for the cache key of a kernel built from a
 * tree: SHA-256 over every regular file's and symlink's path (relative, in
 * byte order), kind (file, executable file, link) and content (a file's
 * own SHA-256, or a link's target). Folders named .git are left out, so a
 * checkout hashes as its files; other file types are too.
 *
 * The first hash of a tree reads every file (a kernel tree: 1.7 GB). Each
 * file's own hash is remembered in STAT_CACHE with its device, inode, size,
 * modification and change times, and taken from there while they are the
 * same, so hashing an unchanged tree again reads no file and one edited
 * file is read alone. A file changed less than two seconds ago is not
 * remembered: its time stamp could be the same after another change.
 */
#ifndef LAB_TREE_HASH_H
#define LAB_TREE_HASH_H

#include "common/util.h"

/* 0 with the hash in HEX, or -1 with the reason in ERR. STAT_CACHE may be NULL. */
int tree_hash(const char *dir, const char *stat_cache, char hex[65], struct strbuf *err);

#endif
