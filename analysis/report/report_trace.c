/* report_trace.c - stalls, victims and buddyinfo of one trial (report_trace.h). */
#include "report_trace.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/proto/protocol.h"
#include "common/util.h"
#include "analysis/trace/trace.h"

void buddyinfo_parse(const char *text, struct report_buddy *b)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *zone = strstr(line, "zone");
		if (starts_with(line, "Node") && zone && (!nl || zone < nl)) {
			const char *p = zone + 4;
			while (*p == ' ')
				p++;
			while (*p && *p != ' ' && *p != '\n')      /* the zone's name */
				p++;
			int order = 0;
			while (order < REPORT_BUDDY_ORDERS) {
				char *end;
				long long v = strtoll(p, &end, 10);
				if (end == p || (nl && end > nl))
					break;
				b->free[order++] += (double)v;
				p = end;
			}
			if (order) {
				b->have = true;
				if (order > b->orders)
					b->orders = order;
			}
		}
		line = nl ? nl + 1 : NULL;
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
	for (size_t i = 0; i < r.oom.n; i++) {
		const struct oom_victim *v = &r.oom.v[i];
		struct report_victim *o = &tt->victims[tt->n_victims++];
		o->pid = v->pid;
		snprintf(o->comm, sizeof(o->comm), "%s", v->comm);
		o->mark_ns = v->mark_victim_ns;
		o->wake_ns = v->wake_reaper_ns;
		o->start_ns = v->start_reaping_ns;
		o->finish_ns = v->finish_reaping_ns;
		o->skip_ns = v->skip_reaping_ns;
		o->exit_ns = v->exit_ns;
		o->reaped_before_exit = v->reaped_before_exit;
	}
	trace_release(&r);

	char *path = xasprintf("%s/files/" SNAPSHOT_BEFORE "/" SNAP_BUDDYINFO, dir);
	char *text = read_file(path, NULL);
	if (text)
		buddyinfo_parse(text, &tt->boot);
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
