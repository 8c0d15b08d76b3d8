/* workload_metrics.h - the workloads' own figures: every line of out.log
 * that is a JSON object with "type":"metric" (workloads/lib/report.h)
 *
 *   {"type":"metric","workload":"binder-sendvec","name":"sendvec_ns_per_rt",
 *    "value":39126,"unit":"ns","labels":{"size":"4096"}}
 *
 * becomes the metric "binder-sendvec.sendvec_ns_per_rt.size=4096" (labels
 * sorted by key, docs/FORMATS.md), unit as given, source "out.log"; between a
 * workload line's start and end markers, one without "workload" is the line's
 * program's.  Other
 * lines (events, a tool's own text) are skipped; a metric reported twice
 * keeps its last value; a null value (NaN in the workload) is no figure.
 *
 * A metric line may declare which direction of its figure is better,
 * "better":"higher" or "better":"lower" (metric_better_parse; the words are
 * metric_better_word's); the metric then carries it into trial.json
 * (metric_set.h), where the comparison reads it for a metric of no row in
 * the catalogue (analysis/verdict/compare_family.c). A line whose "better"
 * holds anything else (another word, null, a number) is out of the schema:
 * no figure, and a bad line (workload_lines.h).
 */
#ifndef OOMLAB_WORKLOAD_METRICS_H
#define OOMLAB_WORKLOAD_METRICS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "metric_set.h"

/* The metric name of one metric line (malloc'd), or NULL if LINE is not one;
 * printed by a workload line's program LINE_WORKLOAD (NULL: outside any line),
 * a metric line without "workload" is that program's (a user's program need
 * not name itself; common/proto/workload-line.h). */
char *workload_metric_name_in(json_t *line, const char *line_workload);
/* Whether RECORD's "better" is in the schema: absent (*BETTER is then
 * BETTER_NEITHER) or one of the two words (*BETTER is its direction). */
bool workload_metric_better(json_t *record, enum metric_better *better);
/* Adds RECORD to OUT when it is a metric line with a number (a null value
 * is no figure) and a "better" in the schema, with its direction; LINE_WORKLOAD as for workload_metric_name_in. Whether it did.
 * out.log is read line by line by workload_lines_parse, which calls this. */
bool workload_metric_add(json_t *record, const char *line_workload, struct metric_set *out);

/* Whether a metric line is refused (issue 37): its name or unit breaks the
 * lab's name rule (common/proto/name-rule.h), or its name is one the lab
 * computes itself (metric_catalog.h; the line runner's own figures aside).
 * workload_metric_add drops such a line; workload_lines counts it as bad. */
bool workload_metric_refused(json_t *record, const char *line_workload);
/* Whether NAME matches a catalogue row the lab computes (a glob's '*' within one dotted part). */
bool workload_metric_lab_owned(const char *name);

#endif
