/* Where a variant's kernel comes from (kernel-source.h). */
#include "kernel-source.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "git-tree.h"
#include "lab/util/hash.h"
#include "kconfig.h"
#include "kernel-image.h"
#include "lab/util/progress.h"
#include "tree-hash.h"
#include "tree-mirror.h"
#include "common/paths.h"
#include "common/run-command.h"

const char *kernel_source_version(void)
{
	static char *version;
	if (version)
		return version;
	const char *argv[] = { "dpkg-query", "-W", "-f=${Version}", KERNEL_SOURCE_PACKAGE, NULL };
	struct strbuf out = STRBUF_INIT;
	if (capture_command(argv, NULL, &out) != 0 || !out.len)
		die("the Debian package %s is not installed (scripts/install-deps installs it)",
		    KERNEL_SOURCE_PACKAGE);
	version = xstrdup(trim(out.buf));
	strbuf_release(&out);
	return version;
}

/* ---- the `source` file ---- */

static char *absolute(const char *base, const char *path)
{
	return path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", base, path);
}

int kernel_source_parse(struct kernel_source *s, const char *variant_dir, const char *file,
			const char *text, struct strbuf *err)
{
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	char *copy = xstrdup(text);
	int line_no = 0, found = 0, rc = 0;
	for (char *line = copy, *next; line && rc == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line_no++;
		char *t = trim(line);
		if (!*t || *t == '#')
			continue;
		if (found++) {
			strbuf_addf(err, "%s:%d: a source is one line (the first was line %d)", file,
				    line_no, s->line);
			rc = -1;
			break;
		}
		char *words[4] = { 0 }, *save = NULL, *as_written = xstrdup(t);
		int n = 0;
		s->line = line_no;
		for (char *w = strtok_r(t, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
			words[n < 4 ? n : 3] = w, n++;
		const char *kind = words[0];
		if (!strcmp(kind, "tree") && n == 2) {
			s->kind = SOURCE_TREE;
		} else if (!strcmp(kind, "git") && n == 3) {
			s->kind = SOURCE_GIT;
			s->ref = xstrdup(words[2]);
		} else if (!strcmp(kind, "bzimage") && (n == 2 || n == 3)) {
			s->kind = SOURCE_BZIMAGE;
			if (n == 3)
				s->vmlinux = absolute(variant_dir, words[2]);
		} else {
			strbuf_addf(err, "%s:%d: wants 'tree DIR', 'git DIR REF' or 'bzimage FILE [VMLINUX]', "
				    "not '%s'", file, line_no, as_written);
			free(as_written);
			rc = -1;
			break;
		}
		free(as_written);
		s->path = absolute(variant_dir, words[1]);
	}
	free(copy);
	if (rc == 0 && !found) {
		strbuf_addf(err, "%s: empty: it wants 'tree DIR', 'git DIR REF' or 'bzimage FILE [VMLINUX]'",
			    file);
		rc = -1;
	}
	return rc;
}

/* ---- checking what it names ---- */

/* PATH made canonical (it must exist); NULL with errno. */
static char *canonical(const char *path)
{
	char buf[PATH_MAX];
	return realpath(path, buf) ? xstrdup(buf) : NULL;
}

static int replace_canonical(char **path, const char *file, int line, const char *what,
			     bool want_dir, struct strbuf *err)
{
	char *real = canonical(*path);
	if (!real || (want_dir && !is_dir(real)) || (!want_dir && is_dir(real))) {
		strbuf_addf(err, "%s:%d: %s %s: %s", file, line, what, *path,
			    !real ? strerror(errno) : want_dir ? "not a folder" : "a folder, not a file");
		free(real);
		return -1;
	}
	free(*path);
	*path = real;
	return 0;
}

/* The top of a kernel tree: a Makefile with VERSION and PATCHLEVEL, Kconfig, arch/x86. */
static const char *not_kernel_tree(const char *dir)
{
	char *makefile = xasprintf("%s/Makefile", dir), *kconfig = xasprintf("%s/Kconfig", dir);
	char *arch = xasprintf("%s/arch/x86/Kconfig", dir);
	char *text = read_file(makefile, NULL);
	const char *why = NULL;
	if (!text || !strstr(text, "\nVERSION = ") || !strstr(text, "\nPATCHLEVEL = ") ||
	    !path_exists(kconfig))
		why = "not a kernel source tree (no top Makefile with VERSION and PATCHLEVEL, or no Kconfig)";
	else if (!path_exists(arch))
		why = "a kernel tree without arch/x86";
	free(text);
	free(makefile);
	free(kconfig);
	free(arch);
	return why;
}

/* `make O=` refuses a tree that was configured or built in place. */
static const char *not_clean(const char *dir)
{
	static const char *const marks[] = { ".config", "include/config", "arch/x86/include/generated" };
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		char *p = xasprintf("%s/%s", dir, marks[i]);
		bool there = path_exists(p);
		free(p);
		if (there)
			return marks[i];
	}
	return NULL;
}

static char *path_key(const char *path)
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, "path", path);
	char hex[65];
	hasher_finish(h, hex);
	return xstrndup(hex, 12);
}

static int load_tree(struct kernel_source *s, struct strbuf *err)
{
	if (replace_canonical(&s->path, s->file, s->line, "tree", true, err) < 0)
		return -1;
	const char *why = not_kernel_tree(s->path), *dirty = why ? NULL : not_clean(s->path);
	if (why || dirty) {
		if (why)
			strbuf_addf(err, "%s:%d: tree %s: %s", s->file, s->line, s->path, why);
		else
			strbuf_addf(err, "%s:%d: tree %s: not clean: it has %s (configured or built in "
				    "place; `make mrproper` there: the lab builds out of tree and never "
				    "writes it)", s->file, s->line, s->path, dirty);
		return -1;
	}
	char *key = path_key(s->path);
	char *dir = cache_path("trees");
	char *stat_cache = xasprintf("%s/%s.stat", dir, key);
	mkdir_p(dir, 0755);
	char hex[65];
	struct strbuf why_not = STRBUF_INIT;
	int rc = tree_hash(s->path, stat_cache, hex, &why_not);
	if (rc < 0)
		strbuf_addf(err, "%s:%d: tree %s: cannot read it: %s", s->file, s->line, s->path, why_not.buf);
	else
		s->id = xasprintf("tree %s", hex);
	strbuf_release(&why_not);
	free(stat_cache);
	free(dir);
	free(key);
	return rc;
}

static int load_git(struct kernel_source *s, struct strbuf *err)
{
	if (replace_canonical(&s->path, s->file, s->line, "git", true, err) < 0)
		return -1;
	struct strbuf why = STRBUF_INIT;
	if (git_resolve(s->path, s->ref, &s->tree_id, &s->commit, &why) < 0) {
		strbuf_addf(err, "%s:%d: git: %s", s->file, s->line, why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	static const char *const tops[] = { "Makefile", "Kconfig", "arch/x86/Kconfig" };
	for (size_t i = 0; i < sizeof(tops) / sizeof(tops[0]); i++)
		if (!git_tree_has(s->path, s->tree_id, tops[i])) {
			strbuf_addf(err, "%s:%d: git %s %s: not a kernel source tree (no %s)", s->file,
				    s->line, s->path, s->ref, tops[i]);
			return -1;
		}
	s->id = xasprintf("git %s", s->tree_id);
	return 0;
}

/* The image's configuration: its own, else its vmlinux's, else the file `config` beside it. */
static int image_config(struct kernel_source *s, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	if ((s->config = kernel_image_config(s->path, &why))) {
		s->config_origin = xstrdup("IKCONFIG");
		strbuf_release(&why);
		return 0;
	}
	struct strbuf ignored = STRBUF_INIT;
	if (s->vmlinux && (s->config = vmlinux_config(s->vmlinux, &ignored))) {
		s->config_origin = xasprintf("%s (IKCONFIG)", s->vmlinux);
		strbuf_release(&why);
		strbuf_release(&ignored);
		return 0;
	}
	strbuf_release(&ignored);
	char *beside = xstrdup(s->path);
	*strrchr(beside, '/') = '\0';
	char *config = xasprintf("%s/config", beside);
	free(beside);
	if ((s->config = read_file(config, NULL))) {
		s->config_origin = config;
		strbuf_release(&why);
		return 0;
	}
	strbuf_addf(err, "%s:%d: bzimage %s: no configuration to check: %s, and there is no %s", s->file,
		    s->line, s->path, why.buf, config);
	free(config);
	strbuf_release(&why);
	return -1;
}

/* The lab's needs (kernels/required.config) against the image's configuration. */
static int check_required(struct kernel_source *s, struct strbuf *err)
{
	char *required = repo_path(REQUIRED_CONFIG);
	struct kconfig want = KCONFIG_INIT, have = KCONFIG_INIT;
	struct strbuf why = STRBUF_INIT;
	int rc = kconfig_load(&want, required, &why);
	if (rc < 0) {
		strbuf_addstr(err, why.buf);
	} else if ((rc = kconfig_parse(&have, s->config, s->config_origin, &why)) < 0) {
		strbuf_addf(err, "%s:%d: bzimage %s: its configuration does not read: %s", s->file,
			    s->line, s->path, why.buf);
	} else {
		struct strlist lacking = STRLIST_INIT;
		if (kconfig_lacking(&want, &have, &lacking)) {
			strbuf_addf(err, "%s:%d: bzimage %s lacks what the lab needs (%s says why): ",
				    s->file, s->line, s->path, REQUIRED_CONFIG);
			for (size_t i = 0; i < lacking.n; i++)
				strbuf_addf(err, "%s%s", i ? ", " : "", lacking.items[i]);
			rc = -1;
		}
		strlist_clear(&lacking);
	}
	kconfig_clear(&want);
	kconfig_clear(&have);
	strbuf_release(&why);
	free(required);
	return rc;
}

static int load_bzimage(struct kernel_source *s, struct strbuf *err)
{
	if (replace_canonical(&s->path, s->file, s->line, "bzimage", false, err) < 0 ||
	    (s->vmlinux && replace_canonical(&s->vmlinux, s->file, s->line, "vmlinux", false, err) < 0))
		return -1;
	struct strbuf why = STRBUF_INIT;
	if (kernel_image_check(s->path, &why) < 0) {
		strbuf_addf(err, "%s:%d: bzimage %s: %s", s->file, s->line, s->path, why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	if (image_config(s, err) < 0 || check_required(s, err) < 0)
		return -1;
	char image[65], vmlinux[65];
	if (hash_file_content(s->path, image) < 0 ||
	    (s->vmlinux && hash_file_content(s->vmlinux, vmlinux) < 0)) {
		strbuf_addf(err, "%s:%d: cannot read %s: %s", s->file, s->line, s->path, strerror(errno));
		return -1;
	}
	s->id = s->vmlinux ? xasprintf("bzimage %s vmlinux %s", image, vmlinux)
			   : xasprintf("bzimage %s", image);
	return 0;
}

int kernel_source_load(struct kernel_source *s, const char *variant_dir, struct strbuf *err)
{
	char *file = xasprintf("%s/source", variant_dir);
	char *text = read_file(file, NULL);
	if (!text) {
		free(file);
		memset(s, 0, sizeof(*s));
		s->kind = SOURCE_DEBIAN;
		s->id = xstrdup(kernel_source_version());
		return 0;
	}
	int rc = kernel_source_parse(s, variant_dir, file, text, err);
	free(text);
	free(file);
	if (rc < 0)
		return -1;
	switch (s->kind) {
	case SOURCE_TREE:    return load_tree(s, err);
	case SOURCE_GIT:     return load_git(s, err);
	case SOURCE_BZIMAGE: return load_bzimage(s, err);
	case SOURCE_DEBIAN:  break;
	}
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void kernel_source_copy(struct kernel_source *to, const struct kernel_source *from)
{
	*to = (struct kernel_source){
		.kind = from->kind, .file = dup_or_null(from->file), .path = dup_or_null(from->path),
		.ref = dup_or_null(from->ref), .vmlinux = dup_or_null(from->vmlinux),
		.tree_id = dup_or_null(from->tree_id), .commit = dup_or_null(from->commit),
		.config = dup_or_null(from->config), .config_origin = dup_or_null(from->config_origin),
		.id = dup_or_null(from->id),
	};
}

void kernel_source_clear(struct kernel_source *s)
{
	free(s->file);
	free(s->path);
	free(s->ref);
	free(s->vmlinux);
	free(s->tree_id);
	free(s->commit);
	free(s->config);
	free(s->config_origin);
	free(s->id);
	memset(s, 0, sizeof(*s));
}

/* ---- describing and building ---- */

/* The hash in an id ("tree 1a2b...") cut to 12 digits. */
static const char *short_hash(const char *id)
{
	static char buf[13];
	const char *space = id ? strchr(id, ' ') : NULL;
	snprintf(buf, sizeof(buf), "%s", space ? space + 1 : "");
	return buf;
}

char *kernel_source_describe(const struct kernel_source *s)
{
	switch (s->kind) {
	case SOURCE_TREE:
		return xasprintf("tree %s (content %s)", s->path, short_hash(s->id));
	case SOURCE_GIT:
		return xasprintf("git %s %s (commit %.12s, tree %.12s)", s->path, s->ref,
				 *s->commit ? s->commit : "none", s->tree_id);
	case SOURCE_BZIMAGE:
		return s->vmlinux ? xasprintf("bzimage %s (sha256 %s), vmlinux %s", s->path,
					      short_hash(s->id), s->vmlinux)
				  : xasprintf("bzimage %s (sha256 %s)", s->path, short_hash(s->id));
	case SOURCE_DEBIAN:
		break;
	}
	return xasprintf("%s %s", KERNEL_SOURCE_PACKAGE, s->id);
}

char *kernel_source_line(const struct kernel_source *s)
{
	switch (s->kind) {
	case SOURCE_TREE:
		return xasprintf("tree %s\n", s->path);
	case SOURCE_GIT:
		return xasprintf("git %s %s\n", s->path, s->ref);
	case SOURCE_BZIMAGE:
		return s->vmlinux ? xasprintf("bzimage %s %s\n", s->path, s->vmlinux)
				  : xasprintf("bzimage %s\n", s->path);
	case SOURCE_DEBIAN:
		break;
	}
	return NULL;
}

bool kernel_source_builds(const struct kernel_source *s)
{
	return s->kind != SOURCE_BZIMAGE;
}

char *kernel_source_workspace(const struct kernel_source *s)
{
	if (s->kind == SOURCE_TREE || s->kind == SOURCE_GIT) {
		char *key = path_key(s->path);
		char *ws = xasprintf("%s/%s-%s", cache_root(), s->kind == SOURCE_TREE ? "tree" : "git", key);
		free(key);
		return ws;
	}
	char *version = xstrdup(s->id);
	for (char *p = version; *p; p++)
		if (*p == '~' || *p == ':' || *p == '/')
			*p = '_';
	char *dir = xasprintf("%s/linux-%s", cache_root(), version);
	free(version);
	return dir;
}

static int extract_debian(const char *ws, const char *tree, struct progress *pr, struct strbuf *err)
{
	if (is_dir(tree))
		return 0;
	if (!path_exists(KERNEL_SOURCE_TARBALL)) {
		strbuf_addf(err, "%s is missing: reinstall the Debian package %s", KERNEL_SOURCE_TARBALL,
			    KERNEL_SOURCE_PACKAGE);
		return -1;
	}
	progress_step(pr, "extracting the kernel source", 0);
	char *tmp = xasprintf("%s/src.tmp", ws);
	remove_tree(tmp);
	mkdir_p(tmp, 0755);
	const char *argv[] = { "tar", "-xf", KERNEL_SOURCE_TARBALL, "-C", tmp, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc = 0;
	if (capture_command(argv, NULL, &out) != 0) {
		strbuf_addf(err, "extracting %s failed: %s", KERNEL_SOURCE_TARBALL, trim(out.buf));
		rc = -1;
	} else {
		char *top = xasprintf("%s/linux-source-6.12", tmp);
		if (rename(top, tree) < 0) {
			strbuf_addf(err, "%s: unexpected tarball layout: %s", KERNEL_SOURCE_TARBALL,
				    strerror(errno));
			rc = -1;
		}
		free(top);
	}
	remove_tree(tmp);
	free(tmp);
	strbuf_release(&out);
	return rc;
}

/* The mirror must hold the files the cache key was taken from. */
static int mirror_tree(const struct kernel_source *s, const char *tree, struct progress *pr,
		       struct strbuf *err)
{
	progress_step(pr, "mirroring the tree", 0);
	if (tree_mirror(s->path, tree, err) < 0)
		return -1;
	char *key = path_key(s->path);
	char *stat_cache = xasprintf("%s/trees/%s.stat", cache_root(), key);
	char hex[65];
	struct strbuf why = STRBUF_INIT;
	int rc = tree_hash(tree, stat_cache, hex, &why);
	if (rc < 0)
		strbuf_addf(err, "cannot read the mirror %s: %s", tree, why.buf);
	else if (strcmp(s->id + strlen("tree "), hex)) {
		strbuf_addf(err, "the tree %s changed while the lab read it (content %.12s, now %.12s): "
			    "run again", s->path, s->id + strlen("tree "), hex);
		rc = -1;
	}
	strbuf_release(&why);
	free(stat_cache);
	free(key);
	return rc;
}

int kernel_source_prepare(const struct kernel_source *s, const char *ws, const char *tree,
			  struct progress *pr, struct strbuf *err)
{
	switch (s->kind) {
	case SOURCE_TREE:
		return mirror_tree(s, tree, pr, err);
	case SOURCE_GIT: {
		progress_step(pr, "exporting the git tree", 0);
		char *state = xasprintf("%s/tree-id", ws);
		int rc = git_tree_export(s->path, s->tree_id, tree, state, err);
		free(state);
		return rc;
	}
	case SOURCE_BZIMAGE:
		strbuf_addstr(err, "a prebuilt kernel has no tree to build");
		return -1;
	case SOURCE_DEBIAN:
		break;
	}
	return extract_debian(ws, tree, pr, err);
}
