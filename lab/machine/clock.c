/* The guest's clock: names, QEMU settings, meaning, watchdog scale. */
#include "clock.h"

#include <string.h>

const char guest_clock_bad_value[] = "wants realtime or icount";

/*
 * shift=0: one instruction is one guest nanosecond. Binder round trips then
 * land near the phones' (sendVec 4 B about 24 us here, 20-40 us on the
 * seeds' phones); a larger shift would stretch every figure by 2^shift and
 * make the guest's timers fire after fewer instructions of work.
 * sleep=off: an idle guest jumps to its next timer deadline instead of
 * waiting for the host, so no host latency leaks into guest time.
 * align=off: the guest is not slowed to keep pace with the host clock
 * (that would put the host back into guest time).
 */
#define ICOUNT_SETTINGS "shift=0,sleep=off,align=off"

/*
 * Trial wall time under icount against realtime, measured for the same
 * trials on this 2-core host (docs/CLOCKS.md): 1.3x for the reaper
 * experiment (its idle waits are skipped), 2.1x for CPU loops on both
 * vCPUs (one host thread runs them in turn), 3.4x for sendVec and
 * binder-throughput, 5.4x for the fragmented binder-kvcalloc trial (the
 * fragment step's memory work). 6 covers the worst seen.
 */
#define ICOUNT_WATCHDOG_SCALE 6.0

int guest_clock_parse(const char *text, enum guest_clock *clock)
{
	if (!strcmp(text, "realtime"))
		*clock = GUEST_CLOCK_REALTIME;
	else if (!strcmp(text, "icount"))
		*clock = GUEST_CLOCK_ICOUNT;
	else
		return -1;
	return 0;
}

const char *guest_clock_name(enum guest_clock clock)
{
	return clock == GUEST_CLOCK_ICOUNT ? "icount" : "realtime";
}

const char *guest_clock_settings(enum guest_clock clock)
{
	return clock == GUEST_CLOCK_ICOUNT ? ICOUNT_SETTINGS : "";
}

const char *guest_clock_meaning(enum guest_clock clock)
{
	return clock == GUEST_CLOCK_ICOUNT
		? "guest time counts instructions (1 ns each; idle time skipped), not host time"
		: "guest time is the host's time";
}

double guest_clock_watchdog_scale(enum guest_clock clock)
{
	return clock == GUEST_CLOCK_ICOUNT ? ICOUNT_WATCHDOG_SCALE : 1.0;
}

struct clock_choice guest_clock_choose(struct clock_choice option, struct clock_choice experiment,
				       struct clock_choice profile)
{
	if (option.from)
		return option;
	if (experiment.from)
		return experiment;
	if (profile.from)
		return profile;
	return (struct clock_choice){ GUEST_CLOCK_REALTIME, "default" };
}
