/*
 * Choosing QEMU's accelerator. KVM is used only where it really boots a lab
 * guest: the first boot on a machine with /dev/kvm tries it once, and the
 * answer is remembered in the cache (per host kernel and QEMU version).
 * Here /dev/kvm exists but guests hang under it (a PVM host), so the probe
 * falls back to TCG. OOMLAB_ACCEL=tcg|kvm overrides.
 */
#ifndef LAB_ACCEL_H
#define LAB_ACCEL_H

#include "profile.h"
#include "variant.h"

/* "tcg" or "kvm"; may boot variant v once to find out. */
const char *accel_choose(const struct variant *v, const struct profile *p);
/* QEMU's version line, e.g. "QEMU emulator version 7.2.22 (...)". */
const char *qemu_version(void);

#endif
