/* The user's folders in the guest (guest-files.h). */
#include "guest-files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "guest-root.h"
#include "lab/util/hash.h"
#include "common/folder.h"
#include "common/proto/protocol.h"

/* Folders within folders, links followed: deeper is a loop of links. */
#define MAX_DEPTH 32

struct walk {
	struct guest_files *f;
	struct strbuf *err;
	char *top;	/* the folder given, its links resolved: no link may leave it */
	const char *under;	/* where the folder goes in the guest's folder ("" at the top) */
};

/* Whether PATH, a link under the folder W walks, points inside it (issue 37:
 * a link to /etc/shadow would put the host's file into the guest). */
static bool link_stays_inside(const struct walk *w, const char *path, char **target)
{
	*target = realpath(path, NULL);
	if (!*target || !w->top)
		return false;
	size_t n = strlen(w->top);
	return !strcmp(w->top, "/") ||
	       (!strncmp(*target, w->top, n) && ((*target)[n] == '/' || !(*target)[n]));
}

/* A "#!" script's interpreter (its first word), else NULL. */
static char *script_interpreter(const char *path)
{
	FILE *in = fopen(path, "r");
	if (!in)
		return NULL;
	char line[256];
	char *interp = NULL;
	if (fgets(line, sizeof(line), in) && starts_with(line, "#!")) {
		char *p = line + 2;
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t\r\n");
		if (len)
			interp = xstrndup(p, len);
	}
	fclose(in);
	return interp;
}

static int add_file(struct walk *w, const char *rel, const char *host, const struct stat *st)
{
	struct guest_files *f = w->f;
	struct elf_facts elf;
	char content[65];
	if (elf_check_arch(host, f->arch, &elf, w->err) < 0)
		return -1;
	if (hash_file_content(host, content) < 0) {
		strbuf_addf(w->err, "%s: cannot read: %s", host, strerror(errno));
		return -1;
	}
	if (elf.dynamic) {
		struct guest_root root = { .arch = f->arch };   /* the libraries need no more */
		if (guest_root_libraries(&root, host, &f->libs, w->err) < 0)
			return -1;
	}
	ALLOC_GROW(f->files, f->n + 1, f->alloc);
	f->files[f->n++] = (struct guest_file){
		.path = xstrdup(rel), .host = xstrdup(host), .executable = (st->st_mode & 0111) != 0,
		.folder = f->dirs.n - 1,
		.interpreter = !elf.is_elf && (st->st_mode & 0111) ? script_interpreter(host) : NULL,
	};
	memcpy(f->files[f->n - 1].content, content, sizeof(content));
	return 0;
}

/* One entry of the folder walked: a file is added, a folder (or a link to
 * one inside the folder) walked into; a link out of it, or anything else, is
 * an error. */
static int take_entry(const struct folder_entry *e, void *ctx)
{
	struct walk *w = ctx;
	if (e->listing) {
		strbuf_addf(w->err, "%s: cannot read: %s", e->path, strerror(e->error));
		return -1;
	}
	char *sub = *w->under ? xasprintf("%s/%s", w->under, e->rel) : xstrdup(e->rel);
	struct stat st;
	char *target = NULL;
	int rc = 0;
	if (!e->error && S_ISLNK(e->st.st_mode) && !link_stays_inside(w, e->path, &target)) {
		strbuf_addf(w->err, "%s: a link out of %s (to %s): the guest gets only what the "
			    "folder holds; copy the file in", e->path, w->top ? w->top : "the folder",
			    target ? target : "nowhere");
		rc = -1;
	} else if (stat(e->path, &st) < 0) {
		strbuf_addf(w->err, "%s: %s", e->path, strerror(errno));
		rc = -1;
	} else if (S_ISDIR(st.st_mode) && e->depth + 1 > MAX_DEPTH) {
		strbuf_addf(w->err, "%s: folders more than %d deep (a loop of links?)", e->path, MAX_DEPTH);
		rc = -1;
	} else if (S_ISDIR(st.st_mode)) {
		rc = FOLDER_WALK_INTO;
	} else if (S_ISREG(st.st_mode)) {
		rc = add_file(w, sub, e->path, &st);
	} else {
		strbuf_addf(w->err, "%s: neither a file nor a folder", e->path);
		rc = -1;
	}
	free(target);
	free(sub);
	return rc;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct guest_file *)a)->path, ((const struct guest_file *)b)->path);
}

int guest_files_add(struct guest_files *f, const char *dir, struct strbuf *err)
{
	return guest_files_add_under(f, dir, "", err);
}

int guest_files_add_under(struct guest_files *f, const char *dir, const char *under,
			  struct strbuf *err)
{
	if (!is_dir(dir)) {
		strbuf_addf(err, "%s: %s", dir, path_exists(dir) ? "not a folder" : "no such folder");
		return -1;
	}
	struct walk w = { f, err, realpath(dir, NULL), under };
	strlist_push(&f->dirs, dir);
	int walked = folder_walk(dir, 0, take_entry, &w);
	free(w.top);
	if (walked < 0)
		return -1;
	qsort(f->files, f->n, sizeof(*f->files), by_path);
	/* the folders merge into one: a name two of them have would be one file */
	for (size_t i = 1; i < f->n; i++)
		if (!strcmp(f->files[i - 1].path, f->files[i].path)) {
			strbuf_addf(err, "%s and %s would both be " GUEST_FILES_DIR "/%s in the guest",
				    f->files[i - 1].host, f->files[i].host, f->files[i].path);
			return -1;
		}
	strlist_sort(&f->libs);
	f->hash[0] = '\0';
	return 0;
}

void guest_files_finish(struct guest_files *f)
{
	struct hasher *h = hasher_new();
	for (size_t i = 0; i < f->n; i++) {
		hasher_add_str(h, "path", f->files[i].path);
		hasher_add_str(h, "mode", f->files[i].executable ? "executable" : "file");
		hasher_add_str(h, "content", f->files[i].content);
	}
	hasher_finish(h, f->hash);
}

bool guest_files_any(const struct guest_files *f)
{
	return f->dirs.n > 0;
}

char *guest_files_path(const char *relative)
{
	return xasprintf(GUEST_FILES_DIR "/%s", relative);
}

json_t *guest_files_json(const struct guest_files *f)
{
	json_t *dirs = json_array();
	for (size_t i = 0; i < f->dirs.n; i++)
		json_array_append_new(dirs, json_string(f->dirs.items[i]));
	return json_pack("{s:s, s:o}", "hash", f->hash, "dirs", dirs);
}

void guest_files_clear(struct guest_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->files[i].path);
		free(f->files[i].host);
		free(f->files[i].interpreter);
	}
	free(f->files);
	strlist_clear(&f->dirs);
	strlist_clear(&f->libs);
	enum guest_arch arch = f->arch;
	memset(f, 0, sizeof(*f));
	f->arch = arch;
}
