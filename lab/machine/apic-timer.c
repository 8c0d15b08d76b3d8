/* The x86_64 guest's per-CPU timer: names, the clock's default, the command line. */
#include "apic-timer.h"

#include <string.h>

const char apic_timer_bad_value[] = "wants calibrated (each CPU's local APIC timer, measured at "
				    "boot) or off (noapictimer: ticks broadcast from the PIT)";

/*
 * The default on both clocks: the timer every trial has had. Off kept
 * quick's and seed 001's answers, but it also takes away high-resolution
 * timers, which changes any workload that sleeps or times (docs/CLOCKS.md).
 */
const char apic_timer_default_text[] = "calibrated";

int apic_timer_parse(const char *text, enum apic_timer *out)
{
	if (!strcmp(text, "calibrated"))
		*out = APIC_TIMER_CALIBRATED;
	else if (!strcmp(text, "off"))
		*out = APIC_TIMER_OFF;
	else
		return -1;
	return 0;
}

const char *apic_timer_name(enum apic_timer t)
{
	switch (t) {
	case APIC_TIMER_CALIBRATED:
		return "calibrated";
	case APIC_TIMER_OFF:
		return "off";
	default:
		return "default";
	}
}

enum apic_timer apic_timer_for(enum apic_timer asked, enum guest_clock clock)
{
	(void)clock;
	return asked == APIC_TIMER_DEFAULT ? APIC_TIMER_CALIBRATED : asked;
}

const char *apic_timer_cmdline(enum apic_timer asked, enum guest_clock clock, enum guest_arch arch)
{
	/* arm64's kernel would hand an unknown word to /init as an argument */
	if (arch != ARCH_X86_64)
		return NULL;
	return apic_timer_for(asked, clock) == APIC_TIMER_OFF ? "noapictimer" : NULL;
}
