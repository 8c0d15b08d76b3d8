/* export_perfetto.h - one trial folder as a Chrome Trace Event JSON file,
 * the format ui.perfetto.dev and chrome://tracing open.
 *
 * What goes in (docs/FORMATS.md):
 *   perf.script  reclaim and compaction stalls as complete slices ("X") on
 *                the thread that stalled, paired the way stall.h pairs them
 *                (a begin still open when the trace ends runs to the trace's
 *                last event, args.open_at_end); kcompactd's compaction passes
 *                and binder's _start/_end pairs (binder_alloc_page,
 *                binder_unmap_user) as slices on their threads; every other
 *                sample (oom:*, sched_process_exit, kmem:mm_page_alloc, ...)
 *                as a thread instant ("i") with the tracepoint's fields as
 *                args.
 *   perf.script + kmsg.log
 *                one lane per OOM victim (oom_victims.h) in the process
 *                "OOM victims": a slice from mark_victim to the last of
 *                finish/skip reaping and exit, and an instant per step.
 *   ctl.jsonl    the agent's heartbeats as counter tracks ("C"): free and
 *                available memory, free swap, the workload cgroup's usage,
 *                PSI memory totals and the share of time stalled between
 *                two heartbeats; the agent's other lines as instants.
 *   out.log      each workload's phase-begin/phase-end pairs as slices (an
 *                unfinished phase runs to the trace's end, args.unfinished),
 *                its other events as instants. The apps workload's apps
 *                (app_timeline.h) get a lane each in the process "apps":
 *                their tier as slices ("dead" while not running), their
 *                launches as slices inside them ("cold start", "warm
 *                start"), their deaths as instants.
 *
 * Times: ts and dur in microseconds, from the guest's CLOCK_MONOTONIC ns
 * (perf -k mono, t_mono_ns).  pid and tid are the guest's, from the trace;
 * the lanes made from ctl.jsonl, out.log and the victims get process ids
 * from PERFETTO_SYNTHETIC_PID up, which no guest pid reaches.  Every pid and
 * tid used is named by "M" metadata events (ts 0).  The events are sorted
 * by ts (metadata first; at equal times a longer slice before a shorter).
 */
#ifndef OOMLAB_EXPORT_PERFETTO_H
#define OOMLAB_EXPORT_PERFETTO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERFETTO_SYNTHETIC_PID 10000000

struct perfetto_counts {
	size_t events;          /* all of traceEvents */
	size_t metadata, slices, instants, counters;
	size_t stalls;          /* of the slices: reclaim and compaction stalls */
	size_t victims;
	size_t phases;
	size_t app_lanes;       /* apps of the apps workload, a lane each */
	uint64_t lost_events;   /* perf's LOST records, summed */
	bool have_perf, have_kmsg, have_ctl, have_out;
};

/*
 * The trace of the trial folder DIR: {"traceEvents": [...],
 * "displayTimeUnit": "ms", "otherData": OTHER_DATA + the sources read}.
 * OTHER_DATA (may be NULL) is not stolen.  Files the folder lacks are
 * skipped; the result is never NULL (an empty trial gives metadata only).
 */
json_t *perfetto_trace(const char *dir, json_t *other_data, struct perfetto_counts *counts);

/* Writes the trace to PATH (compact JSON); 0, or -1 with errno. */
int perfetto_trace_write(const json_t *trace, const char *path);

#endif
