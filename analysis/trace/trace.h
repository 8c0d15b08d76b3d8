/*
 * trace.h - one trial's trace, read once for every user (the metrics, the
 * report's figures, the Perfetto export):
 *
 *   perf.script  stalls (stall.h), high-order allocations and fallbacks
 *                (page_alloc.h), the OOM victims' trace events (oom_victims.h)
 *   kmsg.log     the kernel's kill and reap reports (oom_report.h), merged
 *                into the same victims; the guest low-memory killer's kills
 *                and events (lmkd_report.h)
 *   perf.script  also the SIGKILLs, by sender (kill_signals.h)
 *
 * One rule for "there is a trace": perf.script decoded to at least one
 * sample or LOST record. An empty or unreadable perf.script is a lost
 * recording (perf cannot decode a stream cut by a panic), not a quiet one:
 * a real recording always has the workload's own exit in it. Without a
 * trace the victims still come from the kernel log.
 */
#ifndef OOMLAB_TRACE_H
#define OOMLAB_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/kernel-text/kmsg.h"
#include "analysis/parse/lmkd_report.h"
#include "analysis/parse/oom_report.h"
#include "analysis/parse/perf_script.h"
#include "kill_signals.h"
#include "oom_victims.h"
#include "page_alloc.h"
#include "stall.h"

struct trace {
	bool have_trace;                /* the rule above */
	bool have_kmsg;                 /* kmsg.log could be read */
	struct perf_script_stats perf;
	struct kmsg_stats kmsg;
	struct stall_tracker stalls;    /* finished at the last sample's time */
	struct page_alloc_tally alloc;
	struct oom_reports reports;
	struct lmkd_reports lmkd;       /* the guest low-memory killer's lines */
	/* each userspace killer's kill lines (analysis/parse/killer_lines.h) */
	size_t killer_kills[KILLER_KIND_COUNT];
	struct kill_signals sigkills;   /* SIGKILLs by sender */
	struct oom_timeline oom;        /* trace and kernel log merged, finished */
};

/* Called for every sample of perf.script, in file order, once the trace took it in. */
typedef void (*trace_sample_fn)(const struct perf_sample *s, const struct trace *t, void *ctx);

/* Reads the trial folder DIR's trace; FN (may be NULL) sees each sample.
 * Missing files leave their parts empty: never fails. */
void trace_read(const char *dir, struct trace *t, trace_sample_fn fn, void *ctx);
void trace_release(struct trace *t);
/* One record of kmsg.log into T's kernel reports and killers' lines (as
 * trace_read() feeds them; tests feed their own). */
void trace_take_kmsg(struct trace *t, const struct kmsg_record *rec);

#endif
