/* report_trace.c - stalls, victims and buddyinfo of one trial (report_trace.h). */
#include "report_trace.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/kernel-text/buddyinfo.h"
#include "common/proto/protocol.h"
#include "common/util.h"
#include "analysis/trace/trace.h"

void report_buddy_add(const char *text, struct report_buddy *b)
{
	struct buddyinfo bi;
	if (buddyinfo_parse(text, &bi) < 0)
		return;
	for (int z = 0; z < bi.nzones; z++) {
		int orders = bi.z[z].norders < REPORT_BUDDY_ORDERS ? bi.z[z].norders : REPORT_BUDDY_ORDERS;
		for (int o = 0; o < orders; o++)
			b->free[o] += (double)bi.z[z].free[o];
		b->have = true;
		if (orders > b->orders)
			b->orders = orders;
	}
}

/* fragment prints one "after" set, one event per zone: summed. */
static void prepared_buddy_line(json_t *o, void *ctx)
{
	struct report_buddy *b = ctx;
	const char *name = json_string_value(json_object_get(o, "name"));
	const char *when = json_string_value(json_object_get(o, "when"));
	json_t *free_arr = json_object_get(o, "free");
	if (!name || strcmp(name, "buddyinfo") || !when || strcmp(when, "after") ||
	    !json_is_array(free_arr))
		return;
	size_t i;
	json_t *v;
	json_array_foreach(free_arr, i, v) {
		if (i >= REPORT_BUDDY_ORDERS || !json_is_number(v))
			break;
		b->free[i] += json_number_value(v);
		if ((int)i + 1 > b->orders)
			b->orders = (int)i + 1;
		b->have = true;
	}
}

void trial_trace_load(const char *dir, struct trial_trace *tt)
{
	memset(tt, 0, sizeof(*tt));
	struct trace r;
	trace_read(dir, &r, NULL, NULL);
	tt->have_perf = r.have_trace;
	for (int k = 0; k < STALL_KINDS; k++) {
		const struct stall_series *s = &r.stalls.kind[k];
		tt->n_stall[k] = s->n;
		tt->stall_ms[k] = xcalloc(s->n ? s->n : 1, sizeof(double));
		for (size_t i = 0; i < s->n; i++)
			tt->stall_ms[k][i] = (double)s->durations_ns[i] / 1e6;
		tt->open_stalls[k] = s->open_at_end;
	}
	tt->victims = xcalloc(r.oom.n ? r.oom.n : 1, sizeof(*tt->victims));
	if (r.oom.n)
		memcpy(tt->victims, r.oom.v, r.oom.n * sizeof(*tt->victims));
	tt->n_victims = r.oom.n;
	trace_release(&r);

	char *path = xasprintf("%s/files/" SNAPSHOT_BEFORE "/" SNAP_BUDDYINFO, dir);
	char *text = read_file(path, NULL);
	if (text)
		report_buddy_add(text, &tt->boot);
	free(text);
	free(path);
	path = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_OUT]);
	jsonl_read_file(path, prepared_buddy_line, &tt->prepared);
	free(path);
}

void trial_trace_release(struct trial_trace *tt)
{
	for (int k = 0; k < STALL_KINDS; k++)
		free(tt->stall_ms[k]);
	free(tt->victims);
	memset(tt, 0, sizeof(*tt));
}
