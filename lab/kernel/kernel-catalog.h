/*
 * The kernels this checkout knows: kernels/base.config, every variant of
 * kernels/variants/ and of the folders of OOMLAB_VARIANT_PATH, and each
 * variant's companions ("VARIANT+debug": kernels/debug.config merged last;
 * "VARIANT+test": kernels/test.config, what the kernel's selftests need,
 * last), all with their cache keys. Bad input anywhere (a variant folder,
 * a fragment, a patch that cannot be read) dies with one line naming the
 * file, exit 2, before anything is built.
 */
#ifndef LAB_KERNEL_CATALOG_H
#define LAB_KERNEL_CATALOG_H

#include "kconfig.h"
#include "variant.h"

#define DEBUG_CONFIG "kernels/debug.config"
#define TEST_CONFIG "kernels/test.config"
/* What a debug companion's command line adds to its variant's (kernel-catalog.c says why). */
#define DEBUG_SLAB_CMDLINE "slab_debug=FZPUO"
#define ARCH_CONFIG_DIR "kernels/arch"

/* kernels/base.config of the checkout; dies with file:line on bad input. */
void load_base_config(struct kconfig *base);
/*
 * Discovers, completes with the companions and hashes every variant,
 * built for PLATFORM (kernels/arch/<arch>.config, then
 * kernels/arch/<arch>-<page size>.config when there is one, merged after
 * base.config). A prebuilt bzImage is an x86_64/4k kernel: on another
 * platform its variant is left out.
 */
void load_variants(struct variant_set *set, struct kconfig *base, const struct platform *platform);
/* Another folder of variant folders for load_variants, searched after the others. */
void kernel_catalog_add_folder(const char *dir);
/* The folder of the variant NAME in the folders load_variants reads, or NULL (malloc'd). */
char *variant_folder_find(const char *name);
/* V's companion KIND in SET (V itself for BUILD_OWN), or NULL. */
struct variant *variant_companion(const struct variant_set *set, const struct variant *v,
				  enum build_companion kind);

#endif
