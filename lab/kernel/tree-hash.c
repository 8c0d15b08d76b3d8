/* The content hash of a folder, with a stat cache (tree-hash.h). */
#include "tree-hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab/util/hash.h"
#include "common/folder.h"

/* Younger than this, a file's stat does not vouch for its content yet. */
#define SETTLED_NS 2000000000LL

struct known {
	char *path;
	char hex[65];
	unsigned long long dev, ino, size;
	long long mtime, ctime;
};

struct walk {
	struct hasher *tree;
	struct known *old;            /* the stat cache as read, sorted by path */
	size_t n_old;
	struct strbuf fresh;          /* the stat cache to write */
	long long now;
	size_t read;                  /* files whose content was read */
	struct strbuf *err;
};

static long long ns_of(struct timespec t)
{
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct known *)a)->path, ((const struct known *)b)->path);
}

/* Lines "HEX DEV INO SIZE MTIME CTIME PATH"; anything else is skipped. */
static void load_cache(struct walk *w, const char *path)
{
	char *text = path ? read_file(path, NULL) : NULL;
	size_t alloc = 0;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		struct known k;
		int off = 0;
		if (sscanf(line, "%64s %llu %llu %llu %lld %lld %n", k.hex, &k.dev, &k.ino, &k.size,
			   &k.mtime, &k.ctime, &off) != 6 || !off || strlen(k.hex) != 64)
			continue;
		k.path = xstrdup(line + off);
		ALLOC_GROW(w->old, w->n_old + 1, alloc);
		w->old[w->n_old++] = k;
	}
	free(text);
	if (w->n_old)
		qsort(w->old, w->n_old, sizeof(*w->old), by_path);
}

/* A file's own hash: remembered, or read. */
static int file_hash(struct walk *w, const char *rel, const char *path, const struct stat *st,
		     char hex[65])
{
	struct known key = { .path = (char *)rel };
	struct known *k = w->n_old ? bsearch(&key, w->old, w->n_old, sizeof(*w->old), by_path) : NULL;
	long long mtime = ns_of(st->st_mtim), ctime = ns_of(st->st_ctim);
	if (k && k->dev == (unsigned long long)st->st_dev && k->ino == (unsigned long long)st->st_ino &&
	    k->size == (unsigned long long)st->st_size && k->mtime == mtime && k->ctime == ctime) {
		memcpy(hex, k->hex, 65);
	} else {
		if (hash_file_content(path, hex) < 0) {
			strbuf_addf(w->err, "%s: %s", path, strerror(errno));
			return -1;
		}
		w->read++;
	}
	if (!strchr(rel, '\n') && w->now - mtime > SETTLED_NS && w->now - ctime > SETTLED_NS)
		strbuf_addf(&w->fresh, "%s %llu %llu %llu %lld %lld %s\n", hex,
			    (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
			    (unsigned long long)st->st_size, mtime, ctime, rel);
	return 0;
}

/* One entry of the tree into the hash: its path, its kind and its data. */
static int hash_entry(const struct folder_entry *e, void *ctx)
{
	struct walk *w = ctx;
	char hex[65], target[4096];
	if (e->error) {
		strbuf_addf(w->err, "%s: %s", e->path, strerror(e->error));
		return -1;
	}
	if (S_ISDIR(e->st.st_mode))
		return FOLDER_WALK_INTO;
	if (S_ISREG(e->st.st_mode)) {
		if (file_hash(w, e->rel, e->path, &e->st, hex) < 0)
			return -1;
		hasher_add_str(w->tree, "path", e->rel);
		hasher_add_str(w->tree, "kind", e->st.st_mode & 0111 ? "exec" : "file");
		hasher_add_str(w->tree, "data", hex);
	} else if (S_ISLNK(e->st.st_mode)) {
		ssize_t n = readlink(e->path, target, sizeof(target) - 1);
		if (n < 0) {
			strbuf_addf(w->err, "%s: %s", e->path, strerror(errno));
			return -1;
		}
		target[n] = '\0';
		hasher_add_str(w->tree, "path", e->rel);
		hasher_add_str(w->tree, "kind", "link");
		hasher_add_str(w->tree, "data", target);
	}
	return 0;
}

int tree_hash(const char *dir, const char *stat_cache, char hex[65], struct strbuf *err)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct walk w = { .tree = hasher_new(), .now = ns_of(now), .err = err };
	load_cache(&w, stat_cache);
	int rc = folder_walk(dir, FOLDER_NO_GIT, hash_entry, &w);
	hasher_finish(w.tree, hex);
	if (rc == 0 && stat_cache && w.read)
		write_file_str(stat_cache, strbuf_str(&w.fresh));
	for (size_t i = 0; i < w.n_old; i++)
		free(w.old[i].path);
	free(w.old);
	strbuf_release(&w.fresh);
	return rc;
}
