/*
 * The compiler a kernel build runs: ccache, except for a source that pulls
 * in a file with .incbin. ccache (depend mode or not) hashes a source's
 * text and its #includes, never the file .incbin reads: x86's
 * arch/x86/boot/compressed/piggy.S is the same text for any two kernels
 * whose compressed and uncompressed sizes are equal, and a kernel whose
 * one-function change kept both sizes was a ccache hit that put another
 * kernel's code into its bzImage (bisect.sh in a cold run, 2026-12-03: a
 * step's bzImage held the stock kernel, built in another workspace).
 */
#ifndef LAB_KBUILD_CC_H
#define LAB_KBUILD_CC_H

#include "common/util.h"

/* The wrapper's path, written into the cache's tools folder when missing or
 * different (malloc'd); NULL with the reason in err. */
char *kbuild_cc_wrapper(struct strbuf *err);

/* The payload check: 0 when the bzImage BZIMAGE carries, at the place its
 * header gives, exactly the bytes of one of the build's compressed kernels
 * in COMPRESSED_DIR (vmlinux.bin.xz, .gz, ...); -1 with why in err. */
int kbuild_check_payload(const char *bzimage, const char *compressed_dir, struct strbuf *err);

#endif
