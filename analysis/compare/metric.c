/* metric.c - the metrics the lab cannot know by name: a workload's own
 * (from its JSON lines, workloads/README.md), those of older records, and
 * guesses for any other. The lab's own metrics are declared where they are
 * computed (analysis/metrics/metric_catalog.c). */
#include <fnmatch.h>
#include <stddef.h>
#include <string.h>

#include "metric.h"

#include "common/base/str-list.h"

/* Where they come from. */
#define SRC_REPORT	"the workload's report lines in out.log (workloads/lib/report.h)"
#define SRC_OLD		"a record from before workloads prefixed their metrics"

/* A selftest's case (workloads/selftest.c): its row below, and what
 * metric_selftest_case() knows it by. */
static const char selftest_case[] = "selftest.*";

/*
 * One line per metric or family. Exact names before globs: the first match
 * wins. A unit of "" means: the unit the trial recorded. A workload's
 * metrics without a row here are judged by their unit, neither better.
 */
static const struct metric_def known_metrics[] = {
	/* names of records from before workloads prefixed their metrics */
	{ "mmap_failures", "count", METRIC_EVENTS, BETTER_LOWER,
	  "binder-mmap's failed mmaps", SRC_OLD },
	{ "binder_throughput_iter_per_s", "iter/s", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "binder-throughput's transactions per second", SRC_OLD },
	{ "binder_latency_p99_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "binder-throughput's p99 transaction latency", SRC_OLD },
	{ "spawn_per_s", "1/s", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "spawn's spawns per second", SRC_OLD },
	/* globs: the workloads' figures (workloads/README.md) */
	{ "binder-sendvec.sendvec_*ns_per_rt*", "", METRIC_TIME, BETTER_LOWER,
	  "a binder echo's round trip, wall or client CPU time, per size", SRC_REPORT },
	{ "binder-sendvec.sendvec_*bytes_per_s*", "", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "bytes echoed per second, wall or client CPU time, per size", SRC_REPORT },
	{ "binder-sendvec.sendvec_iterations*", "", METRIC_COUNT, BETTER_HIGHER,
	  "round trips done per size", SRC_REPORT },
	{ "binder-sendvec.sendvec_errors*", "", METRIC_EVENTS, BETTER_LOWER,
	  "failed transactions per size", SRC_REPORT },
	{ "binder-throughput.throughput_iterations_per_s", "", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "all transactions over the timed phase's wall time", SRC_REPORT },
	{ "binder-throughput.throughput_latency_*", "", METRIC_TIME, BETTER_LOWER,
	  "transaction latency: avg, best, worst, p50, p90, p95, p99", SRC_REPORT },
	{ "binder-throughput.throughput_errors", "", METRIC_EVENTS, BETTER_LOWER,
	  "failed transactions", SRC_REPORT },
	{ "binder-mmap.mmap_ok", "", METRIC_COUNT, BETTER_HIGHER,
	  "binder opens whose mmap succeeded", SRC_REPORT },
	{ "binder-mmap.mmap_enomem", "", METRIC_COUNT, BETTER_LOWER,
	  "mmaps that failed with ENOMEM", SRC_REPORT },
	{ "binder-mmap.mmap_errors", "", METRIC_EVENTS, BETTER_LOWER,
	  "other errors at open, version or mmap", SRC_REPORT },
	{ "binder-mmap.mmap_stalls", "", METRIC_COUNT, BETTER_LOWER,
	  "mmaps the workload saw stall", SRC_REPORT },
	{ "binder-mmap.mmap_openers_killed", "", METRIC_EVENTS, BETTER_LOWER,
	  "opener processes killed (by a signal) before they finished", SRC_REPORT },
	{ "binder-mmap.*_latency_*", "", METRIC_TIME, BETTER_LOWER,
	  "open or mmap call latency: p50, p99, max, mean", SRC_REPORT },
	{ "binder-objects.slab_efficiency*", "", METRIC_RATIO, BETTER_HIGHER,
	  "payload bytes x objects per slab / slab bytes, of a binder object's cache",
	  SRC_REPORT },
	{ "binder-objects.slab_mem_bytes*", "", METRIC_SIZE, BETTER_LOWER,
	  "the slab memory of a binder object's cache", SRC_REPORT },
	/* apps: cold starts and deaths are per-trial counts (many a trial), a
	 * launch failure or a binder failure is rare: the share of trials */
	{ "apps.cold_starts", "", METRIC_COUNT, BETTER_LOWER,
	  "new app processes forked (an app brought back after it died)", SRC_REPORT },
	{ "apps.warm_starts", "", METRIC_COUNT, BETTER_HIGHER,
	  "live apps brought to the front", SRC_REPORT },
	{ "apps.switches", "", METRIC_COUNT, BETTER_NEITHER,
	  "app switches of the seeded sequence", SRC_REPORT },
	{ "apps.launch_failures", "", METRIC_EVENTS, BETTER_LOWER,
	  "launches that never said ready", SRC_REPORT },
	{ "apps.binder_*_failures", "", METRIC_EVENTS, BETTER_LOWER,
	  "apps' failed binder opens or mmaps", SRC_REPORT },
	{ "apps.*_launch_p*_ms", "", METRIC_TIME, BETTER_LOWER,
	  "cold or warm launch time, switch to ready: p50, p95", SRC_REPORT },
	{ "apps.first_kill_ms", "", METRIC_TIME, BETTER_HIGHER,
	  "from the switch phase's start to the first app killed in it (absent in a trial "
	  "where none was)", SRC_REPORT },
	{ "apps.deaths*", "", METRIC_COUNT, BETTER_LOWER,
	  "apps killed, by whoever, and by the tier each had (deaths.tier=T)", SRC_REPORT },
	{ "apps.alive_*", "", METRIC_COUNT, BETTER_HIGHER,
	  "apps alive, mean or min, sampled once every app was opened", SRC_REPORT },
	{ "spawn.spawn_per_s", "", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "spawns per second", SRC_REPORT },
	{ "spawn.spawn_ns_per_spawn", "", METRIC_TIME, BETTER_LOWER,
	  "wall time per spawn", SRC_REPORT },
	{ "spawn.spawn_failures", "", METRIC_EVENTS, BETTER_LOWER,
	  "spawns that failed", SRC_REPORT },
	{ "spawn.spawn_*_s", "", METRIC_TIME, BETTER_LOWER,
	  "user or system time of the loop (with or without its children)", SRC_REPORT },
	/* selftest: S.T.CASE passes (1) or fails (0); its other figures first */
	{ "selftest.*.duration_ns", "", METRIC_TIME, BETTER_NEITHER,
	  "how long selftest S.T ran", SRC_REPORT },
	{ "selftest.*.missing_cases", "", METRIC_EVENTS, BETTER_LOWER,
	  "planned cases that never reported (a crash or a kill)", SRC_REPORT },
	{ "selftest.*.skipped", "", METRIC_OUTCOME, BETTER_NEITHER,
	  "1 when the test or the case was skipped", SRC_REPORT },
	{ "selftest.*.completed", "", METRIC_OUTCOME, BETTER_HIGHER,
	  "1 when the test exited by itself with every planned case", SRC_REPORT },
	{ selftest_case, "", METRIC_OUTCOME, BETTER_HIGHER,
	  "a case of the selftest: 1 pass, 0 fail (absent when skipped)", SRC_REPORT },
	{ "binder_sendvec_ns_*", "ns", METRIC_TIME, BETTER_LOWER,
	  "binder-sendvec's round trip per size", SRC_OLD },
};

const struct metric_def *metric_table_find(const struct metric_def *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(table[i].name, name, 0) == 0)
			return &table[i];
	return NULL;
}

const struct metric_def *metric_known_rows(size_t *n)
{
	*n = sizeof(known_metrics) / sizeof(known_metrics[0]);
	return known_metrics;
}

const struct metric_def *metric_lookup(const char *name)
{
	return metric_table_find(known_metrics, sizeof(known_metrics) / sizeof(known_metrics[0]), name);
}

bool metric_selftest_case(const char *name)
{
	const struct metric_def *row = metric_lookup(name);

	return row && row->name == selftest_case;
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
	if (str_in_list(unit, time_units))
		return METRIC_TIME;
	if (str_in_list(unit, size_units))
		return METRIC_SIZE;
	if (str_in_list(unit, ratio_units))
		return METRIC_RATIO;
	if (str_in_list(unit, outcome_units))
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

void metric_resolve_from(const struct metric_def *known, const char *name, const char *unit,
			 struct metric_def *out)
{
	if (known) {
		*out = *known;
		if (!*known->unit)
			out->unit = unit ? unit : "";
	} else {
		out->unit = unit ? unit : "";
		out->kind = metric_guess_kind(name, unit);
		out->better = BETTER_NEITHER;
		out->meaning = NULL;
		out->source = NULL;
	}
	out->name = name;
}

void metric_resolve(const char *name, const char *unit, struct metric_def *out)
{
	metric_resolve_from(metric_lookup(name), name, unit, out);
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

const char *metric_better_word(enum metric_better better)
{
	switch (better) {
	case BETTER_LOWER:   return "lower";
	case BETTER_HIGHER:  return "higher";
	case BETTER_NEITHER: return "neither";
	}
	return "?";
}

bool metric_better_parse(const char *word, enum metric_better *out)
{
	static const enum metric_better declared[] = { BETTER_LOWER, BETTER_HIGHER };

	for (size_t i = 0; word && i < sizeof(declared) / sizeof(declared[0]); i++)
		if (!strcmp(word, metric_better_word(declared[i]))) {
			*out = declared[i];
			return true;
		}
	return false;
}
