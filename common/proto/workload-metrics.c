/* The workloads' metric rows, from their lists (workload-metrics.h). */
#include "workload-metrics.h"

#include <string.h>

#define METRIC_ROW(id, name, unit, kind, better, labels, meaning) \
	[id] = { name, unit, METRIC_##kind, BETTER_##better, meaning, labels },

const struct metric_row binder_sendvec_metric_rows[] = { BINDER_SENDVEC_METRICS(METRIC_ROW) { 0 } };
const struct metric_row binder_throughput_metric_rows[] = { BINDER_THROUGHPUT_METRICS(METRIC_ROW) { 0 } };
const struct metric_row binder_objects_metric_rows[] = { BINDER_OBJECTS_METRICS(METRIC_ROW) { 0 } };
const struct metric_row binder_mmap_metric_rows[] = { BINDER_MMAP_METRICS(METRIC_ROW) { 0 } };
const struct metric_row spawn_metric_rows[] = { SPAWN_METRICS(METRIC_ROW) { 0 } };
const struct metric_row oom_hog_metric_rows[] = { OOM_HOG_METRICS(METRIC_ROW) { 0 } };
const struct metric_row fragment_metric_rows[] = { FRAGMENT_METRICS(METRIC_ROW) { 0 } };
const struct metric_row selftest_metric_rows[] = { SELFTEST_METRICS(METRIC_ROW) { 0 } };
const struct metric_row apps_metric_rows[] = { APPS_METRICS(METRIC_ROW) { 0 } };

#define WORKLOAD_METRICS_ROW(ident, name, summary) { name, ident##_metric_rows },
const struct workload_metrics workload_metric_tables[] = {
	WORKLOADS(WORKLOAD_METRICS_ROW)
	{ NULL, NULL },
};

const struct metric_row *workload_metric_rows(const char *workload)
{
	for (const struct workload_metrics *t = workload_metric_tables; workload && t->workload; t++)
		if (!strcmp(t->workload, workload))
			return t->rows;
	return NULL;
}
