/*
 * Choosing QEMU's accelerator. KVM is used only where it really boots a lab
 * guest: the first boot on a machine with /dev/kvm tries it once, and the
 * answer is remembered in the cache (per host kernel and QEMU version).
 * Here /dev/kvm exists but guests hang under it (a PVM host), so the probe
 * falls back to TCG. OOMLAB_ACCEL=tcg|kvm overrides. A guest of another
 * architecture than the host's (arm64 here) is always emulated: TCG.
 *
 * The probe's boot is the caller's (trial-plan.c boots a trial plan made
 * for KVM), so that choosing needs nothing of the trial it chooses for.
 */
#ifndef LAB_ACCEL_H
#define LAB_ACCEL_H

#include <stdbool.h>

#include "lab/kernel/platform.h"
#include "lab/machine/clock.h"
#include "lab/machine/qemu.h"

/* How long the probe's guest may take to come up. */
#define ACCEL_PROBE_BOOT_SECONDS 40.0

/* Boots one guest under KVM; true when it came up. CTX is the caller's. */
typedef bool accel_kvm_probe(void *ctx);

/*
 * The accelerator for a clock on platform P: TCG or KVM (PROBE may be
 * called once to find out), and TCG for icount. KVM has no instruction
 * counter, and the lab never trades the clock asked for for another: where
 * the lab would run guests under KVM (OOMLAB_ACCEL=kvm, or the probe found
 * that KVM boots guests here), icount is refused, -1 with one line in ERR
 * saying how to choose (clock = realtime, or OOMLAB_ACCEL=tcg to emulate
 * with the counter).
 */
int accel_for_clock(const struct clock_choice *clock, const struct platform *p, accel_kvm_probe *probe,
		    void *ctx, enum qemu_accel *accel, struct strbuf *err);
/* The same refusal, from what is known without booting (OOMLAB_ACCEL and a
 * remembered probe), so that bad input stops before any build or boot. */
int accel_check_clock(const struct clock_choice *clock, const struct platform *p, struct strbuf *err);

#endif
