/*
 * The version of the QEMU the lab runs, asked of the binary once per
 * architecture: trial.json records it, and the accelerator probe's memory
 * (accel.h) is valid for one QEMU version only.
 */
#ifndef LAB_QEMU_VERSION_H
#define LAB_QEMU_VERSION_H

#include "lab/kernel/platform.h"

/* The version line of ARCH's QEMU, e.g. "QEMU emulator version 7.2.22 (...)";
 * dies when that QEMU is not installed. */
const char *qemu_version(enum guest_arch arch);

#endif
