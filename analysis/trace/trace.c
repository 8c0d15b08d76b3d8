/* trace.c - one trial's trace (trace.h). */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/parse/killer_lines.h"
#include "common/proto/protocol.h"
#include "common/util.h"

struct reading {
	struct trace *t;
	trace_sample_fn fn;
	void *ctx;
};

static void take_sample(const struct perf_sample *s, void *arg)
{
	struct reading *r = arg;
	stall_tracker_sample(&r->t->stalls, s);
	page_alloc_tally_sample(&r->t->alloc, s);
	oom_timeline_sample(&r->t->oom, s);
	kill_signals_sample(&r->t->sigkills, s);
	if (r->fn)
		r->fn(s, r->t, r->ctx);
}

/* kmsg.log is read once for every kind of killer's lines */
void trace_take_kmsg(struct trace *t, const struct kmsg_record *rec)
{
	oom_reports_record(&t->reports, rec);
	lmkd_reports_record(&t->lmkd, rec);
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		t->killer_kills[k] += killer_kill_line((enum killer_kind)k, rec->text);
}

static void take_record(const struct kmsg_record *rec, void *arg)
{
	trace_take_kmsg(arg, rec);
}

void trace_read(const char *dir, struct trace *t, trace_sample_fn fn, void *ctx)
{
	memset(t, 0, sizeof(*t));
	stall_tracker_init(&t->stalls);
	oom_timeline_init(&t->oom);
	oom_reports_init(&t->reports);
	lmkd_reports_init(&t->lmkd);

	struct reading r = { t, fn, ctx };
	char *path = xasprintf("%s/perf.script", dir);
	t->have_trace = perf_script_read(path, take_sample, &r, &t->perf) == 0 &&
			t->perf.samples + t->perf.lost_records > 0;
	free(path);
	stall_tracker_finish(&t->stalls, t->perf.last_ns);

	path = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_KMSG]);
	t->have_kmsg = kmsg_read(path, take_record, t, &t->kmsg) == 0;
	free(path);
	oom_timeline_add_reports(&t->oom, &t->reports);
	oom_timeline_finish(&t->oom);
}

void trace_release(struct trace *t)
{
	stall_tracker_release(&t->stalls);
	oom_reports_release(&t->reports);
	lmkd_reports_release(&t->lmkd);
	oom_timeline_release(&t->oom);
	memset(t, 0, sizeof(*t));
}
