/* metric_catalog.h - the metrics the lab computes itself (trial_metrics.c),
 * declared once as the rows of lab_metric_rows.h: unit, kind, which
 * direction is better (analysis/compare/metric.h says what each means),
 * what the figure is and where it comes from.
 * A workload's own metrics are its rows (common/proto/workload-metrics.h,
 * which analysis/compare/metric.c looks up), and metric.c keeps the names
 * of older records.
 * The lab adds its figures by row (lab_metric_add.h); test-trial-metrics
 * still holds every metric a sample trial gets to the row that judges it.
 */
#ifndef OOMLAB_METRIC_CATALOG_H
#define OOMLAB_METRIC_CATALOG_H

#include "analysis/compare/metric.h"
#include "lab_metric_rows.h"

/* Every row of the catalogue (names and globs), *N of them: the names the lab can emit. */
const struct metric_def *metric_catalog_rows(size_t *n);
/* The catalogue's row for NAME (exact names before globs: the first match wins), or NULL. */
const struct metric_def *metric_catalog_find(const char *name);
/* The row for NAME: the catalogue's, else compare's table (metric_lookup), else NULL. */
const struct metric_def *metric_catalog_lookup(const char *name);
/* Row ID of lab_metric_rows.h (LAB_KILLER_ROWS: the placeholder). */
const struct metric_def *metric_catalog_row(enum lab_metric id);
/* The row a figure NAME of row ID is written under: ID's row when NAME is its
 * name or matches its glob; for LAB_KILLER_ROWS the killer row named NAME.
 * NULL when NAME is of none of them. */
const struct metric_def *metric_catalog_row_of(enum lab_metric id, const char *name);
/* The definition to judge NAME by: the catalogue's row, else metric_resolve()'s
 * (a workload's row or a guess from UNIT). The strings point at NAME, UNIT or
 * static storage. */
void metric_catalog_resolve(const char *name, const char *unit, struct metric_def *out);

#endif
