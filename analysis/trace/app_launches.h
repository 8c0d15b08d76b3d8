/* app_launches.h - the apps workload's cold starts as the kernel saw them:
 * every cold start forks a process that names itself "app-NN" with
 * prctl(PR_SET_NAME), which the tracepoint task:task_rename records
 * ("pid=P oldcomm=apps newcomm=app-03 oom_score_adj=0"). Renames to a
 * name starting with "app-" inside the workload window [start_ns, end_ns]
 * count, so that the trace's count can be set beside the workload's own
 * (trial_metrics.c: apps_cold_starts_trace against apps.cold_starts).
 */
#ifndef OOMLAB_APP_LAUNCHES_H
#define OOMLAB_APP_LAUNCHES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/parse/perf_script.h"
#include "common/proto/app-events.h"

#define APP_TRACE_EVENT "task:task_rename"

struct app_launches {
	uint64_t start_ns, end_ns;
	uint64_t renames;       /* to "app-*", inside the window */
};

void app_launches_init(struct app_launches *l, uint64_t start_ns, uint64_t end_ns);
void app_launches_sample(struct app_launches *l, const struct perf_sample *s);

#endif
