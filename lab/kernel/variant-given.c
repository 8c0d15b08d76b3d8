/* Variants given on the command line, staged as variant folders (variant-given.h). */
#include "variant-given.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/util/hash.h"
#include "kernel-catalog.h"
#include "kernel-source.h"
#include "variant.h"
#include "common/folder.h"
#include "common/paths.h"

/* A staged folder's files, in memory until its hash names the folder. */
struct staged_file {
	char *name;
	char *data;
	size_t len;
};

struct staging {
	struct staged_file *files;
	size_t n, alloc;
};

static void stage_add(struct staging *st, const char *name, char *data, size_t len)
{
	ALLOC_GROW(st->files, st->n + 1, st->alloc);
	st->files[st->n++] = (struct staged_file){ xstrdup(name), data, len };
}

static void stage_add_str(struct staging *st, const char *name, const char *text)
{
	stage_add(st, name, xstrdup(text), strlen(text));
}

static void staging_clear(struct staging *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->files[i].name);
		free(st->files[i].data);
	}
	free(st->files);
	memset(st, 0, sizeof(*st));
}

char *given_variant_name(const char *arg)
{
	return xstrndup(arg, strcspn(arg, "="));
}

/*
 * The source a spec names, checked as the catalogue will check it: a
 * `source` file alone in a scratch folder, loaded (kernel-source.h); its
 * message's "FOLDER/source:1: " becomes the option's. LINE is the file's
 * text; a git source comes back pinned to its commit.
 */
static int check_source(const char *arg, char **line, struct strbuf *err)
{
	/* a folder of its own (mkdtemp): two labs on one shared cache never meet */
	char *given = xasprintf("%s/given", cache_root());
	char *scratch = xasprintf("%s/tmp.XXXXXX", given);
	bool made = mkdir_p(given, 0755) == 0 && mkdtemp(scratch);
	char *file = xasprintf("%s/source", scratch);
	free(given);
	struct kernel_source s;
	memset(&s, 0, sizeof(s));
	struct strbuf why = STRBUF_INIT;
	int rc = -1;
	if (!made || write_file_str(file, *line) < 0) {
		strbuf_addf(err, "--variant '%s': cannot write %s: %s", arg, file, strerror(errno));
	} else if (kernel_source_load(&s, scratch, &why) < 0) {
		const char *said = why.buf;
		if (starts_with(said, file) && strstr(said, ": "))
			said = strstr(strchr(said + strlen(file), ':') + 1, ": ") + 2;
		strbuf_addf(err, "--variant '%s': %s", arg, said);
	} else {
		if (s.kind == SOURCE_GIT && s.commit && *s.commit) {
			free(s.ref);
			s.ref = xstrdup(s.commit);
			free(*line);
			*line = kernel_source_line(&s);
		}
		rc = 0;
	}
	kernel_source_clear(&s);
	strbuf_release(&why);
	remove_tree(scratch);
	free(file);
	free(scratch);
	return rc;
}

static bool is_patch(const char *name)
{
	return ends_with(name, ".patch") || ends_with(name, ".diff");
}

/*
 * The files of the known variant folder DIR, for a copy: its fragment,
 * command line and source (paths made absolute: the copy lives elsewhere),
 * and, with PATCHES, its patches: as they are named without NEXT (the same
 * kernel, the same cache key), else numbered from *NEXT in their order.
 */
static int copy_known(struct staging *st, const char *arg, const char *dir, bool patches, unsigned *next,
		      struct strbuf *err)
{
	static const char *const plain[] = { "config", "cmdline", NULL };
	for (const char *const *f = plain; *f; f++) {
		char *path = xasprintf("%s/%s", dir, *f);
		size_t len;
		char *data = read_file(path, &len);
		if (data)
			stage_add(st, *f, data, len);
		free(path);
	}
	char *source_file = xasprintf("%s/source", dir);
	char *text = read_file(source_file, NULL);
	int rc = 0;
	if (text) {
		struct kernel_source s;
		if (kernel_source_parse(&s, dir, source_file, text, err) < 0) {
			rc = -1;
		} else {
			char *line = kernel_source_line(&s);
			stage_add_str(st, "source", line);
			free(line);
		}
		kernel_source_clear(&s);
		free(text);
	}
	free(source_file);
	if (rc < 0 || !patches)
		return rc;
	struct strlist names = STRLIST_INIT;
	folder_list(dir, 0, &names);
	for (size_t i = 0; i < names.n && rc == 0; i++) {
		if (!is_patch(names.items[i]))
			continue;
		char *path = xasprintf("%s/%s", dir, names.items[i]);
		size_t len;
		char *data = read_file(path, &len);
		if (!data) {
			strbuf_addf(err, "--variant '%s': %s: %s", arg, path, strerror(errno));
			rc = -1;
		} else {
			char *name = next ? xasprintf("%02u-%s", (*next)++, names.items[i])
					  : xstrdup(names.items[i]);
			stage_add(st, name, data, len);
			free(name);
		}
		free(path);
	}
	strlist_clear(&names);
	return rc;
}

/* patch:F[,F...]: on top of the baseline's folder. */
static int stage_patches(struct staging *st, const char *arg, const char *files, const char *baseline,
			 struct strbuf *err)
{
	char *base = variant_folder_find(baseline);
	if (!base) {
		strbuf_addf(err, "--variant '%s': the baseline '%s' is not a variant the lab knows "
			    "(lab kernel list), nor given before it", arg, baseline);
		return -1;
	}
	unsigned next = 1;
	int rc = copy_known(st, arg, base, true, &next, err);
	for (size_t i = 0; i < st->n && rc == 0; i++)
		if (!strcmp(st->files[i].name, "source") && starts_with(st->files[i].data, "bzimage ")) {
			strbuf_addf(err, "--variant '%s': the baseline '%s' is a prebuilt kernel: "
				    "patches cannot apply to it", arg, baseline);
			rc = -1;
		}
	char *copy = xstrdup(files), *save = NULL;
	size_t given = 0;
	for (char *f = strtok_r(copy, ",", &save); f && rc == 0; f = strtok_r(NULL, ",", &save)) {
		size_t len;
		char *data = read_file(f, &len);
		const char *base_name = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
		if (!data) {
			strbuf_addf(err, "--variant '%s': %s: %s", arg, f, strerror(errno));
			rc = -1;
			break;
		}
		char *name = xasprintf("%02u-%s%s", next++, base_name, is_patch(base_name) ? "" : ".patch");
		stage_add(st, name, data, len);
		free(name);
		given++;
	}
	free(copy);
	if (rc == 0 && !given) {
		strbuf_addf(err, "--variant '%s': patch: wants one or more files, comma separated", arg);
		rc = -1;
	}
	free(base);
	return rc;
}

/* git:DIR@REF, tree:DIR, bzimage:FILE: a `source` line, checked. */
static int stage_source(struct staging *st, const char *arg, const char *kind, const char *what,
			struct strbuf *err)
{
	struct kernel_source s;
	memset(&s, 0, sizeof(s));
	char *dir = NULL;
	if (!strcmp(kind, "git")) {
		const char *at = strrchr(what, '@');
		if (!at || at == what || !at[1]) {
			strbuf_addf(err, "--variant '%s': git: wants DIR@REF", arg);
			return -1;
		}
		s.kind = SOURCE_GIT;
		dir = xstrndup(what, (size_t)(at - what));
		s.ref = xstrdup(at + 1);
	} else {
		s.kind = !strcmp(kind, "tree") ? SOURCE_TREE : SOURCE_BZIMAGE;
		dir = xstrdup(what);
	}
	if (!*dir || strpbrk(dir, " \t\n") || (s.ref && strpbrk(s.ref, " \t\n"))) {
		strbuf_addf(err, "--variant '%s': %s: wants a path without blanks", arg, kind);
		free(dir);
		free(s.ref);
		return -1;
	}
	char cwd[4096];
	s.path = dir[0] == '/' || !getcwd(cwd, sizeof(cwd)) ? xstrdup(dir) : xasprintf("%s/%s", cwd, dir);
	free(dir);
	char *line = kernel_source_line(&s);
	kernel_source_clear(&s);
	int rc = check_source(arg, &line, err);
	if (rc == 0)
		stage_add_str(st, "source", line);
	free(line);
	return rc;
}

/* Writes ST as <cache>/given/HASH/NAME/ (once: the same files are the same folder). */
static int stage_write(struct staging *st, const char *name, char **folder, struct strbuf *err)
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, "name", name);
	for (size_t i = 0; i < st->n; i++) {
		hasher_add_str(h, "file", st->files[i].name);
		hasher_add_field(h, "data", st->files[i].data, st->files[i].len);
	}
	char hex[65];
	hasher_finish(h, hex);
	char *parent = xasprintf("%s/given/%.16s", cache_root(), hex);
	*folder = xasprintf("%s/%s", parent, name);
	int rc = 0;
	if (!is_dir(*folder)) {
		/* written aside (mkdtemp), then renamed: a concurrent run sees all of it or none */
		char *tmp = xasprintf("%s.tmp.XXXXXX", parent);
		char *given = xasprintf("%s/given", cache_root());
		char *dir = NULL;
		rc = mkdir_p(given, 0755) == 0 && mkdtemp(tmp) ? 0 : -1;
		free(given);
		if (rc == 0) {
			chmod(tmp, 0755);
			dir = xasprintf("%s/%s", tmp, name);
			rc = mkdir_p(dir, 0755);
		}
		for (size_t i = 0; i < st->n && rc == 0; i++) {
			char *path = xasprintf("%s/%s", dir, st->files[i].name);
			rc = write_file_atomic(path, st->files[i].data, st->files[i].len);
			free(path);
		}
		if (rc == 0 && rename(tmp, parent) < 0 && !is_dir(*folder))
			rc = -1;
		if (rc < 0)
			strbuf_addf(err, "cannot write %s: %s", parent, strerror(errno));
		remove_tree(tmp);
		free(dir);
		free(tmp);
	}
	if (rc == 0)
		kernel_catalog_add_folder(parent);
	free(parent);
	return rc;
}

static int stage_one(struct given_variant *g, const char *arg, const char *baseline, struct strbuf *err)
{
	const char *eq = strchr(arg, '=');
	g->name = given_variant_name(arg);
	/* a companion of a known variant ("stock+test"): the catalogue has it */
	const char *plus = eq ? NULL : strchr(g->name, '+');
	bool companion = false;
	for (int c = BUILD_OWN + 1; plus && c < BUILD_COMPANION_COUNT; c++)
		companion |= !strcmp(plus + 1, build_companion_name((enum build_companion)c));
	if (companion) {
		char *base = xstrndup(g->name, (size_t)(plus - g->name));
		char *known = variant_name_valid(base) ? variant_folder_find(base) : NULL;
		if (!known)
			strbuf_addf(err, "--variant '%s': no variant '%s' (lab kernel list)", arg, base);
		free(base);
		free(known);
		return known ? 0 : -1;
	}
	if (!variant_name_valid(g->name)) {
		strbuf_addf(err, "--variant '%s': a variant's name uses a-z, 0-9, '-', '_' and '.'", arg);
		return -1;
	}
	char *known = variant_folder_find(g->name);
	char *staged_root = xasprintf("%s/given/", cache_root());
	if (eq && known && starts_with(known, staged_root)) {
		/* staged before by this process: not the catalogue's */
		free(known);
		known = NULL;
	}
	free(staged_root);
	if (!eq) {
		if (!known)
			strbuf_addf(err, "--variant '%s': no variant '%s' (lab kernel list; NAME=SPEC "
				    "gives a new one)", arg, g->name);
		free(known);
		return known ? 0 : -1;
	}
	if (known) {
		strbuf_addf(err, "--variant '%s': a variant named '%s' exists already (%s): give "
			    "yours another name", arg, g->name, known);
		free(known);
		return -1;
	}
	g->spec = xstrdup(eq + 1);
	struct staging st = { 0 };
	char *readme = xasprintf("%s: %s (lab run --variant)\n", g->name, g->spec);
	stage_add_str(&st, "README", readme);
	free(readme);
	const char *colon = strchr(g->spec, ':');
	char *kind = colon ? xstrndup(g->spec, (size_t)(colon - g->spec)) : NULL;
	int rc;
	if (!colon) {
		char *other = variant_folder_find(g->spec);
		if (!other) {
			strbuf_addf(err, "--variant '%s': '%s' is no variant the lab knows (lab kernel list) "
				    "nor a spec (patch:, git:, tree:, bzimage:)", arg, g->spec);
			rc = -1;
		} else {
			rc = copy_known(&st, arg, other, true, NULL, err);
		}
		free(other);
	} else if (!strcmp(kind, "patch")) {
		rc = stage_patches(&st, arg, colon + 1, baseline, err);
	} else if (!strcmp(kind, "git") || !strcmp(kind, "tree") || !strcmp(kind, "bzimage")) {
		rc = stage_source(&st, arg, kind, colon + 1, err);
	} else {
		strbuf_addf(err, "--variant '%s': '%s:' is no spec: patch:FILE[,FILE...], git:DIR@REF, "
			    "tree:DIR or bzimage:FILE", arg, kind);
		rc = -1;
	}
	free(kind);
	if (rc == 0) {
		struct strbuf why = STRBUF_INIT;
		rc = stage_write(&st, g->name, &g->folder, &why);
		if (rc < 0)
			strbuf_addf(err, "--variant '%s': %s", arg, why.buf);
		strbuf_release(&why);
	}
	staging_clear(&st);
	return rc;
}

static bool is_patch_spec(const char *arg)
{
	const char *eq = strchr(arg, '=');
	return eq && starts_with(eq + 1, "patch:");
}

int given_variants_stage(struct given_variants *out, const struct strlist *args, const char *baseline,
			 struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	out->items = xcalloc(args->n + 1, sizeof(*out->items));
	out->n = args->n;
	for (size_t i = 0; i < args->n; i++)
		for (size_t j = 0; j < i; j++) {
			char *a = given_variant_name(args->items[i]), *b = given_variant_name(args->items[j]);
			bool same = !strcmp(a, b);
			free(a);
			free(b);
			if (same) {
				strbuf_addf(err, "--variant '%s': the name is given twice", args->items[i]);
				return -1;
			}
		}
	/* patch: specs last: they go on top of the baseline, which may be given too */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < args->n; i++)
			if (is_patch_spec(args->items[i]) == (pass == 1) &&
			    stage_one(&out->items[i], args->items[i], baseline, err) < 0)
				return -1;
	return 0;
}

int given_variants_keep(const struct given_variants *set, const char *dir, struct strbuf *err)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct given_variant *g = &set->items[i];
		if (!g->folder)
			continue;
		char *to = xasprintf("%s/variants/%s", dir, g->name);
		int rc = mkdir_p(to, 0755);
		DIR *d = rc == 0 ? opendir(g->folder) : NULL;
		struct dirent *de;
		while (d && rc == 0 && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char *from_file = xasprintf("%s/%s", g->folder, de->d_name);
			char *to_file = xasprintf("%s/%s", to, de->d_name);
			rc = copy_file(from_file, to_file);
			free(from_file);
			free(to_file);
		}
		if (d)
			closedir(d);
		if (rc < 0 || !d)
			strbuf_addf(err, "cannot copy %s into %s: %s", g->folder, to, strerror(errno));
		free(to);
		if (rc < 0 || !d)
			return -1;
	}
	return 0;
}

json_t *given_variants_json(const struct given_variants *set)
{
	json_t *list = json_array();
	for (size_t i = 0; i < set->n; i++)
		if (set->items[i].spec)
			json_array_append_new(list, json_pack("{s:s, s:s}", "name", set->items[i].name,
							      "spec", set->items[i].spec));
	return list;
}

void given_variants_clear(struct given_variants *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->items[i].name);
		free(set->items[i].spec);
		free(set->items[i].folder);
	}
	free(set->items);
	memset(set, 0, sizeof(*set));
}
