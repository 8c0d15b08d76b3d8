/*
 * The x86_64 guest's per-CPU timer (profile key apic_timer):
 *
 *   given       each CPU ticks from its own local APIC timer, one-shot, and
 *               the lab tells the kernel the timer's rate
 *               (oomlab.apic_khz=, which kernels/arch/x86_64-apic-khz.patch
 *               adds to every kernel the lab builds when it applies): no
 *               calibration. QEMU's emulated timer counts at 1 GHz on both
 *               clocks, the rate calibration finds under icount.
 *   calibrated  the same timer, its rate measured by the kernel at boot:
 *               TCG has no TSC-deadline timer, so calibrate_APIC_clock
 *               spins through two 100 ms windows of guest time, 19 of the
 *               24 host seconds of an icount boot (docs/CLOCKS.md, "Where a
 *               boot's time goes").
 *   off         noapictimer on the kernel's command line: no calibration;
 *               the CPUs' ticks come as broadcasts from the global clock
 *               event device (the PIT on microvm), and with dummy per-CPU
 *               timers the kernel stays on periodic ticks: no
 *               high-resolution timers (a 1 ms sleep takes a 4 ms tick),
 *               no tickless idle.
 *
 * A profile that does not say gets given when the kernel has the lab's
 * patch and calibrated otherwise (apic_timer_for()). arm64 has no APIC:
 * the key changes nothing there.
 */
#ifndef LAB_APIC_TIMER_H
#define LAB_APIC_TIMER_H

#include <stdbool.h>

#include "clock.h"
#include "lab/kernel/platform.h"

enum apic_timer { APIC_TIMER_DEFAULT, APIC_TIMER_GIVEN, APIC_TIMER_CALIBRATED, APIC_TIMER_OFF };

/* The rate QEMU's local APIC timer counts at, before its divider: one count
 * a nanosecond of QEMU's virtual clock (hw/intc/apic.c), on both clocks. */
#define APIC_TIMER_KHZ 1000000u

/* "given", "calibrated" or "off" into *OUT; -1 for anything else. */
int apic_timer_parse(const char *text, enum apic_timer *out);
/* What a setter returns for a bad value (kvfile's convention). */
extern const char apic_timer_bad_value[];
/* "given", "calibrated", "off"; "default" for APIC_TIMER_DEFAULT. */
const char *apic_timer_name(enum apic_timer t);
/* The timer a boot on CLOCK gets when its profile asked for ASKED, of a
 * kernel that takes oomlab.apic_khz= or not (KERNEL_TAKES_RATE). */
enum apic_timer apic_timer_for(enum apic_timer asked, enum guest_clock clock, bool kernel_takes_rate);
/* What the default is, as lab keys says it. */
extern const char apic_timer_default_text[];
/* The kernel command-line word for that timer on ARCH (malloc'd):
 * "noapictimer", "oomlab.apic_khz=1000000", or NULL when it says nothing. */
char *apic_timer_cmdline(enum apic_timer asked, enum guest_clock clock, enum guest_arch arch,
			 bool kernel_takes_rate);

#endif
