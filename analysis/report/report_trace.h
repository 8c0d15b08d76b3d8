/* report_trace.h - what the report draws from one trial folder besides its
 * metrics: the stalls and OOM victims of its trace (analysis/trace/trace.h),
 * and the buddy allocator's free blocks per order before the workload.
 *
 * Buddyinfo comes from two places (summed over the zones of every node):
 *   boot      files/before/buddyinfo: the agent's snapshot after boot,
 *             before the prepare step and the workload
 *   prepared  the fragment prepare step's "buddyinfo" events with
 *             "when":"after" in out.log: the state it left for the
 *             workload (only in runs with prepare = fragment)
 */
#ifndef OOMLAB_REPORT_TRACE_H
#define OOMLAB_REPORT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace/oom_victims.h"
#include "analysis/trace/stall.h"

#define REPORT_BUDDY_ORDERS 11

struct report_buddy {
	bool have;
	int orders;                     /* how many orders the lines had */
	double free[REPORT_BUDDY_ORDERS];
};

struct trial_trace {
	bool have_perf;                 /* there is a trace (trace.h's rule) */
	double *stall_ms[STALL_KINDS];  /* completed stalls, ms */
	size_t n_stall[STALL_KINDS];
	uint64_t open_stalls[STALL_KINDS];
	struct oom_victim *victims;     /* in order of the kill (a copy of the trace's) */
	size_t n_victims;
	struct report_buddy boot, prepared;
};

/* Reads DIR's perf.script, kmsg.log, files/before/buddyinfo and out.log;
 * what is missing stays empty.  Never fails. */
void trial_trace_load(const char *dir, struct trial_trace *tt);
void trial_trace_release(struct trial_trace *tt);

/* Adds the free blocks per order of /proc/buddyinfo TEXT, summed over its zones, to B. */
void report_buddy_add(const char *text, struct report_buddy *b);

#endif
