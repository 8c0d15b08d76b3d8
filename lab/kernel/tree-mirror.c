/* A mirror of a source tree to build from (tree-mirror.h). */
#include "tree-mirror.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/folder.h"

static bool same_bytes(const char *a, const char *b)
{
	size_t la, lb;
	char *x = read_file(a, &la), *y = x ? read_file(b, &lb) : NULL;
	bool same = x && y && la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return same;
}

/* A copy of FROM at TO with FROM's mode; its time is now. */
static int copy_fresh(const char *from, const char *to, mode_t mode, struct strbuf *err)
{
	/* never setuid or setgid: the lab may run as root, the tree is anyone's */
	if (copy_file(from, to) < 0 || chmod(to, mode & 01777) < 0) {
		strbuf_addf(err, "cannot copy %s to %s: %s", from, to, strerror(errno));
		return -1;
	}
	return 0;
}

static int mirror_file(const char *src, const char *dest, const struct stat *s, struct strbuf *err)
{
	struct stat d;
	bool exists = lstat(dest, &d) == 0;
	if (exists && S_ISREG(d.st_mode)) {
		if (d.st_dev == s->st_dev && d.st_ino == s->st_ino)
			return 0;
		/* a copy the mirror made across file systems keeps the tree's time */
		if (d.st_size == s->st_size && d.st_mtim.tv_sec == s->st_mtim.tv_sec &&
		    d.st_mtim.tv_nsec == s->st_mtim.tv_nsec)
			return 0;
		if (d.st_size == s->st_size && same_bytes(src, dest))
			return 0;
	}
	if (exists && remove_tree(dest) < 0) {
		strbuf_addf(err, "cannot remove %s: %s", dest, strerror(errno));
		return -1;
	}
	/* only a file new to the mirror is linked: a replaced one must look new to
	 * make; a setuid or setgid file is copied without those bits, never linked */
	if (!exists && !(s->st_mode & (S_ISUID | S_ISGID))) {
		if (link(src, dest) == 0)
			return 0;
		if (errno != EXDEV && errno != EPERM && errno != EMLINK) {
			strbuf_addf(err, "cannot link %s to %s: %s", src, dest, strerror(errno));
			return -1;
		}
	}
	if (copy_fresh(src, dest, s->st_mode, err) < 0)
		return -1;
	if (!exists) {
		/* new to the mirror: as a link would, it has the tree's time */
		struct timespec times[2] = { s->st_atim, s->st_mtim };
		utimensat(AT_FDCWD, dest, times, AT_SYMLINK_NOFOLLOW);
	}
	return 0;
}

static int mirror_link(const char *src, const char *dest, struct strbuf *err)
{
	char want[4096], have[4096];
	ssize_t n = readlink(src, want, sizeof(want) - 1);
	if (n < 0) {
		strbuf_addf(err, "%s: %s", src, strerror(errno));
		return -1;
	}
	want[n] = '\0';
	ssize_t m = readlink(dest, have, sizeof(have) - 1);
	if (m >= 0) {
		have[m] = '\0';
		if (!strcmp(want, have))
			return 0;
	}
	remove_tree(dest);
	if (symlink(want, dest) < 0) {
		strbuf_addf(err, "cannot make the link %s: %s", dest, strerror(errno));
		return -1;
	}
	return 0;
}

/* DEST made a folder that holds no name SRC lacks; what it holds is mirrored next. */
static int mirror_dir(const char *src, const char *dest, struct strbuf *err)
{
	struct stat d;
	if (lstat(dest, &d) == 0 && !S_ISDIR(d.st_mode))
		remove_tree(dest);
	if (mkdir_p(dest, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", dest, strerror(errno));
		return -1;
	}
	struct strlist want = STRLIST_INIT, have = STRLIST_INIT;
	if (folder_list(src, FOLDER_NO_GIT, &want) < 0) {
		strbuf_addf(err, "%s: %s", src, strerror(errno));
		return -1;
	}
	folder_list(dest, FOLDER_NO_GIT, &have);
	for (size_t i = 0; i < have.n; i++) {
		if (strlist_has(&want, have.items[i]))
			continue;
		char *gone = xasprintf("%s/%s", dest, have.items[i]);
		remove_tree(gone);
		free(gone);
	}
	strlist_clear(&want);
	strlist_clear(&have);
	return 0;
}

struct mirror {
	const char *dest;
	struct strbuf *err;
};

/* One entry of the tree to its place in the mirror. */
static int mirror_entry(const struct folder_entry *e, void *ctx)
{
	struct mirror *m = ctx;
	if (e->error) {
		strbuf_addf(m->err, "%s: %s", e->path, strerror(e->error));
		return -1;
	}
	char *to = xasprintf("%s/%s", m->dest, e->rel);
	int rc = 0;
	if (S_ISDIR(e->st.st_mode))
		rc = mirror_dir(e->path, to, m->err) < 0 ? -1 : FOLDER_WALK_INTO;
	else if (S_ISREG(e->st.st_mode))
		rc = mirror_file(e->path, to, &e->st, m->err);
	else if (S_ISLNK(e->st.st_mode))
		rc = mirror_link(e->path, to, m->err);
	free(to);
	return rc;
}

int tree_mirror(const char *src, const char *dest, struct strbuf *err)
{
	struct mirror m = { dest, err };
	if (mirror_dir(src, dest, err) < 0)
		return -1;
	return folder_walk(src, FOLDER_NO_GIT, mirror_entry, &m);
}
