/* metric_catalog.c - the lab's own metrics, each declared once (metric_catalog.h). */
#include "metric_catalog.h"

#include <stddef.h>

#include "common/proto/workload-line.h"

/*
 * One line per metric or family, in the order they are looked up: exact
 * names before globs, the first match wins. A unit of "" means the unit
 * the trial recorded (a family whose members differ).
 */
static const struct metric_def lab_metrics[] = {
	{ "trial_ok",                     "ok",     METRIC_OUTCOME,    BETTER_HIGHER },
	{ "oom_kills",                    "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "oom_kills_memcg",              "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "oom_kills_global",             "count",  METRIC_EVENTS,      BETTER_LOWER },
	/* kills by killer and by tier (killer_metrics.h) */
	{ "oom_kills.tier=*",             "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "lmkd_kills",                   "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "lmkd_kills.tier=*",            "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "lmkd_kills_trace",             "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "lmkd_reap_ms",                 "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "lmkd_reap_max_ms",             "ms",     METRIC_TIME,       BETTER_LOWER },
	/* how often pressure woke the killer: the load, not a quality */
	{ "lmkd_psi_events.kind=*",       "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "alloc_stall_time_total_ms",    "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "reclaim_stall_p99_us",         "us",     METRIC_TIME,       BETTER_LOWER },
	{ "workload_window_s",            "s",      METRIC_TIME,       BETTER_NEITHER },
	{ "workload_start_free_blocks_ge*", "count", METRIC_COUNT,     BETTER_NEITHER },
	/* kvcalloc's failed order-3 try is its design (it falls back to vmalloc):
	 * how often each variant tries and fails is evidence, not a quality */
	{ "binder_page_array_order3*",    "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "binder_mmap_stall_ms",         "ms",     METRIC_TIME,       BETTER_LOWER },
	/* the apps workload's cold starts as the trace saw them: fewer is better */
	{ "apps_cold_starts_trace",       "count",  METRIC_COUNT,      BETTER_LOWER },
	{ "prepare_target_met",           "ok",     METRIC_OUTCOME,    BETTER_HIGHER },
	{ "prepare_held",                 "ok",     METRIC_OUTCOME,    BETTER_HIGHER },
	{ "recorder_pinned_kb",           "KiB",    METRIC_SIZE,       BETTER_NEITHER },
	/* the failures fault injection forced: the treatment, not a quality */
	{ "fail_page_alloc_injected",     "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "failslab_injected",            "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "workload_*_stalls_*",          "count",  METRIC_COUNT,      BETTER_LOWER },
	/* The reaper's delay is the variable under test, not a quality. */
	{ "reaper_wake_delay_ms",         "ms",     METRIC_TIME,       BETTER_NEITHER },
	{ "reaper_finish_delay_ms",       "ms",     METRIC_TIME,       BETTER_NEITHER },
	{ "reaper_reap_ms",               "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "oom_victim_exit_ms",           "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "slab_binder_bytes",            "bytes",  METRIC_SIZE,       BETTER_LOWER },
	{ "slab_total_bytes",             "bytes",  METRIC_SIZE,       BETTER_LOWER },
	/* the kernel's complaints (kernel_complaints.h): rare, so the share of trials with one */
	{ "kernel_warnings",              "count",  METRIC_EVENTS,     BETTER_LOWER },
	{ "kernel_warnings.kind=*",       "count",  METRIC_EVENTS,     BETTER_LOWER },
	/* every experiment line's, from the guest's line runner and out.log
	 * (common/proto/workload-line.h): how a program ends and how long it
	 * runs are what a reproducer is for, not a quality; "differs" says a
	 * change. Shares of trials: the status and signal as "not 0". */
	{ "*." LINE_METRIC_EXIT_STATUS, "status", METRIC_EVENTS,     BETTER_NEITHER },
	{ "*." LINE_METRIC_SIGNAL, "signal", METRIC_EVENTS,     BETTER_NEITHER },
	{ "*." LINE_METRIC_WALL, "s",      METRIC_TIME,       BETTER_NEITHER },
	{ "*." LINE_METRIC_MEMORY_PEAK, "bytes",  METRIC_SIZE,       BETTER_LOWER },
	{ "*." LINE_METRIC_OOM_KILLS, "count",  METRIC_EVENTS,     BETTER_LOWER },
	{ "*." LINE_METRIC_BAD_LINES, "count",  METRIC_EVENTS,     BETTER_LOWER },
	/* globs: the lab's own figures */
	{ "oom_kills_*",                  "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "oom_invocations_*",            "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "*_stall_count",                "",       METRIC_COUNT,      BETTER_LOWER },
	{ "*_stall_*_us",                 "",       METRIC_TIME,       BETTER_LOWER },
	{ "direct_compaction_attempts",   "",       METRIC_COUNT,      BETTER_LOWER },
	{ "page_alloc_high_order_failed", "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "extfrag_fallbacks*",           "",       METRIC_COUNT,      BETTER_LOWER },
	{ "vmstat_allocstall*",           "",       METRIC_COUNT,      BETTER_LOWER },
	{ "vmstat_compact_stall",         "",       METRIC_COUNT,      BETTER_LOWER },
	{ "vmstat_compact_fail",          "",       METRIC_COUNT,      BETTER_LOWER },
	{ "vmstat_oom_kill",              "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "vmstat_pgmajfault",            "",       METRIC_COUNT,      BETTER_LOWER },
	{ "vmstat_pgscan_direct",         "",       METRIC_SIZE,       BETTER_LOWER },
	{ "vmstat_workingset_refault_*",  "",       METRIC_SIZE,       BETTER_LOWER },
	{ "vmstat_psw*",                  "",       METRIC_SIZE,       BETTER_LOWER },
	{ "memory_events_oom*",           "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "memory_events_max",            "",       METRIC_COUNT,      BETTER_LOWER },
	{ "memory_events_high",           "",       METRIC_COUNT,      BETTER_LOWER },
	{ "*psi_memory_*_us",             "",       METRIC_TIME,       BETTER_LOWER },
	{ "slab_*_efficiency",            "",       METRIC_RATIO,      BETTER_HIGHER },
	{ "slab_*_bytes",                 "",       METRIC_SIZE,       BETTER_LOWER },
	/*
	 * The rest of what the lab computes (trial_metrics.c): context, not a
	 * quality, so no better direction. Last, so that they take only names
	 * no row above knows; test-trial-metrics holds every metric the lab
	 * computes to a row here and to its unit.
	 */
	{ "binder_*_active",              "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "binder_*_created",             "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "*_stall_nested",               "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "*_stall_open",                 "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "*_stall_unmatched_end",        "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "extfrag_change_ownership",     "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "extfrag_fragmenting",          "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "kcompactd_passes",             "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "kmsg_missed_records",          "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "memory_events_low",            "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "oom_reaped_kmsg",              "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "oom_victims",                  "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "page_alloc_high_order",        "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "page_alloc_high_order_pages",  "",       METRIC_SIZE,       BETTER_NEITHER },
	{ "page_alloc_order*",            "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "reaped_before_exit",           "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "reaper_reaped",                "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "reaper_skipped",               "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "reaper_wakes",                 "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "slab_*_active_objs",           "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "slab_*_objs_per_slab",         "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "slab_*_bytes_delta",           "",       METRIC_SIZE,       BETTER_NEITHER },
	{ "slab_*_objsize",               "",       METRIC_SIZE,       BETTER_NEITHER },
	{ "slab_*_pages_per_slab",        "",       METRIC_SIZE,       BETTER_NEITHER },
	{ "vmstat_compact_success",       "",       METRIC_COUNT,      BETTER_NEITHER },
	{ "vmstat_pgsteal_direct",        "",       METRIC_SIZE,       BETTER_NEITHER },
};

const struct metric_def *metric_catalog_rows(size_t *n)
{
	*n = sizeof(lab_metrics) / sizeof(lab_metrics[0]);
	return lab_metrics;
}

const struct metric_def *metric_catalog_find(const char *name)
{
	return metric_table_find(lab_metrics, sizeof(lab_metrics) / sizeof(lab_metrics[0]), name);
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
