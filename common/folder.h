/* Reading a folder: its names (folder_list), and the one walk of a tree
 * (folder_walk) that hashing, mirroring and the guest's files share. */
#ifndef LAB_FOLDER_H
#define LAB_FOLDER_H

#include <stdbool.h>
#include <sys/stat.h>

#include "util.h"

/* Leave out an entry .git too: a tree's repository is not its content. */
#define FOLDER_NO_GIT 1u

/* DIR's entries but "." and ".." (and ".git" with FOLDER_NO_GIT) appended to
 * NAMES, in byte order whatever the locale, so that a walk is the same on
 * every machine: 0, or -1 with errno set and NAMES as it was. */
int folder_list(const char *dir, unsigned flags, struct strlist *names);

/* One entry of a walk, as its visitor sees it. */
struct folder_entry {
	const char *path;   /* ROOT/REL */
	const char *rel;    /* below ROOT: "a/b" ("" for ROOT) */
	int depth;          /* 0 for ROOT's own entries, 1 for theirs... */
	struct stat st;     /* lstat's: a link is a link (unset when error) */
	int error;          /* errno when lstat failed, or when listing failed */
	bool listing;       /* error is a folder's listing: the folder walked
			       into (depth its own, -1 for ROOT itself) */
};

/* What a visitor returns for a folder, or a link to one, to walk what it holds next. */
#define FOLDER_WALK_INTO 1

/* Calls VISIT for every entry of ROOT, folder_list's names with FLAGS (so in
 * byte order), depth first: a folder's entry, then what it holds when VISIT
 * returned FOLDER_WALK_INTO for it. A failure (entry->error) goes to VISIT
 * too, which words it. VISIT returns 0 to go on, FOLDER_WALK_INTO, or a
 * negative value that stops the walk; folder_walk returns that, else 0. */
int folder_walk(const char *root, unsigned flags, int (*visit)(const struct folder_entry *e, void *ctx),
		void *ctx);

#endif
