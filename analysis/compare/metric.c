/* metric.c - the metrics the lab does not compute: a workload's own, judged
 * by the rows it declares (common/proto/workload-metrics.h), those of older
 * records, and guesses for any other. The lab's own metrics are declared
 * where they are computed (analysis/metrics/metric_catalog.c). */
#include <fnmatch.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "metric.h"

#include "common/base/str-list.h"
#include "common/proto/workload-metrics.h"
#include "common/util.h"

/* Where they come from. */
#define SRC_REPORT	"the workload's report lines in out.log, each through its row " \
			"(common/proto/workload-metrics.h)"
#define SRC_OLD		"a record from before workloads prefixed their metrics"

/* The names of records from before workloads prefixed their metrics: exact
 * names before the workloads' rows, globs after them. */
static const struct metric_def old_names[] = {
	{ "mmap_failures", "count", METRIC_EVENTS, BETTER_LOWER,
	  "binder-mmap's failed mmaps", SRC_OLD },
	{ "binder_throughput_iter_per_s", "iter/s", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "binder-throughput's transactions per second", SRC_OLD },
	{ "binder_latency_p99_ms", "ms", METRIC_TIME, BETTER_LOWER,
	  "binder-throughput's p99 transaction latency", SRC_OLD },
	{ "spawn_per_s", "1/s", METRIC_THROUGHPUT, BETTER_HIGHER,
	  "spawn's spawns per second", SRC_OLD },
};
static const struct metric_def old_globs[] = {
	{ "binder_sendvec_ns_*", "ns", METRIC_TIME, BETTER_LOWER,
	  "binder-sendvec's round trip per size", SRC_OLD },
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The table: old_names, then each workload's rows as trial.json names their
 * figures, "WORKLOAD.NAME" and, for a labelled row, "WORKLOAD.NAME.LABELS"
 * for each of its label sets (globs), then old_globs. Made once.
 */
static struct metric_def *known_metrics;
static size_t n_known;
static const struct metric_def *selftest_case;	/* the selftest's cases' row */
static pthread_once_t known_once = PTHREAD_ONCE_INIT;

static void add_known(const struct metric_def *def)
{
	known_metrics[n_known++] = *def;
}

static void add_row(const char *workload, const struct metric_row *row, const char *labels)
{
	char *name = *labels ? xasprintf("%s.%s.%s", workload, row->name, labels)
			     : xasprintf("%s.%s", workload, row->name);
	add_known(&(struct metric_def){ name, row->unit, row->kind, row->better, row->meaning,
					SRC_REPORT });
}

static void make_known(void)
{
	size_t n_sets = 0;
	for (const struct workload_metrics *t = workload_metric_tables; t->workload; t++)
		for (const struct metric_row *row = t->rows; row->name; row++)
			for (size_t i = 0; metric_row_label_set(row, i); i++)
				n_sets++;
	known_metrics = xcalloc(COUNT_OF(old_names) + n_sets + COUNT_OF(old_globs),
				sizeof(*known_metrics));
	for (size_t i = 0; i < COUNT_OF(old_names); i++)
		add_known(&old_names[i]);
	for (const struct workload_metrics *t = workload_metric_tables; t->workload; t++)
		for (const struct metric_row *row = t->rows; row->name; row++) {
			if (row == &selftest_metric_rows[SELFTEST_CASE])
				selftest_case = &known_metrics[n_known];
			const char *set;
			for (size_t i = 0; (set = metric_row_label_set(row, i)); i++)
				add_row(t->workload, row, set);
		}
	for (size_t i = 0; i < COUNT_OF(old_globs); i++)
		add_known(&old_globs[i]);
}

const struct metric_def *metric_table_find(const struct metric_def *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(table[i].name, name, 0) == 0)
			return &table[i];
	return NULL;
}

const struct metric_def *metric_known_rows(size_t *n)
{
	pthread_once(&known_once, make_known);
	*n = n_known;
	return known_metrics;
}

const struct metric_def *metric_lookup(const char *name)
{
	size_t n;
	const struct metric_def *rows = metric_known_rows(&n);
	return metric_table_find(rows, n, name);
}

bool metric_selftest_case(const char *name)
{
	const struct metric_def *row = metric_lookup(name);

	return row && row == selftest_case;
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
