/* Kernel variants: discovery, merged configuration and content hash. */
#include "variant.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/hash.h"
#include "common/folder.h"

/* Bump when the way kernels are built changes, so old cache entries are not reused.
 * 2: piggy.S no longer through ccache (kbuild-cc.h): a bzImage of before may
 * carry another kernel's code. */
#define KBUILD_RECIPE "oomlab-kbuild-2"

bool variant_name_valid(const char *name)
{
	if (!*name || *name == '.' || *name == '-')
		return false;
	for (const char *p = name; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && !strchr("-_.", *p))
			return false;
	return true;
}

static char *first_line(const char *path)
{
	char *text = read_file(path, NULL);
	if (!text)
		return NULL;
	char *line = text, *next;
	for (; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *t = trim(line);
		if (*t) {
			char *result = xstrdup(t);
			free(text);
			return result;
		}
	}
	free(text);
	return xstrdup("");
}

static int load_variant(struct variant *v, const char *dir, const char *name, struct strbuf *err)
{
	memset(v, 0, sizeof(*v));
	v->target.platform = PLATFORM_DEFAULT;
	v->name = xstrdup(name);
	v->dir = xasprintf("%s/%s", dir, name);

	char *readme = xasprintf("%s/README", v->dir);
	v->description = first_line(readme);
	if (!v->description)
		v->description = xstrdup("(no README: no description)");
	free(readme);

	char *cmdline = xasprintf("%s/cmdline", v->dir);
	char *text = read_file(cmdline, NULL);
	v->cmdline = text ? xstrdup(trim(text)) : xstrdup("");
	if (strchr(v->cmdline, '\n')) {
		strbuf_addf(err, "%s: the command line must be one line", cmdline);
		free(text);
		free(cmdline);
		return -1;
	}
	free(text);
	free(cmdline);

	char *config = xasprintf("%s/config", v->dir);
	if (path_exists(config))
		v->config_path = config;
	else
		free(config);

	struct strlist names = STRLIST_INIT;
	if (folder_list(v->dir, 0, &names) < 0) {
		strbuf_addf(err, "%s: %s", v->dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < names.n; i++)
		if (ends_with(names.items[i], ".patch") || ends_with(names.items[i], ".diff"))
			strlist_push_owned(&v->patches, xasprintf("%s/%s", v->dir, names.items[i]));
	strlist_clear(&names);
	return 0;
}

int variants_discover(const char *dir, struct variant_set *set, struct strbuf *err)
{
	memset(set, 0, sizeof(*set));
	struct strlist entries = STRLIST_INIT, names = STRLIST_INIT;
	if (folder_list(dir, 0, &entries) < 0) {
		strbuf_addf(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < entries.n; i++) {
		const char *name = entries.items[i];
		if (name[0] == '.')
			continue;
		char *path = xasprintf("%s/%s", dir, name);
		bool sub = is_dir(path);
		free(path);
		if (!sub)
			continue;
		if (!variant_name_valid(name)) {
			strbuf_addf(err, "%s/%s: variant names use a-z, 0-9, '-', '_' and '.'", dir, name);
			strlist_clear(&entries);
			strlist_clear(&names);
			return -1;
		}
		strlist_push(&names, name);
	}
	strlist_clear(&entries);
	set->items = xcalloc(names.n, sizeof(*set->items));
	for (size_t i = 0; i < names.n; i++) {
		if (load_variant(&set->items[i], dir, names.items[i], err) < 0) {
			set->n = i + 1;
			strlist_clear(&names);
			return -1;
		}
	}
	set->n = names.n;
	strlist_clear(&names);
	return 0;
}

struct variant *variant_find(const struct variant_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->items[i].name, name))
			return &set->items[i];
	return NULL;
}

const char *build_companion_name(enum build_companion c)
{
	static const char *const names[BUILD_COMPANION_COUNT] = {
		[BUILD_OWN] = "", [BUILD_DEBUG] = "debug", [BUILD_TEST] = "test",
	};
	return (unsigned)c < BUILD_COMPANION_COUNT ? names[c] : "";
}

const char *build_target_suffix(const struct build_target *t)
{
	static const char *const suffixes[BUILD_COMPANION_COUNT] = {
		[BUILD_OWN] = "", [BUILD_DEBUG] = "+debug", [BUILD_TEST] = "+test",
	};
	return (unsigned)t->companion < BUILD_COMPANION_COUNT ? suffixes[t->companion] : "";
}

char *build_target_objdir(const struct build_target *t)
{
	if (platform_is_default(&t->platform))
		return t->companion ? xasprintf("obj-%s", build_companion_name(t->companion))
				    : xstrdup("obj");
	char *slug = platform_slug(&t->platform);
	char *dir = t->companion ? xasprintf("obj-%s-%s", slug, build_companion_name(t->companion))
				 : xasprintf("obj-%s", slug);
	free(slug);
	return dir;
}

const char *build_target_image(const struct build_target *t)
{
	return arch_facts(t->platform.arch)->image;
}

void variant_for_target(const struct variant *v, const struct build_target *target,
			const char *target_config, struct variant *out)
{
	memset(out, 0, sizeof(*out));
	out->name = xasprintf("%s%s", v->name, build_target_suffix(target));
	out->dir = xstrdup(v->dir);
	out->description = xstrdup(v->description);
	for (size_t i = 0; i < v->patches.n; i++)
		strlist_push(&out->patches, v->patches.items[i]);
	out->config_path = v->config_path ? xstrdup(v->config_path) : NULL;
	out->target_config = target_config ? xstrdup(target_config) : NULL;
	for (size_t i = 0; i < v->platform_configs.n; i++)
		strlist_push(&out->platform_configs, v->platform_configs.items[i]);
	out->platform_patch = v->platform_patch ? xstrdup(v->platform_patch) : NULL;
	out->cmdline = xstrdup(v->cmdline);
	kernel_source_copy(&out->source, &v->source);
	out->target = *target;
}

void variant_set_add(struct variant_set *set, struct variant *v)
{
	ALLOC_GROW(set->items, set->n + 1, set->alloc);
	set->items[set->n++] = *v;
	memset(v, 0, sizeof(*v));
}

static int merge_fragment(struct kconfig *out, const char *path, struct strbuf *err)
{
	if (!path)
		return 0;
	struct kconfig frag = KCONFIG_INIT;
	int rc = kconfig_load(&frag, path, err);
	if (rc == 0)
		kconfig_merge(out, &frag);
	kconfig_clear(&frag);
	return rc;
}

int variant_config(const struct variant *v, const struct kconfig *base, struct kconfig *out,
		   struct strbuf *err)
{
	kconfig_merge(out, base);
	for (size_t i = 0; i < v->platform_configs.n; i++)
		if (merge_fragment(out, v->platform_configs.items[i], err) < 0)
			return -1;
	if (merge_fragment(out, v->config_path, err) < 0)
		return -1;
	return merge_fragment(out, v->target_config, err);
}

int variant_hash(struct variant *v, const struct kconfig *base, struct strbuf *err)
{
	struct kconfig merged = KCONFIG_INIT;
	if (variant_config(v, base, &merged, err) < 0) {
		kconfig_clear(&merged);
		return -1;
	}
	struct hasher *h = hasher_new();
	hasher_add_str(h, "recipe", KBUILD_RECIPE);
	/* Debian's "source" is its version alone, as before other sources: old keys stay */
	hasher_add_str(h, "source", v->source.id);
	/* a prebuilt kernel's configuration is its own, whatever base.config says */
	char *config = kernel_source_builds(&v->source) ? kconfig_format(&merged)
							: xstrdup(v->source.config ? v->source.config : "");
	hasher_add_str(h, "config", config);
	free(config);
	kconfig_clear(&merged);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < v->patches.n; i++) {
		const char *base_name = strrchr(v->patches.items[i], '/');
		hasher_add_str(h, "patch-name", base_name ? base_name + 1 : v->patches.items[i]);
		rc = hasher_add_file(h, "patch", v->patches.items[i], err);
	}
	/* the lab's own patch: what it does to the kernel is part of the kernel */
	if (rc == 0 && v->platform_patch)
		rc = hasher_add_file(h, "platform-patch", v->platform_patch, err);
	if (rc < 0) {
		hasher_finish(h, v->hash);
		v->hash[0] = '\0';
		return -1;
	}
	hasher_add_str(h, "cmdline", v->cmdline);
	/* x86_64/4k's keys are as before platforms; the others' name theirs */
	if (!platform_is_default(&v->target.platform)) {
		char *platform = platform_name(&v->target.platform);
		hasher_add_str(h, "platform", platform);
		free(platform);
	}
	hasher_finish(h, v->hash);
	return 0;
}

void variant_clear(struct variant *v)
{
	free(v->name);
	free(v->dir);
	free(v->description);
	strlist_clear(&v->patches);
	free(v->config_path);
	free(v->target_config);
	strlist_clear(&v->platform_configs);
	free(v->platform_patch);
	free(v->cmdline);
	kernel_source_clear(&v->source);
}

void variants_clear(struct variant_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		variant_clear(&set->items[i]);
	free(set->items);
	set->items = NULL;
	set->n = set->alloc = 0;
}

int variant_lacking_options(const struct variant *v, const struct kconfig *base, const struct kconfig *wanted,
			    struct strlist *lacking, struct strbuf *err)
{
	struct kconfig have = KCONFIG_INIT;
	int rc = kernel_source_builds(&v->source)
			 ? variant_config(v, base, &have, err)
			 : kconfig_parse(&have, v->source.config ? v->source.config : "",
					 v->source.config_origin, err);
	if (rc == 0)
		kconfig_lacking(wanted, &have, lacking);
	kconfig_clear(&have);
	return rc;
}
