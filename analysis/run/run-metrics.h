/*
 * Metrics for trials whose trial.json has none. trial.json's "metrics"
 * array is the record (docs/FORMATS.md); a trial written before the lab
 * computed it has no such array. For those, report and export compute
 * them from the trial folder with the same code the lab uses to write
 * trial.json (analysis/metrics/trial_metrics.h), and put them into the loaded
 * trial, in memory only, with "metrics_derived": true beside them.
 */
#ifndef LAB_RUN_METRICS_H
#define LAB_RUN_METRICS_H

#include <stddef.h>

#include "run-data.h"

/* Fills in the trials without a "metrics" array; returns how many. */
size_t run_data_fill_metrics(struct run_data *rd);

#endif
