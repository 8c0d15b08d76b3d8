/* oom_victims.h - one timeline per OOM victim, from the trace and the kernel log.
 *
 * Trace (perf.script, CLOCK_MONOTONIC ns):
 *   oom:mark_victim         pid= comm= total-vm= anon-rss= file-rss: shmem-rss:
 *                           uid= pgtables= oom_score_adj=    (the kill)
 *   oom:wake_reaper         pid=   the reaper's timer fired (OOM_REAPER_DELAY
 *                                  after the kill) and the victim had not
 *                                  freed its memory yet
 *   oom:start_task_reaping  pid=   first one kept
 *   oom:finish_task_reaping pid=   last one kept
 *   oom:skip_task_reaping   pid=   first one kept (mmap lock busy, or the
 *                                  exit path already released the mm)
 *   sched:sched_process_exit       a thread of the victim's thread group
 *                                  (sample pid = victim pid) exiting; exit_ns
 *                                  is the last such exit after the kill: the
 *                                  process is gone when its last thread is.
 * Kernel log (kmsg.log, oom_report.h): the kill report with the constraint
 * and RSS; killed_ns is its printk time stamp (local_clock) in ns, which is
 * not exactly CLOCK_MONOTONIC.
 *
 * Victims are keyed by pid: a kill report and a mark_victim with the same
 * pid are one victim (the n-th report of a pid with its n-th mark).  The
 * reaper events go to the latest victim of their pid marked before them.
 * reaped_before_exit: the reaper finished reaping (finish_task_reaping, or
 * the kernel's "oom_reaper: reaped process" line when there is no trace)
 * and, when the exit is in the trace, before it.  The reaper only gets to
 * reap an mm the exit path has not torn down (MMF_OOM_SKIP), so a reap at
 * all means the reaper beat the exit.
 */
#ifndef OOMLAB_OOM_VICTIMS_H
#define OOMLAB_OOM_VICTIMS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/parse/oom_report.h"
#include "analysis/parse/perf_script.h"

#define OOM_NO_TIME INT64_MIN

struct oom_victim {
	int pid;
	char comm[64];
	char constraint[16];            /* "" when only the trace saw it */
	bool have_rss;
	long long total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb, pgtables_kb;
	int oom_score_adj;
	int64_t killed_ns;              /* kmsg */
	int64_t mark_victim_ns, wake_reaper_ns, start_reaping_ns, finish_reaping_ns,
		skip_reaping_ns, exit_ns;
	unsigned reap_attempts;         /* start_task_reaping + skip_task_reaping events */
	bool in_kmsg, in_trace, reaped_kmsg;
	bool reaped_before_exit;
};

struct oom_exit {
	int tgid;
	uint64_t t_ns;
};

struct oom_timeline {
	struct oom_victim *v;
	size_t n, alloc;
	struct oom_exit *exits;         /* every sched_process_exit: (tgid, time) */
	size_t n_exits, alloc_exits;
	uint64_t mark_victim_events;
};

void oom_timeline_init(struct oom_timeline *t);
void oom_timeline_release(struct oom_timeline *t);
/* Feed the trace first (in file order), then the kernel log's reports, then finish. */
void oom_timeline_sample(struct oom_timeline *t, const struct perf_sample *s);
void oom_timeline_add_reports(struct oom_timeline *t, const struct oom_reports *r);
/* Resolves exits and reaped_before_exit, and sorts the victims by time of kill. */
void oom_timeline_finish(struct oom_timeline *t);

/* The victims as trial.json's "victims" array (times absent -> null). */
json_t *oom_victims_json(const struct oom_timeline *t);

#endif
