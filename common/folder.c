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
