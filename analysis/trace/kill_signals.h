/*
 * kill_signals.h - the SIGKILLs in a trial's trace
 * (signal:signal_generate, recorded with the filter "sig == 9",
 * lab/perf-events.c), counted by who sent them: the tracepoint fires in the
 * sender's context, so the sample's comm is the sender's (the field comm=
 * is the target's). The guest's low-memory killer sends its kills under
 * LMKD_COMM (common/proto/lmkd-config.h).
 */
#ifndef OOMLAB_KILL_SIGNALS_H
#define OOMLAB_KILL_SIGNALS_H

#include <stdint.h>

#include "analysis/parse/perf_script.h"

#define SIGNAL_GENERATE_EVENT "signal:signal_generate"

struct kill_signals {
	uint64_t by_lmkd;       /* the SIGKILLs the guest's low-memory killer sent */
};

void kill_signals_sample(struct kill_signals *k, const struct perf_sample *s);

#endif
