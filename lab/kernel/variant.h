/*
 * Kernel variants: kernels/variants/<name>/ holds patches (*.patch, *.diff,
 * applied in name order with patch -p1), an optional config fragment
 * (`config`), an optional extra kernel command line (`cmdline`), an
 * optional `source` (another tree, a git ref or a prebuilt kernel:
 * kernel-source.h) and a description (first line of `README`). Dropping a
 * folder in is all it takes to add one.
 */
#ifndef LAB_VARIANT_H
#define LAB_VARIANT_H

#include <stdbool.h>

#include "kconfig.h"
#include "kernel-source.h"
#include "platform.h"
#include "common/util.h"

/*
 * What is built from a variant's files besides the files themselves: each
 * field is a dimension of a build, part of the cache key (through the
 * merged configuration) and of the object folder, so that the builds of
 * one source for different targets each stay incremental.
 */
/* A variant's own build, or one of the companions the lab adds to every
 * variant (kernel-catalog.c): the same source and patches with a fragment
 * merged last. */
enum build_companion {
	BUILD_OWN,
	BUILD_DEBUG,            /* kernels/debug.config: the kernel's checkers */
	BUILD_TEST,             /* kernels/test.config: what the kernel's selftests need */
	BUILD_COMPANION_COUNT
};

struct build_target {
	enum build_companion companion;
	/* The architecture and page size: the toolchain, the image, the
	 * fragments kernels/arch/<arch>.config and <arch>-<page size>.config,
	 * merged after base.config (platform.h). */
	struct platform platform;
};

/* "", "debug" or "test": the companion's word. */
const char *build_companion_name(enum build_companion c);
/* "", "+debug" or "+test": what a variant's name gets for the target ("stock+debug"). */
const char *build_target_suffix(const struct build_target *t);
/* The object folder's name in the source's workspace: "obj", "obj-debug",
 * "obj-test" for x86_64/4k, "obj-arm64-16k", "obj-arm64-16k-debug" for the
 * others (malloc'd). */
char *build_target_objdir(const struct build_target *t);
/* Where make leaves the image the lab boots, in the object folder (x86: the bzImage). */
const char *build_target_image(const struct build_target *t);

struct variant {
	char *name;              /* the folder's name, plus the target's suffix */
	char *dir;
	char *description;
	struct strlist patches;  /* paths, in the order they are applied */
	char *config_path;       /* NULL when the variant has no fragment */
	char *target_config;     /* the target's fragment (kernels/debug.config), or NULL */
	struct strlist platform_configs; /* kernels/arch/ fragments, merged after base.config */
	char *platform_patch;    /* the platform's lab_patch (platform.h), applied after the
				  * variant's patches when it applies; NULL: none */
	char *cmdline;           /* "" when none */
	struct kernel_source source; /* Debian's tarball unless a file `source` says otherwise */
	struct build_target target;
	char hash[65];           /* set by variant_hash() */
};

struct variant_set {
	struct variant *items;
	size_t n, alloc;
};

/* Whether NAME may name a variant: a-z, 0-9, '-', '_' and '.', not first '.' or '-'. */
bool variant_name_valid(const char *name);
/* Reads every variant below dir, sorted by name. */
int variants_discover(const char *dir, struct variant_set *set, struct strbuf *err);
struct variant *variant_find(const struct variant_set *set, const char *name);
/*
 * The variant built for another target: its name gets the target's suffix,
 * TARGET_CONFIG (a fragment path, may be NULL) is merged after the
 * variant's own fragment. OUT is a new variant that owns its copies.
 */
void variant_for_target(const struct variant *v, const struct build_target *target,
			const char *target_config, struct variant *out);
/* Appends V (taken over: V is left empty) to SET. */
void variant_set_add(struct variant_set *set, struct variant *v);
/* base.config, the platform's fragments, the variant's fragment, then the target's, merged on top. */
int variant_config(const struct variant *v, const struct kconfig *base, struct kconfig *out,
		   struct strbuf *err);
/*
 * The cache key: the source's identity (kernel-source.h), the merged
 * configuration (as options, so comments do not count; a prebuilt kernel's
 * own), each patch's name and bytes, the command line, the recipe version
 * of the builder, and the platform unless it is the default x86_64/4k.
 */
/*
 * The options of WANTED that V's kernel lacks (kconfig_lacking's names), into
 * LACKING: a kernel the lab builds by its merged fragments, a prebuilt one by
 * its own configuration. -1 (err) when that cannot be read.
 */
int variant_lacking_options(const struct variant *v, const struct kconfig *base, const struct kconfig *wanted,
			    struct strlist *lacking, struct strbuf *err);
int variant_hash(struct variant *v, const struct kconfig *base, struct strbuf *err);
/* Frees what V owns (V itself is the caller's). */
void variant_clear(struct variant *v);
void variants_clear(struct variant_set *set);

#endif
