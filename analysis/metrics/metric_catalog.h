/* metric_catalog.h - the metrics the lab computes itself (trial_metrics.c),
 * declared once beside the code that computes them: unit, kind, which
 * direction is better (analysis/compare/metric.h says what each means),
 * what the figure is and where it comes from.
 * A workload's own metrics are its rows (common/proto/workload-metrics.h,
 * which analysis/compare/metric.c looks up), and metric.c keeps the names
 * of older records.
 * test-trial-metrics holds every metric the lab computes to a row here and
 * to the row's unit.
 */
#ifndef OOMLAB_METRIC_CATALOG_H
#define OOMLAB_METRIC_CATALOG_H

#include "analysis/compare/metric.h"

/* The source of the rows the guest's line runner reports through out.log:
 * the only lab metrics a metric line may carry. */
#define METRIC_SOURCE_LINE_RUNNER "the guest's line runner, for each experiment line (out.log; " \
				  "common/proto/workload-line.h)"
/* Every row of the catalogue (names and globs), *N of them: the names the lab can emit. */
const struct metric_def *metric_catalog_rows(size_t *n);
/* The catalogue's row for NAME (exact names before globs: the first match wins), or NULL. */
const struct metric_def *metric_catalog_find(const char *name);
/* The row for NAME: the catalogue's, else compare's table (metric_lookup), else NULL. */
const struct metric_def *metric_catalog_lookup(const char *name);
/* The definition to judge NAME by: the catalogue's row, else metric_resolve()'s
 * (a workload's row or a guess from UNIT). The strings point at NAME, UNIT or
 * static storage. */
void metric_catalog_resolve(const char *name, const char *unit, struct metric_def *out);

#endif
