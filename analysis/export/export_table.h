/* export_table.h - every trial's metrics of a run, one row per trial and
 * metric, for spreadsheets and scripts (lab export --format csv|json).
 *
 * A row: run_id, group (label: "stock", "stock#2"), variant, trial (index),
 * outcome, profile, variant_hash, guest_images_hash, accelerator, metric,
 * value, unit, source.  The trials come in the run's group order, then by
 * index; a trial's metrics in trial.json's order.  A trial whose trial.json
 * is missing (it never finished) has no rows but is listed among the trials
 * of the JSON form.
 *
 * csv:  RFC 4180, a header line, CRLF line ends, fields quoted when they
 *       hold a comma, quote or line break; values written so that they read
 *       back to the same double.
 * json: {"format": "oomlab-metrics", "version": 1, "runs": [run ids],
 *        "trials": [{run_id, group, variant, trial, dir, outcome, profile,
 *                    variant_hash, guest_images_hash, accelerator,
 *                    metrics_from, n_metrics}],
 *        "rows": [{...the row's columns...}]}
 *       metrics_from is "trial.json", "derived" (trial.json had no metrics
 *       array: they were taken from the trial folder, analysis/run/run-metrics.h) or
 *       "none".
 */
#ifndef OOMLAB_EXPORT_TABLE_H
#define OOMLAB_EXPORT_TABLE_H

#include <jansson.h>
#include <stdio.h>

#include "analysis/run/run-data.h"

/* The CSV header's columns, NULL-terminated. */
extern const char *const export_table_columns[];

/* 0, or -1 when writing failed.  *ROWS (may be NULL) gets the row count. */
int export_table_csv(FILE *out, const struct run_data *rd, size_t *rows);
json_t *export_table_json(const struct run_data *rd, size_t *rows);

/* The shortest text that reads back as X ("0.1", "12", "1e-07"). */
void export_format_double(char *buf, size_t size, double x);

#endif
