/* metric.h - what a metric is and which direction of it is "better".
 *
 * Every number a trial reports has a name ("oom_kills", "binder_sendvec_ns_4096").
 * The comparison needs to know, per metric, its kind, which picks the
 * method of the comparison, and which direction is better
 * (common/proto/metric-row.h says what each means).
 *
 * The lab's own metrics are declared where they are computed
 * (analysis/metrics/metric_catalog.c), the workloads' where the workloads
 * make them (common/proto/workload-metrics.h); metric.c's table holds the
 * workloads' rows as "WORKLOAD.NAME[.LABELS]" and older records' names
 * (metric_lookup, metric_resolve). Entries may be fnmatch(3) globs
 * ("binder_sendvec_ns_*"); the first matching entry wins, so exact names go
 * before globs.
 * Unknown metrics are neither-better, with the kind guessed from the unit
 * (or, without a unit, from the name's suffix: _ms, _bytes, _per_s, ...).
 */
#ifndef OOMLAB_METRIC_H
#define OOMLAB_METRIC_H

#include <stdbool.h>
#include <stddef.h>

/* enum metric_kind and enum metric_better: the row type the guest's
 * workloads declare their metrics with, shared with the host. */
#include "common/proto/metric-row.h"

struct metric_def {
	const char *name;	/* metric name, or a glob in the known table */
	const char *unit;	/* "ms", "count", "B", ... ; may be "" */
	enum metric_kind kind;
	enum metric_better better;
	/* What the figure is and where it comes from, for people (lab metrics,
	 * docs/REFERENCE.md); NULL in a definition guessed from a unit. */
	const char *meaning;
	const char *source;
};

/* The first row of TABLE (N rows, names or globs) that NAME matches, or NULL. */
const struct metric_def *metric_table_find(const struct metric_def *table, size_t n, const char *name);
/* NAME's definition from its row KNOWN, or, when KNOWN is NULL, a guess from UNIT (as metric_resolve). */
void metric_resolve_from(const struct metric_def *known, const char *name, const char *unit,
			 struct metric_def *out);

/* Every row of metric.c's table, *N of them: older records' names, then each
 * workload's rows (one a label set), in the order they are looked up. */
const struct metric_def *metric_known_rows(size_t *n);
/* The row of metric.c's table (workloads' and older records' metrics) matching NAME, or NULL. */
const struct metric_def *metric_lookup(const char *name);

/* True when NAME is a case of a kernel selftest, selftest.S.T.CASE (1 pass,
 * 0 fail): the row of metric.c's table it matches is the selftest's cases'
 * (SELFTEST_CASE, not .duration_ns, .missing_cases, .skipped or .completed). */
bool metric_selftest_case(const char *name);

/* Definition to use for NAME: the known entry (with .name set to NAME,
 * not the glob) or a guess. UNIT may be NULL; it only matters for unknown
 * metrics. The strings in *OUT point at NAME, UNIT or static storage. */
void metric_resolve(const char *name, const char *unit, struct metric_def *out);

/* Guess the kind from a unit ("ms", "iter/s", "bytes", ...) or, when UNIT
 * is NULL or empty, from the suffix of NAME. Falls back to METRIC_COUNT
 * for dimensionless numbers, since most of those in this lab are counters. */
enum metric_kind metric_guess_kind(const char *name, const char *unit);

/* True when NAME matches the --metric GLOB (fnmatch; NULL GLOB matches all). */
bool metric_name_matches(const char *glob, const char *name);

const char *metric_kind_name(enum metric_kind kind);
/* "lower is better", "higher is better", "neither is better" */
const char *metric_better_text(enum metric_better better);
/* "lower", "higher" or "neither": the direction's word wherever the lab
 * writes or reads one (lab metrics, compare's JSON, trial.json, a program's
 * metric line). */
const char *metric_better_word(enum metric_better better);
/* The direction a metric line may declare, by its word: "lower" or
 * "higher" (never "neither": a line that says nothing has none). False for
 * any other WORD (NULL included). */
bool metric_better_parse(const char *word, enum metric_better *out);

#endif
