/* app_launches.c - the apps' cold starts counted from task_rename (app_launches.h). */
#include "app_launches.h"

#include <string.h>

void app_launches_init(struct app_launches *l, uint64_t start_ns, uint64_t end_ns)
{
	memset(l, 0, sizeof(*l));
	l->start_ns = start_ns;
	l->end_ns = end_ns;
}

void app_launches_sample(struct app_launches *l, const struct perf_sample *s)
{
	if (strcmp(s->event, APP_TRACE_EVENT) || s->t_ns < l->start_ns || s->t_ns > l->end_ns)
		return;
	const char *comm = perf_field(s, "newcomm");
	if (comm && !strncmp(comm, APP_COMM_PREFIX, strlen(APP_COMM_PREFIX)))
		l->renames++;
}
