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
#include "lab/util/progress.h"
#include "variant.h"

/* <cache>/kernels/<hash>, whether built or not (malloc'd). */
char *kernel_cache_dir(const struct variant *v);
/* The image the lab boots in that folder: bzImage (x86_64), Image (arm64) (malloc'd). */
char *kernel_image_path(const struct variant *v);
bool kernel_is_cached(const struct variant *v);
/* Whether V's cached kernel was built with its platform's lab patch
 * (platform.h: lab_patch); false when it is not cached or has none. */
bool kernel_has_lab_patch(const struct variant *v);
/* Builds v unless cached; 0 on success, -1 with the reason in err. */
int kernel_build(const struct variant *v, const struct kconfig *base, struct strbuf *err);

/*
 * Runs FN on V's own source tree: under the workspace's lock, the source
 * prepared and V's patches applied, the tree put back after whatever FN
 * did. FN gets the tree and the workspace (for object folders beside the
 * kernel's); what it returns is returned. For builds of the tree's other
 * parts (selftest-build.h). Not for a prebuilt kernel's variant.
 */
int kbuild_with_tree(const struct variant *v, struct progress *pr,
		     int (*fn)(const char *tree, const char *ws, void *arg, struct strbuf *err),
		     void *arg, struct strbuf *err);
/* The last line of a build's LOG, without its newline ("" when there is none; malloc'd). */
char *kbuild_log_tail(const char *log);
/* make TARGET in TREE with V's platform (ARCH=, CROSS_COMPILE=, ccache), O=OBJ,
 * its output appended to LOG; the exit status. */
int kbuild_make(const char *tree, const char *obj, const struct platform *p, const char *log,
		const char *target);

#endif
