/*
 * The catalogue of metrics as `lab metrics` prints it: every row the
 * comparison judges a metric by, in the order it looks them up (the lab's
 * own, analysis/metrics/metric_catalog.c, then older records' names and
 * the workloads' rows, common/proto/workload-metrics.h, as
 * analysis/compare/metric.c names them), each with the kind and direction a
 * name of that row really gets (metric_catalog_lookup), so that a row
 * shadowed by an earlier one shows what it is judged by.
 */
#ifndef LAB_METRIC_REFERENCE_H
#define LAB_METRIC_REFERENCE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare/metric.h"
#include "reference-format.h"

struct strbuf;	/* common/util.h */

struct metric_reference {
	const struct metric_def *row;
	const char *table;			/* "lab" or "workload" */
	const struct metric_def *judged_by;	/* the row a name of ROW gets: ROW unless shadowed */
};

/*
 * The rows GLOB selects: NULL, every row; a glob, the rows whose names as
 * written it matches, else those some name of which it can match
 * (glob_intersects); a name without wildcards, the one row the comparison
 * judges it by. *ROWS is to be freed. 0, or -1 with one
 * line in ERR: GLOB is malformed, or selects no row (then with the nearest
 * names, "did you mean").
 */
int metric_reference_select(const char *glob, struct metric_reference **rows, size_t *n,
			    struct strbuf *err);
void metric_reference_print(FILE *out, enum reference_format format,
			    const struct metric_reference *rows, size_t n);

#endif
