/* lab_metric_rows.h - the lab's own metrics, each declared once as a row:
 * X(ID, "name", "unit", KIND, BETTER, "meaning", "source"), KIND a METRIC_
 * kind and BETTER a BETTER_ direction without their prefixes (metric-row.h).
 *
 * One list makes both enum lab_metric (ID indexes the rows) and the
 * catalogue's rows (metric_catalog.c), so the code that computes a figure
 * adds it by its ID (lab_metric_add.h) and takes the row's name and unit: it
 * cannot write a name or unit of its own. A family's row is a glob; its
 * figures are added with the part the glob stands for and must match it.
 *
 * One line per metric or family, in the order they are looked up: exact
 * names before globs, the first match wins. A unit of "" means the unit
 * the trial recorded (a row the lab no longer writes, kept for older
 * records). K in a meaning is what the glob's '*' stands for; T a tier,
 * foreground visible perceptible service home previous service-b cached
 * (app-tiers.h's tier of the victim's oom_score_adj).
 *
 * Add a metric: a row here, and its lab_metric_add() where it is computed.
 */
#ifndef OOMLAB_LAB_METRIC_ROWS_H
#define OOMLAB_LAB_METRIC_ROWS_H

#include "common/proto/workload-line.h"

/* The source of the rows the guest's line runner reports through out.log:
 * the only lab metrics a metric line may carry. */
#define METRIC_SOURCE_LINE_RUNNER "the guest's line runner, for each experiment line (out.log; " \
				  "common/proto/workload-line.h)"
/* The name of the row the catalogue replaces with two rows a userspace
 * killer (common/proto/killer-kinds.h): PREFIX_kills and PREFIX_kills_trace. */
#define LAB_KILLER_ROWS_NAME "(killer rows)"

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

#define LAB_METRICS(X)                                                                                  \
	X(LAB_TRIAL_OK, "trial_ok", "ok", OUTCOME, HIGHER,                                              \
	  "1 when the trial booted, ran its lines and came back, else 0", SRC_TRIAL)                    \
	X(LAB_OOM_KILLS, "oom_kills", "count", EVENTS, LOWER,                                           \
	  "OOM kills, the best total: the larger of the kmsg reports and the vmstat delta (each "       \
	  "can miss kills: a dead guest has no vmstat delta, kmsg can drop records); without "          \
	  "both, memory.events, then the trace",                                                        \
	  "kmsg.log, /proc/vmstat, memory.events or perf trace (trial.json says which)")                \
	X(LAB_OOM_KILLS_MEMCG, "oom_kills_memcg", "count", EVENTS, LOWER,                               \
	  "OOM kill reports with constraint memcg", SRC_KMSG_OOM)                                       \
	X(LAB_OOM_KILLS_GLOBAL, "oom_kills_global", "count", EVENTS, LOWER,                             \
	  "OOM kill reports with constraint global", SRC_KMSG_OOM)                                      \
	X(LAB_OOM_KILLS_KMSG, "oom_kills_kmsg", "count", EVENTS, LOWER,                                 \
	  "OOM kill reports in the kernel log", SRC_KMSG_OOM)                                           \
	X(LAB_OOM_KILLS_VMSTAT, "oom_kills_vmstat", "count", EVENTS, LOWER,                             \
	  "the oom_kill counter's delta", SRC_VMSTAT)                                                   \
	X(LAB_OOM_KILLS_MEMORY_EVENTS, "oom_kills_memory_events", "count", EVENTS, LOWER,               \
	  "the workload cgroup's oom_kill delta (its subtree only)", SRC_EVENTS)                        \
	X(LAB_OOM_KILLS_TRACE, "oom_kills_trace", "count", EVENTS, LOWER,                               \
	  "oom:mark_victim events (also marks an exiting task without a kill)", SRC_TRACE)              \
	X(LAB_OOM_INVOCATIONS_KMSG, "oom_invocations_kmsg", "count", EVENTS, LOWER,                     \
	  "\"invoked oom-killer\" lines", SRC_KMSG_OOM)                                                 \
	/* kills by killer and by tier (killer_metrics.h) */                                            \
	X(LAB_OOM_KILLS_TIER, "oom_kills.tier=*", "count", EVENTS, LOWER,                               \
	  "the kernel's OOM kill reports whose victim was of tier T", SRC_KMSG_OOM)                     \
	/* here each userspace killer's PREFIX_kills and PREFIX_kills_trace,                            \
	 * made from its row of common/proto/killer-kinds.h (killer_rows()) */                          \
	X(LAB_KILLER_ROWS, LAB_KILLER_ROWS_NAME, "count", EVENTS, LOWER,                                \
	  NULL, NULL)                                                                                   \
	X(LAB_LMKD_KILLS_TIER, "lmkd_kills.tier=*", "count", EVENTS, LOWER,                             \
	  "the low-memory killer's kills whose victim was of tier T", SRC_LMKD)                         \
	X(LAB_LMKD_KILLS_REASON, "lmkd_kills.reason=*", "count", EVENTS, LOWER,                         \
	  "the low-memory killer's kills for Android lmkd's reason K (LOW_MEM, "                        \
	  "PRESSURE_AFTER_KILL, NOT_RESPONDING, ...; lmkd-lines.h)",                                    \
	  SRC_LMKD)                                                                                     \
	X(LAB_LMKD_REAP_MS, "lmkd_reap_ms", "ms", TIME, LOWER,                                          \
	  "median time from the low-memory killer's kill to the memory freed, over the kills "          \
	  "it saw reaped",                                                                              \
	  SRC_LMKD)                                                                                     \
	X(LAB_LMKD_REAP_MAX_MS, "lmkd_reap_max_ms", "ms", TIME, LOWER,                                  \
	  "the longest time from the low-memory killer's kill to the memory freed", SRC_LMKD)           \
	/* how often pressure woke the killer: the load, not a quality */                               \
	X(LAB_LMKD_PSI_EVENTS_KIND, "lmkd_psi_events.kind=*", "count", COUNT, NEITHER,                  \
	  "PSI events that woke the low-memory killer, K = some or full", SRC_LMKD)                     \
	X(LAB_ALLOC_STALL_TIME_TOTAL_MS, "alloc_stall_time_total_ms", "ms", TIME, LOWER,                \
	  "direct reclaim, memcg reclaim and direct compaction stall time, summed",                     \
	  SRC_TRACE_STALL)                                                                              \
	X(LAB_RECLAIM_STALL_P99_US, "reclaim_stall_p99_us", "us", TIME, LOWER,                          \
	  "p99 of the direct and memcg reclaim stalls together", SRC_TRACE_STALL)                       \
	X(LAB_WORKLOAD_WINDOW_S, "workload_window_s", "s", TIME, NEITHER,                               \
	  "the workload window's length", SRC_WINDOW)                                                   \
	X(LAB_WORKLOAD_START_FREE_BLOCKS_GE, "workload_start_free_blocks_ge*", "count", COUNT, NEITHER, \
	  "free blocks of order >= K as the workload started (K: the prepare target's order, "          \
	  "else 3)",                                                                                    \
	  SRC_WINDOW)                                                                                   \
	/* kvcalloc's failed order-3 try is its design (it falls back to vmalloc):                      \
	 * how often each variant tries and fails is evidence, not a quality */                         \
	X(LAB_BINDER_PAGE_ARRAY_ORDER3, "binder_page_array_order3", "count", COUNT, NEITHER,            \
	  "order-3 zeroed compound allocations by the binder-mmap processes or the apps "               \
	  "(app-NN): binder's page array (kcalloc, or kvcalloc's kmalloc try)",                         \
	  SRC_WINDOW_TRACE)                                                                             \
	X(LAB_BINDER_PAGE_ARRAY_ORDER3_FAILED, "binder_page_array_order3_failed", "count", COUNT, NEITHER, \
	  "binder's order-3 page-array allocations that found no page (kvcalloc then falls "            \
	  "back to vmalloc)",                                                                           \
	  SRC_WINDOW_TRACE)                                                                             \
	X(LAB_BINDER_MMAP_STALL_MS, "binder_mmap_stall_ms", "ms", TIME, LOWER,                          \
	  "the binder-mmap processes' or apps' direct reclaim and compaction stall time",               \
	  SRC_WINDOW_TRACE)                                                                             \
	/* the apps workload's cold starts as the trace saw them: fewer is better */                    \
	X(LAB_APPS_COLD_STARTS_TRACE, "apps_cold_starts_trace", "count", COUNT, LOWER,                  \
	  "task_rename to \"app-*\": the apps workload's cold starts (only where apps reported "        \
	  "apps.cold_starts and task:task_rename was recorded)",                                        \
	  SRC_WINDOW_TRACE)                                                                             \
	X(LAB_PREPARE_TARGET_MET, "prepare_target_met", "ok", OUTCOME, HIGHER,                          \
	  "1 when the free blocks at the workload's start were at most the experiment's "               \
	  "target_max_free_blocks (only with a target; a miss makes the trial off-target)",             \
	  SRC_WINDOW)                                                                                   \
	X(LAB_PREPARE_HELD, "prepare_held", "ok", OUTCOME, HIGHER,                                      \
	  "1 when the prepare step still ran as the workload ended (only with a prepare step; "         \
	  "0 makes the trial off-target)",                                                              \
	  SRC_CTL)                                                                                      \
	X(LAB_RECORDER_PINNED_KB, "recorder_pinned_kb", "KiB", SIZE, NEITHER,                           \
	  "perf's file pages the agent locked (agent-pin.c) before the prepare step",                   \
	  SRC_CTL)                                                                                      \
	/* the failures fault injection forced: the treatment, not a quality */                         \
	X(LAB_FAIL_PAGE_ALLOC_INJECTED, "fail_page_alloc_injected", "count", COUNT, NEITHER,            \
	  "page allocations fault injection failed", SRC_CTL)                                           \
	X(LAB_FAILSLAB_INJECTED, "failslab_injected", "count", COUNT, NEITHER,                          \
	  "slab allocations fault injection failed", SRC_CTL)                                           \
	X(LAB_WORKLOAD_DIRECT_RECLAIM_STALLS_VMSTAT, "workload_direct_reclaim_stalls_vmstat", "count", COUNT, LOWER, \
	  "direct reclaim stalls in the workload's window: the allocstall_* deltas",                    \
	  SRC_WINDOW_VMSTAT)                                                                            \
	X(LAB_WORKLOAD_DIRECT_RECLAIM_STALLS_TRACE, "workload_direct_reclaim_stalls_trace", "count", COUNT, LOWER, \
	  "direct reclaim stalls in the workload's window: vmscan:mm_vmscan_direct_reclaim_begin "      \
	  "(short of vmstat's by at most the events perf lost)",                                        \
	  SRC_WINDOW_TRACE)                                                                             \
	X(LAB_WORKLOAD_COMPACTION_STALLS_VMSTAT, "workload_compaction_stalls_vmstat", "count", COUNT, LOWER, \
	  "compaction stalls in the workload's window: the compact_stall delta",                        \
	  SRC_WINDOW_VMSTAT)                                                                            \
	X(LAB_WORKLOAD_COMPACTION_STALLS_TRACE, "workload_compaction_stalls_trace", "count", COUNT, LOWER, \
	  "compaction stalls in the workload's window: the attempts not skipped (short of "             \
	  "vmstat's by at most the events perf lost)",                                                  \
	  SRC_WINDOW_TRACE)                                                                             \
	/* The reaper's delay is the variable under test, not a quality. */                             \
	X(LAB_REAPER_WAKE_DELAY_MS, "reaper_wake_delay_ms", "ms", TIME, NEITHER,                        \
	  "median over the OOM victims of mark_victim -> wake_reaper", SRC_TRACE_OOM)                   \
	X(LAB_REAPER_FINISH_DELAY_MS, "reaper_finish_delay_ms", "ms", TIME, NEITHER,                    \
	  "median over the OOM victims of mark_victim -> finish_task_reaping", SRC_TRACE_OOM)           \
	X(LAB_REAPER_REAP_MS, "reaper_reap_ms", "ms", TIME, LOWER,                                      \
	  "median over the OOM victims of start -> finish_task_reaping", SRC_TRACE_OOM)                 \
	X(LAB_OOM_VICTIM_EXIT_MS, "oom_victim_exit_ms", "ms", TIME, LOWER,                              \
	  "median over the OOM victims of mark_victim -> the last thread's exit",                       \
	  SRC_TRACE_OOM)                                                                                \
	X(LAB_SLAB_BINDER_BYTES, "slab_binder_bytes", "bytes", SIZE, LOWER,                             \
	  "the binder_* caches' slabs, summed", SRC_SLAB)                                               \
	X(LAB_SLAB_KMALLOC_BYTES, "slab_kmalloc_bytes", "bytes", SIZE, LOWER,                           \
	  "the kmalloc-* caches' slabs (cg-, rcl- and dma- kinds too), summed", SRC_SLAB)               \
	X(LAB_SLAB_TOTAL_BYTES, "slab_total_bytes", "bytes", SIZE, LOWER,                               \
	  "every cache's slabs, merged ones too: whether slab memory went down", SRC_SLAB)              \
	/* the kernel's complaints (kernel_complaints.h): rare, so the share of trials with one */      \
	X(LAB_KERNEL_WARNINGS, "kernel_warnings", "count", EVENTS, LOWER,                               \
	  "the kernel's reports of every kind, in every trial that has either log (0 included)",        \
	  SRC_COMPLAINTS)                                                                               \
	X(LAB_KERNEL_WARNINGS_KIND, "kernel_warnings.kind=*", "count", EVENTS, LOWER,                   \
	  "the kernel's reports of kind K: warning, sleep-in-atomic, lockdep, kasan, kfence, "          \
	  "slub, bad-page, oops, soft-lockup, hard-lockup, hung-task, rcu-stall, alloc-failure, "       \
	  "other-bug",                                                                                  \
	  SRC_COMPLAINTS)                                                                               \
	/* every experiment line's, from the guest's line runner and out.log                            \
	 * (common/proto/workload-line.h): how a program ends and how long it                           \
	 * runs are what a reproducer is for, not a quality; "differs" says a                           \
	 * change. Shares of trials: the status and signal as "not 0". */                               \
	X(LAB_LINE_EXIT_STATUS, "*." LINE_METRIC_EXIT_STATUS, "status", EVENTS, NEITHER,                \
	  "the line's exit status as the shell says it: 128+G for signal G", SRC_LINE)                  \
	X(LAB_LINE_SIGNAL, "*." LINE_METRIC_SIGNAL, "signal", EVENTS, NEITHER,                          \
	  "the signal that ended the line's program, 0 when it exited", SRC_LINE)                       \
	X(LAB_LINE_WALL, "*." LINE_METRIC_WALL, "s", TIME, NEITHER,                                     \
	  "fork to reaped on the guest's CLOCK_MONOTONIC (under icount the guest's virtual "            \
	  "time, docs/CLOCKS.md)",                                                                      \
	  SRC_LINE)                                                                                     \
	X(LAB_LINE_MEMORY_PEAK, "*." LINE_METRIC_MEMORY_PEAK, "bytes", SIZE, LOWER,                     \
	  "the peak of the workload cgroup's memory.current while the line ran (memory.peak, "          \
	  "reset for the line)",                                                                        \
	  SRC_LINE)                                                                                     \
	X(LAB_LINE_OOM_KILLS, "*." LINE_METRIC_OOM_KILLS, "count", EVENTS, LOWER,                       \
	  "the workload cgroup's memory.events oom_kill delta while the line ran (kills of any "        \
	  "task of the cgroup)",                                                                        \
	  SRC_LINE)                                                                                     \
	X(LAB_LINE_BAD_LINES, "*." LINE_METRIC_BAD_LINES, "count", EVENTS, LOWER,                       \
	  "lines of the program's output that start with '{' but are no JSON object, or metric "        \
	  "lines out of the schema (workload_lines.h)",                                                 \
	  "out.log, read by the host")                                                                  \
	/* globs: the lab's own figures */                                                              \
	X(LAB_OOM_KILLS_ANY, "oom_kills_*", "", EVENTS, LOWER,                                          \
	  "OOM kills counted from one source", SRC_KMSG_OOM)                                            \
	X(LAB_OOM_INVOCATIONS_ANY, "oom_invocations_*", "", EVENTS, LOWER,                              \
	  "OOM killer invocations counted from one source", SRC_KMSG_OOM)                               \
	X(LAB_STALL_COUNT, "*_stall_count", "count", COUNT, LOWER,                                      \
	  "completed begin/end stall pairs of kind K = direct_reclaim, memcg_reclaim, "                 \
	  "direct_compaction (stall.h)",                                                                \
	  SRC_TRACE_STALL)                                                                              \
	X(LAB_STALL_OPEN_US, "*_stall_open_us", "us", TIME, LOWER,                                      \
	  "the time of the stalls of kind K still open at the trace's end, up to its last event",       \
	  SRC_TRACE_STALL)                                                                              \
	X(LAB_STALL_TIME_US, "*_stall_*_us", "us", TIME, LOWER,                                         \
	  "stalls of kind K: their total, p50, p99 or max time (K_stall_total_us, _p50_us, "            \
	  "_p99_us, _max_us)",                                                                          \
	  SRC_TRACE_STALL)                                                                              \
	X(LAB_DIRECT_COMPACTION_ATTEMPTS, "direct_compaction_attempts", "count", COUNT, LOWER,          \
	  "mm_compaction_try_to_compact_pages events", SRC_TRACE)                                       \
	X(LAB_PAGE_ALLOC_HIGH_ORDER_FAILED, "page_alloc_high_order_failed", "count", EVENTS, LOWER,     \
	  "order > 0 allocations that found no page", SRC_TRACE_ALLOC)                                  \
	X(LAB_EXTFRAG_FALLBACKS, "extfrag_fallbacks*", "count", COUNT, LOWER,                           \
	  "allocations that fell back to another migrate type (mm_page_alloc_extfrag)",                 \
	  SRC_TRACE_ALLOC)                                                                              \
	X(LAB_VMSTAT_ALLOCSTALL, "vmstat_allocstall*", "count", COUNT, LOWER,                           \
	  "direct reclaim stalls: allocstall_<zone>'s delta, and vmstat_allocstall their sum",          \
	  SRC_VMSTAT)                                                                                   \
	X(LAB_VMSTAT_COMPACT_STALL, "vmstat_compact_stall", "count", COUNT, LOWER,                      \
	  "the compact_stall counter's delta", SRC_VMSTAT)                                              \
	X(LAB_VMSTAT_COMPACT_FAIL, "vmstat_compact_fail", "count", COUNT, LOWER,                        \
	  "the compact_fail counter's delta", SRC_VMSTAT)                                               \
	X(LAB_VMSTAT_OOM_KILL, "vmstat_oom_kill", "count", EVENTS, LOWER,                               \
	  "the oom_kill counter's delta", SRC_VMSTAT)                                                   \
	X(LAB_VMSTAT_PGMAJFAULT, "vmstat_pgmajfault", "count", COUNT, LOWER,                            \
	  "the pgmajfault counter's delta", SRC_VMSTAT)                                                 \
	X(LAB_VMSTAT_PGSCAN_DIRECT, "vmstat_pgscan_direct", "pages", SIZE, LOWER,                       \
	  "pages scanned by direct reclaim (pgscan_direct's delta)", SRC_VMSTAT)                        \
	X(LAB_VMSTAT_WORKINGSET_REFAULT, "vmstat_workingset_refault_*", "pages", SIZE, LOWER,           \
	  "pages refaulted, K = anon or file (workingset_refault_K's delta)", SRC_VMSTAT)               \
	X(LAB_VMSTAT_PSW, "vmstat_psw*", "pages", SIZE, LOWER,                                          \
	  "pages swapped in or out (pswpin's, pswpout's delta)", SRC_VMSTAT)                            \
	X(LAB_MEMORY_EVENTS_OOM, "memory_events_oom*", "count", EVENTS, LOWER,                          \
	  "the workload cgroup's oom, oom_kill and oom_group_kill events", SRC_EVENTS)                  \
	X(LAB_MEMORY_EVENTS_MAX, "memory_events_max", "count", COUNT, LOWER,                            \
	  "the times the workload cgroup hit memory.max", SRC_EVENTS)                                   \
	X(LAB_MEMORY_EVENTS_HIGH, "memory_events_high", "count", COUNT, LOWER,                          \
	  "the times the workload cgroup was throttled over memory.high", SRC_EVENTS)                   \
	X(LAB_CGROUP_PSI_MEMORY_US, "cgroup_psi_memory_*_us", "us", TIME, LOWER,                        \
	  "the workload cgroup's memory pressure stall time, K = some or full",                         \
	  SRC_CGROUP_PSI)                                                                               \
	X(LAB_PSI_MEMORY_US, "*psi_memory_*_us", "us", TIME, LOWER,                                     \
	  "the machine's memory pressure stall time, K = some or full", SRC_PSI)                        \
	X(LAB_SLAB_EFFICIENCY, "slab_*_efficiency", "ratio", RATIO, HIGHER,                             \
	  "the share of binder cache K's slab memory its objects fill", SRC_SLAB)                       \
	X(LAB_SLAB_BYTES, "slab_*_bytes", "bytes", SIZE, LOWER,                                         \
	  "cache K's slab memory (binder_* and the plain kmalloc-N)", SRC_SLAB)                         \
	/*                                                                                              \
	 * The rest of what the lab computes (trial_metrics.c): context, not a                          \
	 * quality, so no better direction. Last, so that they take only names                          \
	 * no row above knows; test-trial-metrics holds every metric the lab                            \
	 * computes to a row here and to its unit.                                                      \
	 */                                                                                             \
	X(LAB_BINDER_ACTIVE, "binder_*_active", "count", COUNT, NEITHER,                                \
	  "binder objects of type K alive after the workload (proc, thread, node, ref, death, "         \
	  "transaction, transaction_complete)",                                                         \
	  SRC_BINDER)                                                                                   \
	X(LAB_BINDER_CREATED, "binder_*_created", "count", COUNT, NEITHER,                              \
	  "binder objects of type K created during the trial", SRC_BINDER_DELTA)                        \
	X(LAB_STALL_NESTED, "*_stall_nested", "count", COUNT, NEITHER,                                  \
	  "stall begins of kind K that replaced an open begin", SRC_TRACE_STALL)                        \
	X(LAB_STALL_OPEN, "*_stall_open", "count", COUNT, NEITHER,                                      \
	  "stall begins of kind K still open at the trace's end", SRC_TRACE_STALL)                      \
	X(LAB_STALL_UNMATCHED_END, "*_stall_unmatched_end", "count", COUNT, NEITHER,                    \
	  "stall ends of kind K without a begin", SRC_TRACE_STALL)                                      \
	X(LAB_EXTFRAG_CHANGE_OWNERSHIP, "extfrag_change_ownership", "count", COUNT, NEITHER,            \
	  "fallbacks that changed a block's migrate type", SRC_TRACE_ALLOC)                             \
	X(LAB_EXTFRAG_FRAGMENTING, "extfrag_fragmenting", "count", COUNT, NEITHER,                      \
	  "fallbacks that fragment (a smaller order than the pageblock)", SRC_TRACE_ALLOC)              \
	X(LAB_KCOMPACTD_PASSES, "kcompactd_passes", "count", COUNT, NEITHER,                            \
	  "kcompactd's compaction_end events", SRC_TRACE)                                               \
	X(LAB_KMSG_MISSED_RECORDS, "kmsg_missed_records", "count", COUNT, NEITHER,                      \
	  "gaps in the kernel log's sequence numbers: records the reader missed", SRC_KMSG)             \
	X(LAB_MEMORY_EVENTS_LOW, "memory_events_low", "count", COUNT, NEITHER,                          \
	  "the times the workload cgroup was reclaimed under memory.low", SRC_EVENTS)                   \
	X(LAB_OOM_REAPED_KMSG, "oom_reaped_kmsg", "count", COUNT, NEITHER,                              \
	  "\"oom_reaper: reaped process\" lines", SRC_KMSG_OOM)                                         \
	X(LAB_OOM_VICTIMS, "oom_victims", "count", COUNT, NEITHER,                                      \
	  "OOM victims, the trace's and the kernel log's merged", "perf trace and kmsg.log")            \
	X(LAB_REAPER_WAKES, "reaper_wakes", "count", COUNT, NEITHER,                                    \
	  "OOM victims with a wake_reaper", SRC_TRACE_OOM)                                              \
	X(LAB_REAPER_REAPED, "reaper_reaped", "count", COUNT, NEITHER,                                  \
	  "OOM victims with a finish_task_reaping", SRC_TRACE_OOM)                                      \
	X(LAB_REAPER_SKIPPED, "reaper_skipped", "count", COUNT, NEITHER,                                \
	  "OOM victims with a skip_task_reaping", SRC_TRACE_OOM)                                        \
	X(LAB_REAPED_BEFORE_EXIT, "reaped_before_exit", "count", COUNT, NEITHER,                        \
	  "OOM victims reaped before their exit", SRC_TRACE_OOM)                                        \
	X(LAB_PAGE_ALLOC_HIGH_ORDER, "page_alloc_high_order", "count", COUNT, NEITHER,                  \
	  "successful order > 0 allocations", SRC_TRACE_ALLOC)                                          \
	X(LAB_PAGE_ALLOC_HIGH_ORDER_PAGES, "page_alloc_high_order_pages", "pages", SIZE, NEITHER,       \
	  "the pages of the successful order > 0 allocations", SRC_TRACE_ALLOC)                         \
	X(LAB_PAGE_ALLOC_ORDER, "page_alloc_order*", "count", COUNT, NEITHER,                           \
	  "successful allocations of order K = 1..10", SRC_TRACE_ALLOC)                                 \
	X(LAB_SLAB_ACTIVE_OBJS, "slab_*_active_objs", "count", COUNT, NEITHER,                          \
	  "cache K's active objects", SRC_SLAB)                                                         \
	X(LAB_SLAB_OBJS_PER_SLAB, "slab_*_objs_per_slab", "count", COUNT, NEITHER,                      \
	  "binder cache K's objects per slab", SRC_SLAB)                                                \
	X(LAB_SLAB_BYTES_DELTA, "slab_*_bytes_delta", "bytes", SIZE, NEITHER,                           \
	  "the change of cache K's slab memory over the trial", SRC_SLAB_DELTA)                         \
	X(LAB_SLAB_OBJSIZE, "slab_*_objsize", "bytes", SIZE, NEITHER,                                   \
	  "binder cache K's object size", SRC_SLAB)                                                     \
	X(LAB_SLAB_PAGES_PER_SLAB, "slab_*_pages_per_slab", "pages", SIZE, NEITHER,                     \
	  "binder cache K's pages per slab", SRC_SLAB)                                                  \
	X(LAB_VMSTAT_COMPACT_SUCCESS, "vmstat_compact_success", "count", COUNT, NEITHER,                \
	  "the compact_success counter's delta", SRC_VMSTAT)                                            \
	X(LAB_VMSTAT_PGSTEAL_DIRECT, "vmstat_pgsteal_direct", "pages", SIZE, NEITHER,                   \
	  "pages reclaimed by direct reclaim (pgsteal_direct's delta)", SRC_VMSTAT)                     \

#define LAB_METRIC_ID(id, name, unit, kind, better, meaning, source) id,
enum lab_metric { LAB_METRICS(LAB_METRIC_ID) LAB_METRIC_COUNT };
#undef LAB_METRIC_ID

#endif
