/* workload_metrics.h - the workloads' own figures: every line of out.log
 * that is a JSON object with "type":"metric" (workloads/lib/report.h)
 *
 *   {"type":"metric","workload":"binder-sendvec","name":"sendvec_ns_per_rt",
 *    "value":39126,"unit":"ns","labels":{"size":"4096"}}
 *
 * becomes the metric "binder-sendvec.sendvec_ns_per_rt.size=4096" (labels
 * sorted by key, docs/FORMATS.md), unit as given, source "out.log".  Other
 * lines (events, a tool's own text) are skipped; a metric reported twice
 * keeps its last value; a null value (NaN in the workload) is no figure.
 */
#ifndef OOMLAB_WORKLOAD_METRICS_H
#define OOMLAB_WORKLOAD_METRICS_H

#include <jansson.h>
#include <stddef.h>

#include "metric_set.h"

/* The metric name of one metric line (malloc'd), or NULL if LINE is not one. */
char *workload_metric_name(json_t *line);
/* Adds the metric lines of TEXT; returns how many lines were metrics. */
size_t workload_metrics_parse(const char *text, struct metric_set *out);

#endif
