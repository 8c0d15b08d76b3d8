/*
 * The x86_64 guest's per-CPU timer (profile key apic_timer):
 *
 *   calibrated  each CPU ticks from its own local APIC timer, whose rate
 *               the kernel measures at boot: TCG has no TSC-deadline
 *               timer, so calibrate_APIC_clock spins through two 100 ms
 *               windows of guest time, 19 of the 24 host seconds of an
 *               icount boot (docs/CLOCKS.md, "Where a boot's time goes").
 *   off         noapictimer on the kernel's command line: no calibration;
 *               the CPUs' ticks come as broadcasts from the global clock
 *               event device (the PIT on microvm), and with dummy per-CPU
 *               timers the kernel stays on periodic ticks: no
 *               high-resolution timers (a 1 ms sleep takes a 4 ms tick),
 *               no tickless idle.
 *
 * A profile that does not say takes the clock's default
 * (apic_timer_for()). arm64 has no APIC: the key changes nothing there.
 */
#ifndef LAB_APIC_TIMER_H
#define LAB_APIC_TIMER_H

#include "clock.h"
#include "lab/kernel/platform.h"

enum apic_timer { APIC_TIMER_DEFAULT, APIC_TIMER_CALIBRATED, APIC_TIMER_OFF };

/* "calibrated" or "off" into *OUT; -1 for anything else. */
int apic_timer_parse(const char *text, enum apic_timer *out);
/* What a setter returns for a bad value (kvfile's convention). */
extern const char apic_timer_bad_value[];
/* "calibrated", "off"; "default" for APIC_TIMER_DEFAULT. */
const char *apic_timer_name(enum apic_timer t);
/* The timer a boot on CLOCK gets when its profile asked for ASKED. */
enum apic_timer apic_timer_for(enum apic_timer asked, enum guest_clock clock);
/* What the default is, as lab keys says it. */
extern const char apic_timer_default_text[];
/* The kernel command-line word for ASKED on CLOCK and ARCH: "noapictimer",
 * or NULL when the command line says nothing. */
const char *apic_timer_cmdline(enum apic_timer asked, enum guest_clock clock, enum guest_arch arch);

#endif
