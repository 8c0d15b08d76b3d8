/* The kernels the checkout knows (kernel-catalog.h). */
#include "kernel-catalog.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbuild.h"
#include "user-variants.h"
#include "common/paths.h"

void load_base_config(struct kconfig *base)
{
	char *path = repo_path("kernels/base.config");
	struct strbuf err = STRBUF_INIT;
	if (kconfig_load(base, path, &err) < 0)
		die_usage("%s", err.buf);
	free(path);
}

/* Moves the variants of FROM behind those of SET; a name in both is an error. */
static int append_variants(struct variant_set *set, struct variant_set *from, const char *dir,
			   struct strbuf *err)
{
	for (size_t i = 0; i < from->n; i++)
		if (variant_find(set, from->items[i].name)) {
			strbuf_addf(err, "%s/%s: a variant of that name exists already in %s", dir,
				    from->items[i].name, variant_find(set, from->items[i].name)->dir);
			return -1;
		}
	ALLOC_GROW(set->items, set->n + from->n + 1, set->alloc);
	memcpy(set->items + set->n, from->items, from->n * sizeof(*from->items));
	set->n += from->n;
	free(from->items);
	memset(from, 0, sizeof(*from));
	return 0;
}

/*
 * The variant's source (kernel-source.h). A prebuilt kernel takes no
 * patches and no fragment: a file `config` beside its image, in the
 * variant's folder, is the image's configuration, not a fragment.
 */
static int load_source(struct variant *v, struct strbuf *err)
{
	if (kernel_source_load(&v->source, v->dir, err) < 0)
		return -1;
	if (kernel_source_builds(&v->source))
		return 0;
	if (v->patches.n) {
		strbuf_addf(err, "%s: patches cannot apply to a prebuilt kernel (its source is a bzimage)",
			    v->patches.items[0]);
		return -1;
	}
	struct stat a, b;
	bool image_config = v->config_path && v->source.config_origin &&
			    stat(v->config_path, &a) == 0 && stat(v->source.config_origin, &b) == 0 &&
			    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	if (v->config_path && !image_config) {
		strbuf_addf(err, "%s: a prebuilt kernel takes no configuration fragment (its source is "
			    "a bzimage, whose configuration is its own)", v->config_path);
		return -1;
	}
	free(v->config_path);
	v->config_path = NULL;
	return 0;
}

/* The platform's fragments of every variant; a prebuilt (x86_64/4k) kernel has no other platform. */
static void set_platform(struct variant_set *set, const struct platform *platform)
{
	char *arch = xasprintf("%s/%s.config", ARCH_CONFIG_DIR, arch_facts(platform->arch)->name);
	char *slug = platform_slug(platform);
	char *page = xasprintf("%s/%s.config", ARCH_CONFIG_DIR, slug);
	char *arch_path = repo_path(arch), *page_path = repo_path(page);
	const char *lab_patch = arch_facts(platform->arch)->lab_patch;
	size_t kept = 0;
	for (size_t i = 0; i < set->n; i++) {
		struct variant *v = &set->items[i];
		if (!kernel_source_builds(&v->source) && !platform_is_default(platform)) {
			variant_clear(v);
			continue;
		}
		v->target.platform = *platform;
		if (kernel_source_builds(&v->source)) {
			strlist_push(&v->platform_configs, arch_path);
			if (path_exists(page_path))
				strlist_push(&v->platform_configs, page_path);
			free(v->platform_patch);
			v->platform_patch = lab_patch ? repo_path(lab_patch) : NULL;
		}
		if (kept != i)
			set->items[kept] = *v;
		kept++;
	}
	set->n = kept;
	free(arch);
	free(slug);
	free(page);
	free(arch_path);
	free(page_path);
}

/*
 * The companions every variant the lab builds gets, each a variant of its
 * own: its fragment merged last, and what it adds to the command line.
 */
static const struct companion_kind {
	enum build_companion kind;
	const char *fragment;
	const char *cmdline;
} companion_kinds[] = {
	/*
	 * Full slab debugging (FZPU, what SLUB_DEBUG_ON gives) except on
	 * caches whose slabs it would make larger (O): kmalloc-4k's red
	 * zones and tracking raise its order from 3 to 4 otherwise, and a
	 * debug trial then runs out of high-order blocks where the plain
	 * build does not (issue 26).
	 */
	{ BUILD_DEBUG, DEBUG_CONFIG, DEBUG_SLAB_CMDLINE },
	/* the selftests' needs (kernels/test.config says which test needs what) */
	{ BUILD_TEST, TEST_CONFIG, "" },
};

static void add_companions(struct variant_set *set, const struct platform *platform)
{
	size_t plain = set->n;
	for (size_t k = 0; k < sizeof(companion_kinds) / sizeof(companion_kinds[0]); k++) {
		const struct companion_kind *c = &companion_kinds[k];
		const struct build_target target = { .companion = c->kind, .platform = *platform };
		char *fragment = repo_path(c->fragment);
		for (size_t i = 0; i < plain; i++) {
			struct variant companion;
			if (!kernel_source_builds(&set->items[i].source))
				continue;
			variant_for_target(&set->items[i], &target, fragment, &companion);
			if (*c->cmdline) {
				char *cmdline = xasprintf("%s%s%s", companion.cmdline,
							  *companion.cmdline ? " " : "", c->cmdline);
				free(companion.cmdline);
				companion.cmdline = cmdline;
			}
			variant_set_add(set, &companion);
		}
		free(fragment);
	}
}

/* Folders the process added (kernel_catalog_add_folder), searched last. */
static struct strlist added_folders = STRLIST_INIT;
/* How many of variant_folders() are the user's (0 or 1), after the lab's. */
static size_t user_folders;

void kernel_catalog_add_folder(const char *dir)
{
	strlist_push(&added_folders, dir);
}

/*
 * kernels/variants/, then the user's ~/.config/oomlab/variants/ when it
 * exists (user-variants.h), then every folder of OOMLAB_VARIANT_PATH (':'
 * separated): the tests keep the variants only they need (a patch that
 * changes a comment, a planted cost) in tests/variants/ that way, out of
 * the list users see. Then the folders added by this process: the
 * variants given on lab run's command line, a run's own variants/.
 * The extra folders absolute, for patch(1) runs in the tree, not here.
 */
static void variant_folders(struct strlist *folders)
{
	strlist_push_owned(folders, repo_path("kernels/variants"));
	user_folders = user_variant_folders(folders);
	const char *extra = getenv("OOMLAB_VARIANT_PATH");
	char *copy = xstrdup(extra ? extra : ""), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char real[PATH_MAX];
		strlist_push(folders, realpath(d, real) ? real : d);
	}
	free(copy);
	for (size_t i = 0; i < added_folders.n; i++)
		strlist_push(folders, added_folders.items[i]);
}

char *variant_folder_find(const char *name)
{
	struct strlist folders = STRLIST_INIT;
	variant_folders(&folders);
	char *found = NULL;
	for (size_t i = 0; i < folders.n && !found; i++) {
		char *dir = xasprintf("%s/%s", folders.items[i], name);
		if (is_dir(dir))
			found = dir;
		else
			free(dir);
	}
	strlist_clear(&folders);
	return found;
}

void load_variants(struct variant_set *set, struct kconfig *base, const struct platform *platform)
{
	struct strlist folders = STRLIST_INIT;
	variant_folders(&folders);
	const char *dir = folders.items[0];
	struct strbuf err = STRBUF_INIT;
	if (variants_discover(dir, set, &err) < 0)
		die_usage("%s", err.buf);
	for (size_t i = 1; i < folders.n; i++) {
		struct variant_set more;
		const char *folder = folders.items[i];
		if (variants_discover(folder, &more, &err) < 0 ||
		    append_variants(set, &more, folder, &err) < 0)
			die_usage("%s%s", i > user_folders && i < folders.n - added_folders.n
						  ? "OOMLAB_VARIANT_PATH: " : "",
				  err.buf);
	}
	if (!set->n)
		die_usage("%s: no kernel variants found", dir);
	for (size_t i = 0; i < set->n; i++)
		if (load_source(&set->items[i], &err) < 0)
			die_usage("%s", err.buf);
	set_platform(set, platform);
	add_companions(set, platform);
	for (size_t i = 0; i < set->n; i++)
		if (variant_hash(&set->items[i], base, &err) < 0)
			die_usage("%s", err.buf);
	strlist_clear(&folders);
}

struct variant *variant_companion(const struct variant_set *set, const struct variant *v,
				  enum build_companion kind)
{
	struct build_target target = { .companion = kind };
	char *name = xasprintf("%s%s", v->name, build_target_suffix(&target));
	struct variant *companion = variant_find(set, name);
	free(name);
	return companion;
}

