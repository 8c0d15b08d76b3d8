/*
 * The workloads as `lab workloads` prints them (workload-catalog.h): each
 * one's summary, usage, options and the metrics it declares, every metric
 * with the unit, kind, direction and meaning of the row the comparison
 * judges it by, resolved through the same catalogue (metric_catalog_lookup):
 * a workload's own row (common/proto/workload-metrics.h) unless the lab's
 * catalogue shadows it; a metric no row names is judged by the unit it
 * reports, neither better.
 */
#ifndef LAB_WORKLOAD_REFERENCE_H
#define LAB_WORKLOAD_REFERENCE_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/compare/metric.h"
#include "reference-format.h"
#include "workload-catalog.h"

/* How the comparison judges W's declared metric ROW. */
struct workload_metric_view {
	char *name;			/* "W.ROW", as trial.json names it */
	struct metric_def def;		/* the unit, kind and direction it gets */
	const struct metric_def *row;	/* the catalogue's row that judges it, or NULL: guessed */
};
void workload_metric_view(const struct workload_info *w, const char *row, struct workload_metric_view *v);
void workload_metric_view_clear(struct workload_metric_view *v);

/* The workloads ITEMS (N of them) in FORMAT. */
void workload_reference_print(FILE *out, enum reference_format format,
			      const struct workload_info *items, size_t n);

#endif
