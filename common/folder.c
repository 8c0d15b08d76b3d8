/* Reading a folder's names (folder.h). */
#include "folder.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int folder_list(const char *dir, unsigned flags, struct strlist *names)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	size_t first = names->n;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (strcmp(n, ".") && strcmp(n, "..") && (!(flags & FOLDER_NO_GIT) || strcmp(n, ".git")))
			strlist_push(names, n);
		errno = 0;
	}
	int e = errno;
	closedir(d);
	if (e) {
		/* a listing cut short is no listing */
		while (names->n > first)
			free(names->items[--names->n]);
		errno = e;
		return -1;
	}
	qsort(names->items + first, names->n - first, sizeof(*names->items), by_bytes);
	return 0;
}

struct walker {
	unsigned flags;
	int (*visit)(const struct folder_entry *e, void *ctx);
	void *ctx;
};

/* The entries of PATH (REL below the root), at DEPTH. */
static int walk(const struct walker *w, const char *path, const char *rel, int depth)
{
	struct strlist names = STRLIST_INIT;
	if (folder_list(path, w->flags, &names) < 0) {
		struct folder_entry e = { .path = path, .rel = rel, .depth = depth - 1, .error = errno,
					  .listing = true };
		int rc = w->visit(&e, w->ctx);
		return rc < 0 ? rc : 0;
	}
	int rc = 0;
	for (size_t i = 0; rc >= 0 && i < names.n; i++) {
		char *p = xasprintf("%s/%s", path, names.items[i]);
		char *r = *rel ? xasprintf("%s/%s", rel, names.items[i]) : xstrdup(names.items[i]);
		struct folder_entry e = { .path = p, .rel = r, .depth = depth };
		if (lstat(p, &e.st) < 0)
			e.error = errno;
		rc = w->visit(&e, w->ctx);
		if (rc == FOLDER_WALK_INTO)
			rc = walk(w, p, r, depth + 1);
		free(r);
		free(p);
	}
	strlist_clear(&names);
	return rc < 0 ? rc : 0;
}

int folder_walk(const char *root, unsigned flags, int (*visit)(const struct folder_entry *e, void *ctx),
		void *ctx)
{
	struct walker w = { flags, visit, ctx };
	return walk(&w, root, "", 0);
}
