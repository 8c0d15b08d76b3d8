/* metric.c - the one table of metrics (unit, kind, better direction) and
 * guesses for names it cannot know (a workload's own, from its JSON lines). */
#include <fnmatch.h>
#include <stddef.h>
#include <string.h>

#include "metric.h"

/*
 * One line per metric or family. Exact names before globs: the first match
 * wins. A unit of "" means: the unit the trial recorded.
 */
static const struct metric_def known_metrics[] = {
	{ "trial_ok",                     "ok",     METRIC_OUTCOME,    BETTER_HIGHER },
	{ "oom_kills",                    "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "oom_kills_memcg",              "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "oom_kills_global",             "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "alloc_stall_time_total_ms",    "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "reclaim_stall_p99_us",         "us",     METRIC_TIME,       BETTER_LOWER },
	{ "workload_window_s",            "s",      METRIC_TIME,       BETTER_NEITHER },
	{ "workload_start_free_blocks_ge*", "count", METRIC_COUNT,     BETTER_NEITHER },
	/* kvcalloc's failed order-3 try is its design (it falls back to vmalloc):
	 * how often each variant tries and fails is evidence, not a quality */
	{ "binder_page_array_order3*",    "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "binder_mmap_stall_ms",         "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "prepare_target_met",           "ok",     METRIC_OUTCOME,    BETTER_HIGHER },
	{ "prepare_held",                 "ok",     METRIC_OUTCOME,    BETTER_HIGHER },
	{ "recorder_pinned_kb",           "KiB",    METRIC_SIZE,       BETTER_NEITHER },
	/* the failures fault injection forced: the treatment, not a quality */
	{ "fail_page_alloc_injected",     "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "failslab_injected",            "count",  METRIC_COUNT,      BETTER_NEITHER },
	{ "workload_*_stalls_*",          "count",  METRIC_COUNT,      BETTER_LOWER },
	{ "mmap_failures",                "count",  METRIC_EVENTS,      BETTER_LOWER },
	{ "binder_throughput_iter_per_s", "iter/s", METRIC_THROUGHPUT, BETTER_HIGHER },
	{ "binder_latency_p99_ms",        "ms",     METRIC_TIME,       BETTER_LOWER },
	{ "spawn_per_s",                  "1/s",    METRIC_THROUGHPUT, BETTER_HIGHER },
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
	/* globs: the workloads' figures (workloads/README.md) */
	{ "binder-sendvec.sendvec_*ns_per_rt*", "", METRIC_TIME,       BETTER_LOWER },
	{ "binder-sendvec.sendvec_*bytes_per_s*", "", METRIC_THROUGHPUT, BETTER_HIGHER },
	{ "binder-sendvec.sendvec_iterations*", "", METRIC_COUNT,      BETTER_HIGHER },
	{ "binder-sendvec.sendvec_errors*", "",     METRIC_EVENTS,      BETTER_LOWER },
	{ "binder-throughput.throughput_iterations_per_s", "", METRIC_THROUGHPUT, BETTER_HIGHER },
	{ "binder-throughput.throughput_latency_*", "", METRIC_TIME,    BETTER_LOWER },
	{ "binder-throughput.throughput_errors", "", METRIC_EVENTS,      BETTER_LOWER },
	{ "binder-mmap.mmap_ok",          "",       METRIC_COUNT,      BETTER_HIGHER },
	{ "binder-mmap.mmap_enomem",      "",       METRIC_COUNT,      BETTER_LOWER },
	{ "binder-mmap.mmap_errors",      "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "binder-mmap.mmap_stalls",      "",       METRIC_COUNT,      BETTER_LOWER },
	{ "binder-mmap.mmap_openers_killed", "",    METRIC_EVENTS,      BETTER_LOWER },
	{ "binder-mmap.*_latency_*",      "",       METRIC_TIME,       BETTER_LOWER },
	{ "binder-objects.slab_efficiency*", "",    METRIC_RATIO,      BETTER_HIGHER },
	{ "binder-objects.slab_mem_bytes*", "",     METRIC_SIZE,       BETTER_LOWER },
	{ "spawn.spawn_per_s",            "",       METRIC_THROUGHPUT, BETTER_HIGHER },
	{ "spawn.spawn_ns_per_spawn",     "",       METRIC_TIME,       BETTER_LOWER },
	{ "spawn.spawn_failures",         "",       METRIC_EVENTS,      BETTER_LOWER },
	{ "spawn.spawn_*_s",              "",       METRIC_TIME,       BETTER_LOWER },
	{ "binder_sendvec_ns_*",          "ns",     METRIC_TIME,       BETTER_LOWER },
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

const struct metric_def *metric_lookup(const char *name)
{
	size_t n = sizeof(known_metrics) / sizeof(known_metrics[0]);

	for (size_t i = 0; i < n; i++)
		if (fnmatch(known_metrics[i].name, name, 0) == 0)
			return &known_metrics[i];
	return NULL;
}

static bool in_list(const char *word, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(word, *list) == 0)
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static const char *const time_units[] = {
	"ns", "us", "ms", "s", "sec", "min", NULL };
static const char *const size_units[] = {
	"B", "bytes", "KiB", "MiB", "GiB", "kB", "KB", "MB", "GB", "pages", NULL };
static const char *const ratio_units[] = { "%", "ratio", "fraction", NULL };
static const char *const outcome_units[] = { "ok", "bool", "outcome", NULL };

static enum metric_kind kind_from_unit(const char *unit)
{
	if (in_list(unit, time_units))
		return METRIC_TIME;
	if (in_list(unit, size_units))
		return METRIC_SIZE;
	if (in_list(unit, ratio_units))
		return METRIC_RATIO;
	if (in_list(unit, outcome_units))
		return METRIC_OUTCOME;
	if (ends_with(unit, "/s") || ends_with(unit, "per_s"))
		return METRIC_THROUGHPUT;
	return METRIC_COUNT;
}

/* Name suffixes as used by the workloads: "foo_ms", "bar_per_s", ... */
static enum metric_kind kind_from_name(const char *name)
{
	static const struct { const char *suffix; enum metric_kind kind; } rules[] = {
		{ "_per_s", METRIC_THROUGHPUT }, { "_ns", METRIC_TIME },
		{ "_us", METRIC_TIME }, { "_ms", METRIC_TIME }, { "_s", METRIC_TIME },
		{ "_bytes", METRIC_SIZE }, { "_kb", METRIC_SIZE },
		{ "_pages", METRIC_SIZE }, { "_ratio", METRIC_RATIO },
		{ "_pct", METRIC_RATIO }, { "_ok", METRIC_OUTCOME },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (ends_with(name, rules[i].suffix))
			return rules[i].kind;
	return METRIC_COUNT;
}

enum metric_kind metric_guess_kind(const char *name, const char *unit)
{
	if (unit && *unit)
		return kind_from_unit(unit);
	return kind_from_name(name ? name : "");
}

void metric_resolve(const char *name, const char *unit, struct metric_def *out)
{
	const struct metric_def *known = metric_lookup(name);

	if (known) {
		*out = *known;
		if (!*known->unit)
			out->unit = unit ? unit : "";
	} else {
		out->unit = unit ? unit : "";
		out->kind = metric_guess_kind(name, unit);
		out->better = BETTER_NEITHER;
	}
	out->name = name;
}

bool metric_name_matches(const char *glob, const char *name)
{
	return !glob || fnmatch(glob, name, 0) == 0;
}

const char *metric_kind_name(enum metric_kind kind)
{
	switch (kind) {
	case METRIC_TIME:       return "time";
	case METRIC_THROUGHPUT: return "throughput";
	case METRIC_COUNT:      return "count";
	case METRIC_SIZE:       return "size";
	case METRIC_RATIO:      return "ratio";
	case METRIC_OUTCOME:    return "outcome";
	case METRIC_EVENTS:     return "events";
	}
	return "?";
}

const char *metric_better_text(enum metric_better better)
{
	switch (better) {
	case BETTER_LOWER:   return "lower is better";
	case BETTER_HIGHER:  return "higher is better";
	case BETTER_NEITHER: return "neither is better";
	}
	return "?";
}
