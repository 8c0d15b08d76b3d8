/*
 * A metric as declared where it is made: its name, unit, kind, which
 * direction of it is better, and what it means. The guest's workloads report
 * through their rows (workloads/lib/report.h: report_row) and print them
 * (--metrics, --help); the host judges a workload's figures by the same rows
 * (analysis/compare/metric.c, "WORKLOAD." + name). The lab's own metrics are
 * rows of the host alone (analysis/metrics/metric_catalog.c).
 */
#ifndef OOMLAB_METRIC_ROW_H
#define OOMLAB_METRIC_ROW_H

#include <stddef.h>

/*
 * The kind picks the method of the comparison (analysis/compare/compare.h):
 *   TIME, THROUGHPUT, SIZE, RATIO -> ratio of geometric means
 *   COUNT   -> ratio of means per trial
 *   EVENTS  -> rare events (OOM kills, errors): the share of trials with at
 *              least one
 *   OUTCOME -> the share of trials ok (value != 0)
 */
enum metric_kind {
	METRIC_TIME,
	METRIC_THROUGHPUT,
	METRIC_COUNT,
	METRIC_SIZE,
	METRIC_RATIO,
	METRIC_OUTCOME,
	METRIC_EVENTS,
};

/* Which direction is better: lower, higher, or neither (then a significant
 * change is reported as "differs", never better or worse). */
enum metric_better {
	BETTER_LOWER,
	BETTER_HIGHER,
	BETTER_NEITHER,
};

struct metric_row {
	const char *name;	/* as after "WORKLOAD." in trial.json, before any label */
	const char *unit;	/* "ns", "count", "B", "1/s", ... */
	enum metric_kind kind;
	enum metric_better better;
	const char *meaning;	/* for people: --help, lab metrics, docs/REFERENCE.md */
	/* The label sets a figure of this row comes with, each as trial.json
	 * writes them after the name, keys in order ("mode=sg.size=*"; "" for a
	 * figure without labels), NULL-terminated; NULL: never labelled. */
	const char *const *labels;
};

/* A row's label sets: METRIC_LABELS("size=*", "mode=sg.size=*"). */
#define METRIC_LABELS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define METRIC_NO_LABELS NULL

/* ROW's Ith label set, "" for a figure without labels: for I from 0 until
 * NULL, each name ROW declares is its name, then "." and the set unless "". */
const char *metric_row_label_set(const struct metric_row *row, size_t i);

#endif
