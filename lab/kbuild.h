/*
 * Building kernel variants into the cache. The Debian source tarball is
 * extracted once; all variants share that tree and one object folder, so a
 * variant rebuild recompiles only what its patches touch. Built kernels are
 * stored under <cache>/kernels/<hash>/ (bzImage, vmlinux, config,
 * patches, build.log, meta) and found again by their hash.
 */
#ifndef LAB_KBUILD_H
#define LAB_KBUILD_H

#include <stdbool.h>

#include "kconfig.h"
#include "variant.h"

#define KERNEL_SOURCE_PACKAGE "linux-source-6.12"
#define KERNEL_SOURCE_TARBALL "/usr/src/linux-source-6.12.tar.xz"

/* The installed package version, e.g. "6.12.117-1~deb12u1"; dies if missing. */
const char *kernel_source_version(void);
/* <cache>/kernels/<hash>, whether built or not (malloc'd). */
char *kernel_cache_dir(const struct variant *v);
bool kernel_is_cached(const struct variant *v);
/* Builds v unless cached; 0 on success, -1 with the reason in err. */
int kernel_build(const struct variant *v, const struct kconfig *base, struct strbuf *err);

#endif
