/*
 * Prebuilt x86 kernels: a bzImage's boot protocol header and the
 * configuration a kernel carries (CONFIG_IKCONFIG).
 *
 * A bzImage (Documentation/arch/x86/boot.rst) has "HdrS" at 0x202, the
 * protocol version at 0x206, the number of 512-byte setup sectors at
 * 0x1f1 (0 means 4), and from protocol 2.08 the compressed kernel's place,
 * payload_offset (0x248) and payload_length (0x24c), counted from the start
 * of the protected-mode code at (setup_sects + 1) * 512. The kernel inside
 * is read when compressed with gzip, xz, lzma or zstd (the x86 defaults and
 * the distributions' choices); lz4, lzo and bzip2 are not.
 *
 * IKCONFIG puts the .config, gzipped, between the markers "IKCFG_ST" and
 * "IKCFG_ED" in the kernel (kernel/configs.c); an uncompressed vmlinux has
 * it the same way.
 */
#ifndef LAB_KERNEL_IMAGE_H
#define LAB_KERNEL_IMAGE_H

#include <stddef.h>

#include "common/util.h"

/* 0 when the file is a bzImage of protocol 2.08 or later; -1 with why. */
int kernel_image_check(const char *path, struct strbuf *err);
/* The configuration compiled into a bzImage, as .config text (malloc'd);
 * NULL with the reason in ERR (none compiled in, a compression not read). */
char *kernel_image_config(const char *path, struct strbuf *err);
/* The same from an uncompressed kernel (a vmlinux). */
char *vmlinux_config(const char *path, struct strbuf *err);
/* The same from a kernel in memory. */
char *kernel_config_in(const unsigned char *kernel, size_t len, struct strbuf *err);

#endif
