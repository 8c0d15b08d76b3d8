/* The x86_64 guest's per-CPU timer: names, the clock's default, the command line. */
#include "apic-timer.h"

#include <stdio.h>
#include <string.h>

const char apic_timer_bad_value[] = "wants given (the lab tells the kernel the timer's rate), "
				    "calibrated (the kernel measures it at boot) or off (noapictimer: "
				    "ticks broadcast from the PIT)";

/*
 * The default on both clocks when the kernel takes the rate: the same
 * one-shot per-CPU timer as calibrated, with the period the calibration
 * finds under icount (4000000 at HZ=250, measured), without its spin.
 * Off kept quick's and seed 001's answers, but it also takes away
 * high-resolution timers, which changes any workload that sleeps or times
 * (docs/CLOCKS.md).
 */
const char apic_timer_default_text[] = "(given; calibrated for a kernel built without the lab's patch)";

int apic_timer_parse(const char *text, enum apic_timer *out)
{
	if (!strcmp(text, "given"))
		*out = APIC_TIMER_GIVEN;
	else if (!strcmp(text, "calibrated"))
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
	case APIC_TIMER_GIVEN:
		return "given";
	case APIC_TIMER_CALIBRATED:
		return "calibrated";
	case APIC_TIMER_OFF:
		return "off";
	default:
		return "default";
	}
}

enum apic_timer apic_timer_for(enum apic_timer asked, enum guest_clock clock, bool kernel_takes_rate)
{
	(void)clock;
	if (asked != APIC_TIMER_DEFAULT)
		return asked;
	return kernel_takes_rate ? APIC_TIMER_GIVEN : APIC_TIMER_CALIBRATED;
}

char *apic_timer_cmdline(enum apic_timer asked, enum guest_clock clock, enum guest_arch arch,
			 bool kernel_takes_rate)
{
	/* arm64's kernel would hand an unknown word to /init as an argument */
	if (arch != ARCH_X86_64)
		return NULL;
	switch (apic_timer_for(asked, clock, kernel_takes_rate)) {
	case APIC_TIMER_OFF:
		return xstrdup("noapictimer");
	case APIC_TIMER_GIVEN:
		return xasprintf("oomlab.apic_khz=%u", APIC_TIMER_KHZ);
	default:
		return NULL;
	}
}
