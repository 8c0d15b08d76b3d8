/*
 * The scratch disk: an ext4 file system on a sparse file in the trial's
 * folder, attached to the guest (serial DISK_SCRATCH_SERIAL), which the
 * agent mounts at GUEST_SCRATCH_DISK_DIR when the kernel has ext4. The
 * kernel's selftests that measure page cache need a disk under their
 * working folder: a sparse file's reads on the guest's tmpfs root allocate
 * nothing (shmem maps the zero page), on ext4 they fill and charge page
 * cache. Made fresh for every trial, the same way for reproduce.sh.
 */
#ifndef LAB_SCRATCH_DISK_H
#define LAB_SCRATCH_DISK_H

#include "common/util.h"

#define SCRATCH_DISK_IMAGE "scratch-disk.img"

/* Makes the SIZE-byte file system at PATH: 0, or -1 with the reason in ERR. */
int scratch_disk_make(const char *path, unsigned long long size, struct strbuf *err);
/* The shell lines that make the image NAME of SIZE bytes in the current
 * folder, as scratch_disk_make does (malloc'd, newline-terminated). */
char *scratch_disk_shell(const char *name, unsigned long long size);

#endif
