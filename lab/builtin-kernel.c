/* lab kernel: list the variants and build them into the cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "kbuild.h"
#include "options.h"

static const char kernel_usage[] =
	"usage: lab kernel list\n"
	"       lab kernel build [VARIANT...]\n"
	"       lab kernel path VARIANT\n"
	"\n"
	"  list    every variant in kernels/variants/: name, content hash, whether a\n"
	"          built kernel is cached, and its description\n"
	"  build   build the named variants (all when none is named); cached ones\n"
	"          are not rebuilt\n"
	"  path    print the cache folder of a variant's built kernel\n"
	"\n";

static const char kernel_tail[] =
	"Built kernels live in $XDG_CACHE_HOME/oomlab/kernels/<hash>/ (or $OOMLAB_CACHE).\n";

/* The subcommands have no options but --help; returns how many operands there are. */
static int no_options(const char *command, int argc, char **argv)
{
	static const struct opt opts[] = { OPT_END() };
	return lab_parse_options(command, argc, argv, opts, kernel_usage, kernel_tail);
}

static int kernel_list(int argc, char **argv)
{
	if (no_options("kernel list", argc, argv))
		die_usage("kernel list: unexpected argument '%s'", argv[1]);
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base);
	printf("%-20s %-12s %-6s %s\n", "VARIANT", "HASH", "CACHED", "DESCRIPTION");
	for (size_t i = 0; i < set.n; i++) {
		const struct variant *v = &set.items[i];
		printf("%-20s %.12s %-6s %s\n", v->name, v->hash, kernel_is_cached(v) ? "yes" : "no",
		       v->description);
	}
	variants_clear(&set);
	kconfig_clear(&base);
	return 0;
}

static int kernel_build_cmd(int argc, char **argv)
{
	int n = no_options("kernel build", argc, argv);
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base);
	/* Check every name before building anything: a typo must not cost a build. */
	for (int i = 1; i <= n; i++)
		if (!variant_find(&set, argv[i]))
			die_usage("kernel build: no variant '%s' (see lab kernel list)", argv[i]);
	int failures = 0;
	size_t count = n ? (size_t)n : set.n;
	for (size_t i = 0; i < count; i++) {
		const struct variant *v = n ? variant_find(&set, argv[1 + i]) : &set.items[i];
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
	variants_clear(&set);
	kconfig_clear(&base);
	return failures ? 1 : 0;
}

static int kernel_path(int argc, char **argv)
{
	if (no_options("kernel path", argc, argv) != 1)
		die_usage("kernel path: name exactly one variant");
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base);
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
	if (!strcmp(argv[1], "list"))
		return kernel_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "build"))
		return kernel_build_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "path"))
		return kernel_path(argc - 1, argv + 1);
	die_usage("kernel: unknown subcommand '%s' (see lab kernel --help)", argv[1]);
}
