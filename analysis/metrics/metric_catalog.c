/* metric_catalog.c - the lab's own metrics, each declared once (metric_catalog.h). */
#include "metric_catalog.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/killer-kinds.h"
#include "common/proto/workload-line.h"
#include "common/util.h"

/* The row killer_rows() replaces with two rows a userspace killer. */
#define KILLER_ROWS "(killer rows)"

/* Where the figures come from: the trial folder's files (docs/FORMATS.md)
 * and the window each counts over. */
#define SRC_TRIAL	"the trial's outcome: it booted, ran and reported (trial.json)"
#define SRC_KMSG_OOM	"the kernel's OOM reports in kmsg.log"
#define SRC_KMSG	"kmsg.log"
#define SRC_LMKD	"the guest lmkd's lines in kmsg.log (lmkd-lines.h)"
#define SRC_COMPLAINTS	"the kernel's reports in kmsg.log and what only console.log kept"
#define SRC_TRACE	"perf trace, from the agent's `recording` line (after the prepare " \
			"step) to perf's stop (after the command)"
#define SRC_TRACE_OOM	"perf trace oom:mark_victim, oom:wake_reaper, oom:start/finish/" \
			"skip_task_reaping and the victims' exits"
#define SRC_TRACE_STALL	"perf trace vmscan and compaction begin/end pairs, from the " \
			"`recording` line to perf's stop"
#define SRC_TRACE_ALLOC	"perf trace kmem:mm_page_alloc and mm_page_alloc_extfrag, from the " \
			"`recording` line to perf's stop"
#define SRC_WINDOW	"the agent's window lines in ctl.jsonl: just after perf starts " \
			"recording and just after the command ends"
#define SRC_WINDOW_TRACE "perf trace between the workload window's two edges (window.h)"
#define SRC_WINDOW_VMSTAT "/proc/vmstat read at the workload window's two edges"
#define SRC_CTL		"the agent's control lines (ctl.jsonl)"
#define SRC_VMSTAT	"/proc/vmstat, after minus before: the whole trial, the prepare " \
			"step's own stalls included"
#define SRC_EVENTS	"the workload cgroup's memory.events, after minus before (its subtree)"
#define SRC_PSI		"/proc/pressure/memory total=, after minus before"
#define SRC_CGROUP_PSI	"the workload cgroup's memory.pressure total=, after minus before"
#define SRC_SLAB	"/proc/slabinfo after the command (caches binder_* and kmalloc-*)"
#define SRC_SLAB_DELTA	"/proc/slabinfo, after minus before"
#define SRC_BINDER	"binderfs binder_logs/stats after the command (binder_stats.h)"
#define SRC_BINDER_DELTA "binderfs binder_logs/stats \"total\", after minus before"
#define SRC_LINE	METRIC_SOURCE_LINE_RUNNER

/*
 * One line per metric or family, in the order they are looked up: exact
 * names before globs, the first match wins. A unit of "" means the unit
 * the trial recorded (a family whose members differ). K in a meaning is
 * what the glob's '*' stands for; T a tier, foreground visible perceptible
 * service home previous service-b cached (app-tiers.h's tier of the
 * victim's oom_score_adj).
 */
static const struct metric_def lab_metrics[] = {
	{ "trial_ok", "ok", METRIC_OUTCOME, BETTER_HIGHER,
	  "1 when the trial booted, ran its lines and came back, else 0", SRC_TRIAL },
	{ "oom_kills", "count", METRIC_EVENTS, BETTER_LOWER,
	  "OOM kills, the best total: the larger of the kmsg reports and the vmstat delta (each "
	  "can miss kills: a dead guest has no vmstat delta, kmsg can drop records); without "
	  "both, memory.events, then the trace",
	  "kmsg.log, /proc/vmstat, memory.events or perf trace (trial.json says which)" },
	{ "oom_kills_memcg", "count", METRIC_EVENTS, BETTER_LOWER,
	  "OOM kill reports with constraint memcg", SRC_KMSG_OOM },
	{ "oom_kills_global", "count", METRIC_EVENTS, BETTER_LOWER,
	  "OOM kill reports with constraint global", SRC_KMSG_OOM },
	{ "oom_kills_kmsg", "count", METRIC_EVENTS, BETTER_LOWER,
	  "OOM kill reports in the kernel log", SRC_KMSG_OOM },
	{ "oom_kills_vmstat", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the oom_kill counter's delta", SRC_VMSTAT },
	{ "oom_kills_memory_events", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the workload cgroup's oom_kill delta (its subtree only)", SRC_EVENTS },
	{ "oom_kills_trace", "count", METRIC_EVENTS, BETTER_LOWER,
	  "oom:mark_victim events (also marks an exiting task without a kill)", SRC_TRACE },
	{ "oom_invocations_kmsg", "count", METRIC_EVENTS, BETTER_LOWER,
	  "\"invoked oom-killer\" lines", SRC_KMSG_OOM },
	/* kills by killer and by tier (killer_metrics.h) */
	{ "oom_kills.tier=*", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the kernel's OOM kill reports whose victim was of tier T", SRC_KMSG_OOM },
	/* here each userspace killer's PREFIX_kills and PREFIX_kills_trace,
	 * made from its row of common/proto/killer-kinds.h (killer_rows()) */
	{ KILLER_ROWS, "count", METRIC_EVENTS, BETTER_LOWER, NULL, NULL },
	{ "lmkd_kills.tier=*", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the low-memory killer's kills whose victim was of tier T", SRC_LMKD },
	{ "lmkd_kills.reason=*", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the low-memory killer's kills for Android lmkd's reason K (LOW_MEM, "
	  "PRESSURE_AFTER_KILL, NOT_RESPONDING, ...; lmkd-lines.h)", SRC_LMKD },
	{ "lmkd_reap_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "median time from the low-memory killer's kill to the memory freed, over the kills "
	  "it saw reaped", SRC_LMKD },
	{ "lmkd_reap_max_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "the longest time from the low-memory killer's kill to the memory freed", SRC_LMKD },
	/* how often pressure woke the killer: the load, not a quality */
	{ "lmkd_psi_events.kind=*", "count", METRIC_COUNT, BETTER_NEITHER,
	  "PSI events that woke the low-memory killer, K = some or full", SRC_LMKD },
	{ "alloc_stall_time_total_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "direct reclaim, memcg reclaim and direct compaction stall time, summed",
	  SRC_TRACE_STALL },
	{ "reclaim_stall_p99_us", "us", METRIC_TIME, BETTER_LOWER,
	  "p99 of the direct and memcg reclaim stalls together", SRC_TRACE_STALL },
	{ "workload_window_s", "s", METRIC_TIME, BETTER_NEITHER,
	  "the workload window's length", SRC_WINDOW },
	{ "workload_start_free_blocks_ge*", "count", METRIC_COUNT, BETTER_NEITHER,
	  "free blocks of order >= K as the workload started (K: the prepare target's order, "
	  "else 3)", SRC_WINDOW },
	/* kvcalloc's failed order-3 try is its design (it falls back to vmalloc):
	 * how often each variant tries and fails is evidence, not a quality */
	{ "binder_page_array_order3", "count", METRIC_COUNT, BETTER_NEITHER,
	  "order-3 zeroed compound allocations by the binder-mmap processes or the apps "
	  "(app-NN): binder's page array (kcalloc, or kvcalloc's kmalloc try)",
	  SRC_WINDOW_TRACE },
	{ "binder_page_array_order3_failed", "count", METRIC_COUNT, BETTER_NEITHER,
	  "binder's order-3 page-array allocations that found no page (kvcalloc then falls "
	  "back to vmalloc)", SRC_WINDOW_TRACE },
	{ "binder_mmap_stall_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "the binder-mmap processes' or apps' direct reclaim and compaction stall time",
	  SRC_WINDOW_TRACE },
	/* the apps workload's cold starts as the trace saw them: fewer is better */
	{ "apps_cold_starts_trace", "count", METRIC_COUNT, BETTER_LOWER,
	  "task_rename to \"app-*\": the apps workload's cold starts (only where apps reported "
	  "apps.cold_starts and task:task_rename was recorded)", SRC_WINDOW_TRACE },
	{ "prepare_target_met", "ok", METRIC_OUTCOME, BETTER_HIGHER,
	  "1 when the free blocks at the workload's start were at most the experiment's "
	  "target_max_free_blocks (only with a target; a miss makes the trial off-target)",
	  SRC_WINDOW },
	{ "prepare_held", "ok", METRIC_OUTCOME, BETTER_HIGHER,
	  "1 when the prepare step still ran as the workload ended (only with a prepare step; "
	  "0 makes the trial off-target)", SRC_CTL },
	{ "recorder_pinned_kb", "KiB", METRIC_SIZE, BETTER_NEITHER,
	  "perf's file pages the agent locked (agent-pin.c) before the prepare step", SRC_CTL },
	/* the failures fault injection forced: the treatment, not a quality */
	{ "fail_page_alloc_injected", "count", METRIC_COUNT, BETTER_NEITHER,
	  "page allocations fault injection failed", SRC_CTL },
	{ "failslab_injected", "count", METRIC_COUNT, BETTER_NEITHER,
	  "slab allocations fault injection failed", SRC_CTL },
	{ "workload_direct_reclaim_stalls_vmstat", "count", METRIC_COUNT, BETTER_LOWER,
	  "direct reclaim stalls in the workload's window: the allocstall_* deltas",
	  SRC_WINDOW_VMSTAT },
	{ "workload_direct_reclaim_stalls_trace", "count", METRIC_COUNT, BETTER_LOWER,
	  "direct reclaim stalls in the workload's window: vmscan:mm_vmscan_direct_reclaim_begin "
	  "(short of vmstat's by at most the events perf lost)", SRC_WINDOW_TRACE },
	{ "workload_compaction_stalls_vmstat", "count", METRIC_COUNT, BETTER_LOWER,
	  "compaction stalls in the workload's window: the compact_stall delta",
	  SRC_WINDOW_VMSTAT },
	{ "workload_compaction_stalls_trace", "count", METRIC_COUNT, BETTER_LOWER,
	  "compaction stalls in the workload's window: the attempts not skipped (short of "
	  "vmstat's by at most the events perf lost)", SRC_WINDOW_TRACE },
	/* The reaper's delay is the variable under test, not a quality. */
	{ "reaper_wake_delay_ms", "ms", METRIC_TIME, BETTER_NEITHER,
	  "median over the OOM victims of mark_victim -> wake_reaper", SRC_TRACE_OOM },
	{ "reaper_finish_delay_ms", "ms", METRIC_TIME, BETTER_NEITHER,
	  "median over the OOM victims of mark_victim -> finish_task_reaping", SRC_TRACE_OOM },
	{ "reaper_reap_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "median over the OOM victims of start -> finish_task_reaping", SRC_TRACE_OOM },
	{ "oom_victim_exit_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "median over the OOM victims of mark_victim -> the last thread's exit", SRC_TRACE_OOM },
	{ "slab_binder_bytes", "bytes", METRIC_SIZE, BETTER_LOWER,
	  "the binder_* caches' slabs, summed", SRC_SLAB },
	{ "slab_kmalloc_bytes", "bytes", METRIC_SIZE, BETTER_LOWER,
	  "the kmalloc-* caches' slabs (cg-, rcl- and dma- kinds too), summed", SRC_SLAB },
	{ "slab_total_bytes", "bytes", METRIC_SIZE, BETTER_LOWER,
	  "every cache's slabs, merged ones too: whether slab memory went down", SRC_SLAB },
	/* the kernel's complaints (kernel_complaints.h): rare, so the share of trials with one */
	{ "kernel_warnings", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the kernel's reports of every kind, in every trial that has either log (0 included)",
	  SRC_COMPLAINTS },
	{ "kernel_warnings.kind=*", "count", METRIC_EVENTS, BETTER_LOWER,
	  "the kernel's reports of kind K: warning, sleep-in-atomic, lockdep, kasan, kfence, "
	  "slub, bad-page, oops, soft-lockup, hard-lockup, hung-task, rcu-stall, alloc-failure, "
	  "other-bug", SRC_COMPLAINTS },
	/* every experiment line's, from the guest's line runner and out.log
	 * (common/proto/workload-line.h): how a program ends and how long it
	 * runs are what a reproducer is for, not a quality; "differs" says a
	 * change. Shares of trials: the status and signal as "not 0". */
	{ "*." LINE_METRIC_EXIT_STATUS, "status", METRIC_EVENTS, BETTER_NEITHER,
	  "the line's exit status as the shell says it: 128+G for signal G", SRC_LINE },
	{ "*." LINE_METRIC_SIGNAL, "signal", METRIC_EVENTS, BETTER_NEITHER,
	  "the signal that ended the line's program, 0 when it exited", SRC_LINE },
	{ "*." LINE_METRIC_WALL, "s", METRIC_TIME, BETTER_NEITHER,
	  "fork to reaped on the guest's CLOCK_MONOTONIC (under icount the guest's virtual "
	  "time, docs/CLOCKS.md)", SRC_LINE },
	{ "*." LINE_METRIC_MEMORY_PEAK, "bytes", METRIC_SIZE, BETTER_LOWER,
	  "the peak of the workload cgroup's memory.current while the line ran (memory.peak, "
	  "reset for the line)", SRC_LINE },
	{ "*." LINE_METRIC_OOM_KILLS, "count", METRIC_EVENTS, BETTER_LOWER,
	  "the workload cgroup's memory.events oom_kill delta while the line ran (kills of any "
	  "task of the cgroup)", SRC_LINE },
	{ "*." LINE_METRIC_BAD_LINES, "count", METRIC_EVENTS, BETTER_LOWER,
	  "lines of the program's output that start with '{' but are no JSON object, or metric "
	  "lines out of the schema (workload_lines.h)", "out.log, read by the host" },
	/* globs: the lab's own figures */
	{ "oom_kills_*", "", METRIC_EVENTS, BETTER_LOWER,
	  "OOM kills counted from one source", SRC_KMSG_OOM },
	{ "oom_invocations_*", "", METRIC_EVENTS, BETTER_LOWER,
	  "OOM killer invocations counted from one source", SRC_KMSG_OOM },
	{ "*_stall_count", "", METRIC_COUNT, BETTER_LOWER,
	  "completed begin/end stall pairs of kind K = direct_reclaim, memcg_reclaim, "
	  "direct_compaction (stall.h)", SRC_TRACE_STALL },
	{ "*_stall_open_us", "us", METRIC_TIME, BETTER_LOWER,
	  "the time of the stalls of kind K still open at the trace's end, up to its last event",
	  SRC_TRACE_STALL },
	{ "*_stall_*_us", "", METRIC_TIME, BETTER_LOWER,
	  "stalls of kind K: their total, p50, p99 or max time (K_stall_total_us, _p50_us, "
	  "_p99_us, _max_us)", SRC_TRACE_STALL },
	{ "direct_compaction_attempts", "", METRIC_COUNT, BETTER_LOWER,
	  "mm_compaction_try_to_compact_pages events", SRC_TRACE },
	{ "page_alloc_high_order_failed", "", METRIC_EVENTS, BETTER_LOWER,
	  "order > 0 allocations that found no page", SRC_TRACE_ALLOC },
	{ "extfrag_fallbacks*", "", METRIC_COUNT, BETTER_LOWER,
	  "allocations that fell back to another migrate type (mm_page_alloc_extfrag)",
	  SRC_TRACE_ALLOC },
	{ "vmstat_allocstall*", "", METRIC_COUNT, BETTER_LOWER,
	  "direct reclaim stalls: allocstall_<zone>'s delta, and vmstat_allocstall their sum",
	  SRC_VMSTAT },
	{ "vmstat_compact_stall", "", METRIC_COUNT, BETTER_LOWER,
	  "the compact_stall counter's delta", SRC_VMSTAT },
	{ "vmstat_compact_fail", "", METRIC_COUNT, BETTER_LOWER,
	  "the compact_fail counter's delta", SRC_VMSTAT },
	{ "vmstat_oom_kill", "", METRIC_EVENTS, BETTER_LOWER,
	  "the oom_kill counter's delta", SRC_VMSTAT },
	{ "vmstat_pgmajfault", "", METRIC_COUNT, BETTER_LOWER,
	  "the pgmajfault counter's delta", SRC_VMSTAT },
	{ "vmstat_pgscan_direct", "", METRIC_SIZE, BETTER_LOWER,
	  "pages scanned by direct reclaim (pgscan_direct's delta)", SRC_VMSTAT },
	{ "vmstat_workingset_refault_*", "", METRIC_SIZE, BETTER_LOWER,
	  "pages refaulted, K = anon or file (workingset_refault_K's delta)", SRC_VMSTAT },
	{ "vmstat_psw*", "", METRIC_SIZE, BETTER_LOWER,
	  "pages swapped in or out (pswpin's, pswpout's delta)", SRC_VMSTAT },
	{ "memory_events_oom*", "", METRIC_EVENTS, BETTER_LOWER,
	  "the workload cgroup's oom, oom_kill and oom_group_kill events", SRC_EVENTS },
	{ "memory_events_max", "", METRIC_COUNT, BETTER_LOWER,
	  "the times the workload cgroup hit memory.max", SRC_EVENTS },
	{ "memory_events_high", "", METRIC_COUNT, BETTER_LOWER,
	  "the times the workload cgroup was throttled over memory.high", SRC_EVENTS },
	{ "cgroup_psi_memory_*_us", "", METRIC_TIME, BETTER_LOWER,
	  "the workload cgroup's memory pressure stall time, K = some or full", SRC_CGROUP_PSI },
	{ "*psi_memory_*_us", "", METRIC_TIME, BETTER_LOWER,
	  "the machine's memory pressure stall time, K = some or full", SRC_PSI },
	{ "slab_*_efficiency", "", METRIC_RATIO, BETTER_HIGHER,
	  "the share of binder cache K's slab memory its objects fill", SRC_SLAB },
	{ "slab_*_bytes", "", METRIC_SIZE, BETTER_LOWER,
	  "cache K's slab memory (binder_* and the plain kmalloc-N)", SRC_SLAB },
	/*
	 * The rest of what the lab computes (trial_metrics.c): context, not a
	 * quality, so no better direction. Last, so that they take only names
	 * no row above knows; test-trial-metrics holds every metric the lab
	 * computes to a row here and to its unit.
	 */
	{ "binder_*_active", "", METRIC_COUNT, BETTER_NEITHER,
	  "binder objects of type K alive after the workload (proc, thread, node, ref, death, "
	  "transaction, transaction_complete)", SRC_BINDER },
	{ "binder_*_created", "", METRIC_COUNT, BETTER_NEITHER,
	  "binder objects of type K created during the trial", SRC_BINDER_DELTA },
	{ "*_stall_nested", "", METRIC_COUNT, BETTER_NEITHER,
	  "stall begins of kind K that replaced an open begin", SRC_TRACE_STALL },
	{ "*_stall_open", "", METRIC_COUNT, BETTER_NEITHER,
	  "stall begins of kind K still open at the trace's end", SRC_TRACE_STALL },
	{ "*_stall_unmatched_end", "", METRIC_COUNT, BETTER_NEITHER,
	  "stall ends of kind K without a begin", SRC_TRACE_STALL },
	{ "extfrag_change_ownership", "", METRIC_COUNT, BETTER_NEITHER,
	  "fallbacks that changed a block's migrate type", SRC_TRACE_ALLOC },
	{ "extfrag_fragmenting", "", METRIC_COUNT, BETTER_NEITHER,
	  "fallbacks that fragment (a smaller order than the pageblock)", SRC_TRACE_ALLOC },
	{ "kcompactd_passes", "", METRIC_COUNT, BETTER_NEITHER,
	  "kcompactd's compaction_end events", SRC_TRACE },
	{ "kmsg_missed_records", "", METRIC_COUNT, BETTER_NEITHER,
	  "gaps in the kernel log's sequence numbers: records the reader missed", SRC_KMSG },
	{ "memory_events_low", "", METRIC_COUNT, BETTER_NEITHER,
	  "the times the workload cgroup was reclaimed under memory.low", SRC_EVENTS },
	{ "oom_reaped_kmsg", "", METRIC_COUNT, BETTER_NEITHER,
	  "\"oom_reaper: reaped process\" lines", SRC_KMSG_OOM },
	{ "oom_victims", "", METRIC_COUNT, BETTER_NEITHER,
	  "OOM victims, the trace's and the kernel log's merged", "perf trace and kmsg.log" },
	{ "reaper_wakes", "", METRIC_COUNT, BETTER_NEITHER,
	  "OOM victims with a wake_reaper", SRC_TRACE_OOM },
	{ "reaper_reaped", "", METRIC_COUNT, BETTER_NEITHER,
	  "OOM victims with a finish_task_reaping", SRC_TRACE_OOM },
	{ "reaper_skipped", "", METRIC_COUNT, BETTER_NEITHER,
	  "OOM victims with a skip_task_reaping", SRC_TRACE_OOM },
	{ "reaped_before_exit", "", METRIC_COUNT, BETTER_NEITHER,
	  "OOM victims reaped before their exit", SRC_TRACE_OOM },
	{ "page_alloc_high_order", "", METRIC_COUNT, BETTER_NEITHER,
	  "successful order > 0 allocations", SRC_TRACE_ALLOC },
	{ "page_alloc_high_order_pages", "", METRIC_SIZE, BETTER_NEITHER,
	  "the pages of the successful order > 0 allocations", SRC_TRACE_ALLOC },
	{ "page_alloc_order*", "", METRIC_COUNT, BETTER_NEITHER,
	  "successful allocations of order K = 1..10", SRC_TRACE_ALLOC },
	{ "slab_*_active_objs", "", METRIC_COUNT, BETTER_NEITHER,
	  "cache K's active objects", SRC_SLAB },
	{ "slab_*_objs_per_slab", "", METRIC_COUNT, BETTER_NEITHER,
	  "binder cache K's objects per slab", SRC_SLAB },
	{ "slab_*_bytes_delta", "", METRIC_SIZE, BETTER_NEITHER,
	  "the change of cache K's slab memory over the trial", SRC_SLAB_DELTA },
	{ "slab_*_objsize", "", METRIC_SIZE, BETTER_NEITHER,
	  "binder cache K's object size", SRC_SLAB },
	{ "slab_*_pages_per_slab", "", METRIC_SIZE, BETTER_NEITHER,
	  "binder cache K's pages per slab", SRC_SLAB },
	{ "vmstat_compact_success", "", METRIC_COUNT, BETTER_NEITHER,
	  "the compact_success counter's delta", SRC_VMSTAT },
	{ "vmstat_pgsteal_direct", "", METRIC_SIZE, BETTER_NEITHER,
	  "pages reclaimed by direct reclaim (pgsteal_direct's delta)", SRC_VMSTAT },
};

#define N_LAB_METRICS (sizeof(lab_metrics) / sizeof(lab_metrics[0]))

/* lab_metrics with the KILLER_ROWS row replaced by each userspace killer's
 * two rows, made once. */
static struct metric_def rows[N_LAB_METRICS - 1 + 2 * KILLER_KIND_COUNT];
static size_t n_rows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

static void killer_rows(void)
{
	for (size_t i = 0; i < N_LAB_METRICS; i++) {
		if (strcmp(lab_metrics[i].name, KILLER_ROWS)) {
			rows[n_rows++] = lab_metrics[i];
			continue;
		}
		for (int k = 0; k < KILLER_KIND_COUNT; k++) {
			const struct killer_kind_def *d = &killer_kinds[k];
			if (!d->metric_prefix)
				continue;
			rows[n_rows++] = (struct metric_def){
				xasprintf("%s_kills", d->metric_prefix), "count", METRIC_EVENTS,
				BETTER_LOWER,
				xasprintf("killer = %s: its kills, one a kill line (only in a trial whose "
					  "guest ran it)", d->name),
				xasprintf("the guest %s's kill lines in kmsg.log (\"%s...\")", d->name,
					  d->kmsg_prefix) };
			rows[n_rows++] = (struct metric_def){
				xasprintf("%s_kills_trace", d->metric_prefix), "count", METRIC_EVENTS,
				BETTER_LOWER, xasprintf("killer = %s: the SIGKILLs it sent", d->name),
				xasprintf("perf trace signal:signal_generate, sig 9 from comm %s", d->comm) };
		}
	}
}

const struct metric_def *metric_catalog_rows(size_t *n)
{
	pthread_once(&rows_once, killer_rows);
	*n = n_rows;
	return rows;
}

const struct metric_def *metric_catalog_find(const char *name)
{
	size_t n;
	const struct metric_def *all = metric_catalog_rows(&n);
	return metric_table_find(all, n, name);
}

const struct metric_def *metric_catalog_lookup(const char *name)
{
	const struct metric_def *def = metric_catalog_find(name);
	return def ? def : metric_lookup(name);
}

void metric_catalog_resolve(const char *name, const char *unit, struct metric_def *out)
{
	metric_resolve_from(metric_catalog_lookup(name), name, unit, out);
}
