/*
 * kill_signals.h - the SIGKILLs in a trial's trace
 * (signal:signal_generate, recorded with the filter "sig == 9",
 * lab/trial/perf-events.c), counted by who sent them: the tracepoint fires in the
 * sender's context, so the sample's comm is the sender's (the field comm=
 * is the target's). Each userspace killer sends its kills under its row's
 * comm (common/proto/killer-kinds.h).
 */
#ifndef OOMLAB_KILL_SIGNALS_H
#define OOMLAB_KILL_SIGNALS_H

#include <stdint.h>

#include "analysis/parse/perf_script.h"
#include "common/proto/killer-kinds.h"

#define SIGNAL_GENERATE_EVENT "signal:signal_generate"

struct kill_signals {
	uint64_t by_kind[KILLER_KIND_COUNT];   /* the SIGKILLs each userspace killer sent */
};

void kill_signals_sample(struct kill_signals *k, const struct perf_sample *s);

#endif
