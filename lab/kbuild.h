/*
 * Building kernel variants into the cache. Each source (kernel-source.h)
 * has one workspace: its tree (Debian's tarball extracted once, a mirror of
 * a tree, a git export) and one object folder per build target (obj,
 * obj-debug), shared by every variant of that source, so a variant rebuild
 * recompiles only what its patches touch. Built kernels are stored under
 * <cache>/kernels/<hash>/ (bzImage or arm64's Image, vmlinux, config,
 * patches, build.log, meta) and found again by their hash; a prebuilt kernel is stored there as
 * it is (bzImage, its vmlinux if given, the configuration it was checked by).
 */
#ifndef LAB_KBUILD_H
#define LAB_KBUILD_H

#include <stdbool.h>

#include "kconfig.h"
#include "variant.h"

/* <cache>/kernels/<hash>, whether built or not (malloc'd). */
char *kernel_cache_dir(const struct variant *v);
/* The image the lab boots in that folder: bzImage (x86_64), Image (arm64) (malloc'd). */
char *kernel_image_path(const struct variant *v);
bool kernel_is_cached(const struct variant *v);
/* Builds v unless cached; 0 on success, -1 with the reason in err. */
int kernel_build(const struct variant *v, const struct kconfig *base, struct strbuf *err);

#endif
