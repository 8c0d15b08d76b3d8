/* lab kernel: list the variants and build them into the cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "lab/cli/command-suggest.h"
#include "lab/cli/options.h"
#include "lab/kernel/kbuild.h"
#include "lab/kernel/kernel-catalog.h"

static const char kernel_usage[] =
	"usage: lab kernel list [--arch A] [--page-size P]\n"
	"       lab kernel build [--debug] [--arch A] [--page-size P] [VARIANT...]\n"
	"       lab kernel path [--arch A] [--page-size P] VARIANT\n"
	"\n"
	"  list    every variant in kernels/variants/ on every platform (x86_64/4k,\n"
	"          arm64/4k, arm64/16k, arm64/64k; --arch and --page-size pick one):\n"
	"          name, platform, content hash, whether a built kernel is cached,\n"
	"          whether its debug build is, where it comes from (Debian's tarball,\n"
	"          or the variant's `source`: a tree, a git ref or a prebuilt bzImage)\n"
	"          and its description\n"
	"  build   build the named variants (all when none is named); cached ones\n"
	"          are not rebuilt. With --debug, their debug companions instead\n"
	"          (VARIANT+debug: kernels/debug.config merged last); a companion\n"
	"          can also be named as VARIANT+debug\n"
	"  path    print the cache folder of a variant's built kernel\n"
	"\n"
	"--arch x86_64|arm64 and --page-size 4k|16k|64k choose the platform (default\n"
	"x86_64 and 4k; 16k and 64k are arm64's). arm64 kernels are cross-built from\n"
	"the same source with kernels/arch/arm64.config and arm64-<size>.config.\n"
	"\n";

static const char kernel_tail[] =
	"Built kernels live in $XDG_CACHE_HOME/oomlab/kernels/<hash>/ (or $OOMLAB_CACHE).\n";

/* --arch and --page-size as given (NULL: not given). */
struct platform_words {
	const char *arch, *page;
};

#define OPT_PLATFORM(w)                                                                         \
	OPT_STRING(0, "arch", &(w)->arch, "A", "x86_64 (default) or arm64"),                       \
	OPT_STRING(0, "page-size", &(w)->page, "P", "4k (default), 16k or 64k (arm64)")

/* The platform the words name; a bad one dies with one line, exit 2. */
static struct platform platform_of(const char *command, const struct platform_words *w)
{
	struct platform p;
	struct strbuf err = STRBUF_INIT;
	if (platform_parse(w->arch, w->page, &p, &err) < 0)
		die_usage("%s: %s", command, err.buf);
	return p;
}

/* Path's options are the platform's; returns how many operands there are. */
static int platform_options(const char *command, int argc, char **argv, struct platform_words *w)
{
	const struct opt opts[] = { OPT_PLATFORM(w), OPT_END() };
	return lab_parse_options(command, argc, argv, opts, kernel_usage, kernel_tail);
}

static const char *cached_word(const struct variant *v)
{
	return !v ? "-" : kernel_is_cached(v) ? "yes" : "no";
}

/* "debian 6.12.117-1~deb12u1", "tree DIR", "git DIR@REF", "bzimage FILE" */
static char *source_column(const struct kernel_source *s)
{
	switch (s->kind) {
	case SOURCE_TREE:    return xasprintf("tree %s", s->path);
	case SOURCE_GIT:     return xasprintf("git %s@%s", s->path, s->ref);
	case SOURCE_BZIMAGE: return xasprintf("bzimage %s", s->path);
	case SOURCE_DEBIAN:  break;
	}
	return xasprintf("debian %s", s->id);
}

static void list_platform(struct kconfig *base, const struct platform *p)
{
	struct variant_set set;
	load_variants(&set, base, p);
	char *platform = platform_name(p);
	for (size_t i = 0; i < set.n; i++) {
		const struct variant *v = &set.items[i];
		/* a companion is its variant's DEBUG or TEST column, not a line of its own */
		if (v->target.companion != BUILD_OWN)
			continue;
		char *source = source_column(&v->source);
		printf("%-20s %-10s %.12s %-6s %-6s %-6s %-30s %s\n", v->name, platform, v->hash,
		       cached_word(v), cached_word(variant_companion(&set, v, BUILD_DEBUG)),
		       cached_word(variant_companion(&set, v, BUILD_TEST)), source,
		       v->description);
		free(source);
	}
	free(platform);
	variants_clear(&set);
}

static int kernel_list(int argc, char **argv)
{
	struct platform_words w = { 0 };
	if (platform_options("kernel list", argc, argv, &w))
		die_usage("kernel list: unexpected argument '%s'", argv[1]);
	struct platform one = platform_of("kernel list", &w);
	struct kconfig base = KCONFIG_INIT;
	load_base_config(&base);
	printf("%-20s %-10s %-12s %-6s %-6s %-6s %-30s %s\n", "VARIANT", "PLATFORM", "HASH", "CACHED",
	       "DEBUG", "TEST", "SOURCE", "DESCRIPTION");
	for (unsigned i = 0; i < all_platforms_count; i++)
		if ((!w.arch && !w.page) || platform_equal(&one, &all_platforms[i]) ||
		    (!w.page && one.arch == all_platforms[i].arch))
			list_platform(&base, &all_platforms[i]);
	kconfig_clear(&base);
	return 0;
}

/* What `kernel build` builds: the named variants (or every one), or their companions. */
static void build_list(const struct variant_set *set, int n, char **names, bool debug,
		       struct strlist *out)
{
	/* Check every name before building anything: a typo must not cost a build. */
	for (int i = 1; i <= n; i++) {
		const struct variant *v = variant_find(set, names[i]);
		if (!v)
			die_usage("kernel build: no variant '%s' (see lab kernel list)", names[i]);
		if (debug && v->target.companion != BUILD_DEBUG && !variant_companion(set, v, BUILD_DEBUG))
			die_usage("kernel build --debug: variant '%s' has no debug build", names[i]);
	}
	for (size_t i = 0; i < (n ? (size_t)n : set->n); i++) {
		const struct variant *v = n ? variant_find(set, names[1 + i]) : &set->items[i];
		if (!n && v->target.companion != BUILD_OWN)
			continue;
		if (debug && v->target.companion != BUILD_DEBUG)
			v = variant_companion(set, v, BUILD_DEBUG);
		if (!strlist_has(out, v->name))
			strlist_push(out, v->name);
	}
}

static int kernel_build_cmd(int argc, char **argv)
{
	bool debug = false;
	struct platform_words w = { 0 };
	const struct opt opts[] = {
		OPT_FLAG(0, "debug", &debug, "build the debug companions (VARIANT+debug) instead"),
		OPT_PLATFORM(&w),
		OPT_END(),
	};
	int n = lab_parse_options("kernel build", argc, argv, opts, kernel_usage, kernel_tail);
	struct platform platform = platform_of("kernel build", &w);
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base, &platform);
	struct strlist names = STRLIST_INIT;
	build_list(&set, n, argv, debug, &names);
	int failures = 0;
	for (size_t i = 0; i < names.n; i++) {
		const struct variant *v = variant_find(&set, names.items[i]);
		if (kernel_is_cached(v)) {
			note("kernel %s: cached (%.12s)", v->name, v->hash);
			continue;
		}
		struct strbuf err = STRBUF_INIT;
		if (kernel_build(v, &base, &err) < 0) {
			error("kernel %s: %s", v->name, err.buf);
			failures++;
		}
		strbuf_release(&err);
	}
	strlist_clear(&names);
	variants_clear(&set);
	kconfig_clear(&base);
	return failures ? 1 : 0;
}

static int kernel_path(int argc, char **argv)
{
	struct platform_words w = { 0 };
	if (platform_options("kernel path", argc, argv, &w) != 1)
		die_usage("kernel path: name exactly one variant");
	struct platform platform = platform_of("kernel path", &w);
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base, &platform);
	const struct variant *v = variant_find(&set, argv[1]);
	if (!v)
		die_usage("kernel path: no variant '%s' (see lab kernel list)", argv[1]);
	char *dir = kernel_cache_dir(v);
	printf("%s\n", dir);
	int rc = kernel_is_cached(v) ? 0 : 1;
	if (rc)
		error("kernel path: %s is not built yet (lab kernel build %s)", v->name, v->name);
	free(dir);
	variants_clear(&set);
	kconfig_clear(&base);
	return rc;
}

int cmd_kernel(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_usage(argc < 2 ? stderr : stdout, kernel_usage, (const struct opt[]){ OPT_END() },
			    kernel_tail);
		return argc < 2 ? 2 : 0;
	}
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} subcommands[] = {
		{ "list", kernel_list },
		{ "build", kernel_build_cmd },
		{ "path", kernel_path },
	};
	enum { N = sizeof(subcommands) / sizeof(subcommands[0]) };
	const char *names[N];
	for (size_t i = 0; i < N; i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
		names[i] = subcommands[i].name;
	}
	die_not_a_command("kernel", argv[1], names, N);
}
