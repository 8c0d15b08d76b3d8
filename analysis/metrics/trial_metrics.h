/* trial_metrics.h - a trial folder's raw inputs turned into trial.json's
 * "metrics", "victims", "lost_events" and "partial" (docs/FORMATS.md).
 *
 * Inputs, each optional (a figure whose input is missing is left out):
 *   perf.script        the trace (analysis/trace/trace.h, which says when there
 *   kmsg.log           is one): stalls, high-order allocations and fallbacks,
 *                      OOM victims and the reaper, LOST records; the kernel's
 *                      kill and reap reports
 *   files/before, files/after
 *                      vmstat, cgroup-memory.events, PSI (snapshot.h) deltas;
 *                      slabinfo (slabinfo.h) and binder stats (binder_stats.h)
 *                      as after the workload, plus deltas
 *   console.log        with kmsg.log: the kernel's complaints (kernel_complaints.h)
 *   out.log            the workloads' metric lines (workload_metrics.h) and
 *                      the experiment's workload lines (workload_lines.h)
 *   ctl.jsonl          whether the agent saw the command end
 *
 * partial is true when the after-snapshots are missing or cut short, or
 * ctl.jsonl has no "exit" line: the guest died (or was killed) before the
 * end, so the trace stops early and the deltas cannot be taken.  Figures
 * from what did arrive are still reported.
 *
 * The metrics' names, units, meanings and sources are metric_catalog.c's
 * rows (`lab metrics`).
 */
#ifndef OOMLAB_TRIAL_METRICS_H
#define OOMLAB_TRIAL_METRICS_H

#include <jansson.h>

#include "common/util.h"

/* Computes {"metrics": [...], "victims": [...], "lost_events": N, "partial": bool,
 * "kernel_complaints": [...] (when kmsg.log or console.log exists),
 * "workload_lines": [...] (when out.log has a line runner's markers)} into *OUT
 * (a new reference).  Returns 0, or -1 (ERR) when TRIAL_DIR is not
 * a folder.  lab/trial/trial-finish.h writes them into trial.json. */
int trial_metrics_compute(const char *trial_dir, json_t **out, struct strbuf *err);

#endif
