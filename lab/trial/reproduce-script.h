/*
 * reproduce.sh, the script in each trial folder that boots the trial again:
 * the same kernel, images, job and QEMU command line. Every value in it goes
 * through the one quoting function (common/util.h, shell_join).
 */
#ifndef LAB_REPRODUCE_SCRIPT_H
#define LAB_REPRODUCE_SCRIPT_H

#include <stddef.h>

/* The script's text (malloc'd) for QEMU's words ARGV (N of them), the
 * guest image INITRAMFS, a slow disk of SLOW_DISK_SIZE bytes and a scratch
 * disk of SCRATCH_DISK_SIZE bytes (0: none). */
char *reproduce_script_text(const char *const *argv, size_t n, const char *initramfs,
			    unsigned long long slow_disk_size, unsigned long long scratch_disk_size);

#endif
