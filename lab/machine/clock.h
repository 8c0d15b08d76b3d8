/*
 * The guest's clock: what a second inside the VM is.
 *
 *   realtime  QEMU's default: guest time follows the host's clock. Under
 *             TCG (multi-threaded) the guest's figures then carry the
 *             host's load and emulation speed: 20-30% A/A noise on binder
 *             timings here (docs/CLOCKS.md).
 *   icount    single-threaded TCG with an instruction counter: every
 *             guest instruction is 1 ns of guest time (shift=0), an idle
 *             guest jumps to its next timer at once (sleep=off) and the
 *             guest is never held back to the host's pace (align=off).
 *             Guest time counts instructions, whatever the host does.
 *
 * Profiles and experiments say `clock = realtime | icount` (the
 * experiment's wins, a --clock option wins over both). icount exists only
 * under TCG: asking for it where the lab would use KVM is an error, never
 * a silent switch (accel.h). Watchdogs stay in host seconds, multiplied by
 * the clock's slowdown so that a slower clock is not taken for a hang.
 */
#ifndef LAB_CLOCK_H
#define LAB_CLOCK_H

#include "common/util.h"

enum guest_clock { GUEST_CLOCK_REALTIME, GUEST_CLOCK_ICOUNT };

/* A clock and where it was asked for ("configs/experiments/x.conf",
 * "--clock"), for messages and the trial record; FROM NULL: not asked for. */
struct clock_choice {
	enum guest_clock clock;
	const char *from;
};

/* The clock of a boot: the option's when given, else the experiment's,
 * else the profile's, else realtime (from "default"). */
struct clock_choice guest_clock_choose(struct clock_choice option, struct clock_choice experiment,
				       struct clock_choice profile);

/* "realtime" or "icount" into *CLOCK; -1 for anything else. */
int guest_clock_parse(const char *text, enum guest_clock *clock);
/* What a setter returns for a bad value (kvfile's convention). */
extern const char guest_clock_bad_value[];
const char *guest_clock_name(enum guest_clock clock);
/* icount's QEMU settings, "shift=0,sleep=off,align=off"; "" for realtime. */
const char *guest_clock_settings(enum guest_clock clock);
/* One line saying what a guest second is under CLOCK. */
const char *guest_clock_meaning(enum guest_clock clock);
/* The factor host-time watchdogs are multiplied by under CLOCK. */
double guest_clock_watchdog_scale(enum guest_clock clock);

#endif
