/* export_perfetto.c - a trial folder as Chrome Trace Event JSON. */
#include "export_perfetto.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json-file.h"
#include "common/jsonl.h"
#include "common/kernel-text/psi.h"
#include "common/proto/protocol.h"
#include "common/proto/app-events.h"
#include "common/proto/app-tiers.h"
#include "common/util.h"
#include "analysis/parse/app_timeline.h"
#include "analysis/trace/trace.h"

/* Lanes that are not guest processes. */
enum {
	PID_AGENT = PERFETTO_SYNTHETIC_PID,
	PID_VICTIMS = PERFETTO_SYNTHETIC_PID + 1,
	PID_WORKLOADS = PERFETTO_SYNTHETIC_PID + 2,
	PID_APPS = PERFETTO_SYNTHETIC_PID + 3,
};

/* Sort ranks at equal ts: metadata, counters, slices (longer first), instants. */
enum { RANK_META, RANK_COUNTER, RANK_SLICE, RANK_INSTANT };

struct event {
	uint64_t t_ns;
	int rank;
	uint64_t dur_ns;
	size_t seq;
	json_t *obj;
};

struct thread {
	int pid, tid;
	char comm[64];
};

/* A _start/_begin sample waiting for its *_end on the same thread. */
struct pending {
	int pid, tid;
	char name[64];
	char cat[16];
	uint64_t t_ns;
	json_t *args;
};

struct builder {
	struct event *ev;
	size_t n, alloc;
	struct thread *threads;
	size_t n_threads, alloc_threads;
	struct pending *pending;
	size_t n_pending, alloc_pending;
	size_t stalls_drawn[STALL_KINDS];       /* completed stalls already made slices */
	uint64_t last_ns;
	struct perfetto_counts *counts;
};

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static void note_time(struct builder *b, uint64_t t_ns)
{
	if (t_ns > b->last_ns)
		b->last_ns = t_ns;
}

static void push(struct builder *b, json_t *obj, uint64_t t_ns, int rank, uint64_t dur_ns)
{
	ALLOC_GROW(b->ev, b->n + 1, b->alloc);
	b->ev[b->n] = (struct event){ t_ns, rank, dur_ns, b->n, obj };
	b->n++;
}

static json_t *base(const char *ph, const char *name, const char *cat, int pid, int tid,
		    uint64_t t_ns)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(name));
	if (cat)
		json_object_set_new(o, "cat", json_string(cat));
	json_object_set_new(o, "ph", json_string(ph));
	json_object_set_new(o, "ts", json_real(us(t_ns)));
	json_object_set_new(o, "pid", json_integer(pid));
	json_object_set_new(o, "tid", json_integer(tid));
	return o;
}

/* A complete slice; ARGS (may be NULL) is stolen. */
static void slice(struct builder *b, const char *name, const char *cat, int pid, int tid,
		  uint64_t begin_ns, uint64_t end_ns, json_t *args)
{
	if (end_ns < begin_ns)
		end_ns = begin_ns;
	json_t *o = base("X", name, cat, pid, tid, begin_ns);
	json_object_set_new(o, "dur", json_real(us(end_ns - begin_ns)));
	json_object_set_new(o, "args", args ? args : json_object());
	push(b, o, begin_ns, RANK_SLICE, end_ns - begin_ns);
	b->counts->slices++;
	note_time(b, end_ns);
}

/* A thread-scoped instant; ARGS (may be NULL) is stolen. */
static void instant(struct builder *b, const char *name, const char *cat, int pid, int tid,
		    uint64_t t_ns, json_t *args)
{
	json_t *o = base("i", name, cat, pid, tid, t_ns);
	json_object_set_new(o, "s", json_string("t"));
	json_object_set_new(o, "args", args ? args : json_object());
	push(b, o, t_ns, RANK_INSTANT, 0);
	b->counts->instants++;
	note_time(b, t_ns);
}

static void counter(struct builder *b, const char *name, uint64_t t_ns, double value)
{
	json_t *o = base("C", name, "memory", PID_AGENT, PID_AGENT, t_ns);
	json_t *args = json_object();
	json_object_set_new(args, "value", json_real(value));
	json_object_set_new(o, "args", args);
	push(b, o, t_ns, RANK_COUNTER, 0);
	b->counts->counters++;
	note_time(b, t_ns);
}

static void metadata(struct builder *b, const char *what, int pid, int tid, const char *name)
{
	json_t *o = base("M", what, NULL, pid, tid, 0);
	json_t *args = json_object();
	json_object_set_new(args, "name", json_string(name));
	json_object_set_new(o, "args", args);
	push(b, o, 0, RANK_META, 0);
	b->counts->metadata++;
}

static void sort_index(struct builder *b, int pid, int index)
{
	json_t *o = base("M", "process_sort_index", NULL, pid, pid, 0);
	json_t *args = json_object();
	json_object_set_new(args, "sort_index", json_integer(index));
	json_object_set_new(o, "args", args);
	push(b, o, 0, RANK_META, 0);
	b->counts->metadata++;
}

/* ---- perf.script ---- */

static struct thread *thread_of(struct builder *b, int tid)
{
	for (size_t i = 0; i < b->n_threads; i++)
		if (b->threads[i].tid == tid)
			return &b->threads[i];
	return NULL;
}

static void remember_thread(struct builder *b, int pid, int tid, const char *comm)
{
	struct thread *t = thread_of(b, tid);
	if (!t) {
		ALLOC_GROW(b->threads, b->n_threads + 1, b->alloc_threads);
		t = &b->threads[b->n_threads++];
		t->tid = tid;
	}
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm && *comm ? comm : "?");
}

static json_t *fields_json(const struct perf_sample *s)
{
	json_t *args = json_object();
	for (size_t i = 0; i < s->n_fields; i++)
		if (s->fields[i].key && *s->fields[i].key)
			json_object_set_new(args, s->fields[i].key,
					    json_string(s->fields[i].value ? s->fields[i].value : ""));
	return args;
}

/* "group:name" -> "name" */
static const char *short_name(const char *event)
{
	const char *colon = strchr(event, ':');
	return colon ? colon + 1 : event;
}

static bool is_stall_event(const char *e)
{
	return !strcmp(e, "vmscan:mm_vmscan_direct_reclaim_begin") ||
	       !strcmp(e, "vmscan:mm_vmscan_direct_reclaim_end") ||
	       !strcmp(e, "vmscan:mm_vmscan_memcg_reclaim_begin") ||
	       !strcmp(e, "vmscan:mm_vmscan_memcg_reclaim_end") ||
	       !strcmp(e, "compaction:mm_compaction_begin") ||
	       !strcmp(e, "compaction:mm_compaction_end");
}

/* For "binder_alloc_page_start" gives the base "binder_alloc_page" and whether
 * it opens (1) or closes (0) a pair; -1 when the name is not one of a pair. */
static int pair_role(const char *name, char *base_name, size_t size)
{
	static const char *const opens[] = { "_start", "_begin" };
	size_t len = strlen(name);
	for (size_t i = 0; i < 2; i++) {
		size_t l = strlen(opens[i]);
		if (len > l && !strcmp(name + len - l, opens[i])) {
			snprintf(base_name, size, "%.*s", (int)(len - l), name);
			return 1;
		}
	}
	if (len > 4 && !strcmp(name + len - 4, "_end")) {
		snprintf(base_name, size, "%.*s", (int)(len - 4), name);
		return 0;
	}
	return -1;
}

static void pending_open(struct builder *b, const struct perf_sample *s, const char *name,
			 const char *cat)
{
	/* The kernel does not nest these on one thread: an open one lost its end. */
	for (size_t i = 0; i < b->n_pending; i++)
		if (b->pending[i].tid == s->tid && !strcmp(b->pending[i].name, name)) {
			struct pending *p = &b->pending[i];
			json_object_set_new(p->args, "lost_end", json_true());
			instant(b, p->name, p->cat, p->pid, p->tid, p->t_ns, p->args);
			b->pending[i] = b->pending[--b->n_pending];
			break;
		}
	ALLOC_GROW(b->pending, b->n_pending + 1, b->alloc_pending);
	struct pending *p = &b->pending[b->n_pending++];
	p->pid = s->pid;
	p->tid = s->tid;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->cat, sizeof(p->cat), "%s", cat);
	p->t_ns = s->t_ns;
	p->args = fields_json(s);
}

static bool pending_close(struct builder *b, const struct perf_sample *s, const char *name)
{
	for (size_t i = 0; i < b->n_pending; i++) {
		struct pending *p = &b->pending[i];
		if (p->tid != s->tid || strcmp(p->name, name))
			continue;
		json_t *end = fields_json(s);
		const char *k;
		json_t *v;
		json_object_foreach(end, k, v) {
			char *key = xasprintf("end_%s", k);
			json_object_set(p->args, key, v);
			free(key);
		}
		json_decref(end);
		slice(b, p->name, p->cat, p->pid, p->tid, p->t_ns, s->t_ns, p->args);
		b->pending[i] = b->pending[--b->n_pending];
		return true;
	}
	return false;
}

static const char *category(const char *event)
{
	if (starts_with(event, "oom:"))
		return "oom";
	if (starts_with(event, "binder:"))
		return "binder";
	if (starts_with(event, "vmscan:") || starts_with(event, "compaction:"))
		return "reclaim";
	if (starts_with(event, "kmem:"))
		return "kmem";
	if (starts_with(event, "sched:"))
		return "sched";
	return "trace";
}

static void perf_sample_cb(const struct perf_sample *s, const struct trace *t, void *ctx)
{
	struct builder *b = ctx;
	remember_thread(b, s->pid, s->tid, s->comm);
	note_time(b, s->t_ns);

	if (is_stall_event(s->event) && !starts_with(s->comm, "kcompactd")) {
		/* The trace paired it already: a stall that just ended is drawn here. */
		for (int k = 0; k < STALL_KINDS; k++) {
			const struct stall_series *ser = &t->stalls.kind[k];
			if (ser->n <= b->stalls_drawn[k])
				continue;
			b->stalls_drawn[k] = ser->n;
			uint64_t d = ser->durations_ns[ser->n - 1];
			json_t *args = fields_json(s);
			json_object_set_new(args, "duration_ns", json_integer((json_int_t)d));
			slice(b, stall_kind_name(k), "stall", s->pid, s->tid,
			      s->t_ns >= d ? s->t_ns - d : 0, s->t_ns, args);
			b->counts->stalls++;
		}
		return;
	}

	const char *cat = category(s->event);
	const char *name = short_name(s->event);
	char pair[64];
	int role = -1;
	if (starts_with(s->event, "binder:") || starts_with(s->event, "compaction:"))
		role = pair_role(name, pair, sizeof(pair));
	if (role == 1) {
		pending_open(b, s, pair, cat);
		return;
	}
	if (role == 0 && pending_close(b, s, pair))
		return;
	instant(b, name, cat, s->pid, s->tid, s->t_ns, fields_json(s));
}

static void read_perf(struct builder *b, const char *dir, struct trace *t)
{
	trace_read(dir, t, perf_sample_cb, b);
	b->counts->have_perf = t->have_trace;
	b->counts->lost_events = t->perf.lost_events;

	/* Begins still open when the trace ended run to its end. */
	for (int k = 0; k < STALL_KINDS; k++) {
		const struct stall_series *ser = &t->stalls.kind[k];
		for (size_t i = 0; i < ser->n_open; i++) {
			const struct thread *t = thread_of(b, ser->open[i].tid);
			json_t *args = json_object();
			json_object_set_new(args, "open_at_end", json_true());
			slice(b, stall_kind_name(k), "stall", t ? t->pid : ser->open[i].tid,
			      ser->open[i].tid, ser->open[i].begin_ns, b->last_ns, args);
			b->counts->stalls++;
		}
	}
	for (size_t i = 0; i < b->n_pending; i++) {
		struct pending *p = &b->pending[i];
		json_object_set_new(p->args, "open_at_end", json_true());
		slice(b, p->name, p->cat, p->pid, p->tid, p->t_ns, b->last_ns, p->args);
	}
	b->n_pending = 0;
}

/* ---- the victims (trace and kernel log) ---- */

static void victim_step(struct builder *b, const struct oom_victim *v, const char *name,
			int64_t t, json_t *args)
{
	if (t == OOM_NO_TIME || t < 0) {
		json_decref(args);
		return;
	}
	instant(b, name, "oom", PID_VICTIMS, v->pid, (uint64_t)t, args);
}

static void draw_victims(struct builder *b, const struct trace *t)
{
	b->counts->have_kmsg = t->have_kmsg;
	json_t *all = oom_victims_json(&t->oom);
	for (size_t i = 0; i < t->oom.n; i++) {
		const struct oom_victim *v = &t->oom.v[i];
		json_t *args = json_deep_copy(json_array_get(all, i));
		char *lane = xasprintf("victim %d (%s)", v->pid, v->comm[0] ? v->comm : "?");
		metadata(b, "thread_name", PID_VICTIMS, v->pid, lane);
		free(lane);
		b->counts->victims++;
		int64_t end = OOM_NO_TIME;
		const int64_t ends[] = { v->finish_reaping_ns, v->skip_reaping_ns, v->exit_ns };
		for (size_t k = 0; k < 3; k++)
			if (ends[k] != OOM_NO_TIME && ends[k] > end)
				end = ends[k];
		if (v->mark_victim_ns != OOM_NO_TIME && v->mark_victim_ns >= 0) {
			uint64_t from = (uint64_t)v->mark_victim_ns;
			uint64_t to = end != OOM_NO_TIME && end > v->mark_victim_ns ? (uint64_t)end : from;
			slice(b, "victim: mark_victim to reaped/exit", "oom", PID_VICTIMS, v->pid, from, to,
			      json_incref(args));
		}
		victim_step(b, v, "kill reported (kmsg, printk clock)", v->killed_ns, json_object());
		victim_step(b, v, "mark_victim", v->mark_victim_ns, json_incref(args));
		victim_step(b, v, "wake_reaper", v->wake_reaper_ns, json_object());
		victim_step(b, v, "start_task_reaping", v->start_reaping_ns, json_object());
		victim_step(b, v, "finish_task_reaping", v->finish_reaping_ns, json_object());
		victim_step(b, v, "skip_task_reaping", v->skip_reaping_ns, json_object());
		victim_step(b, v, "exit", v->exit_ns, json_object());
		json_decref(args);
	}
	json_decref(all);
}

/* ---- ctl.jsonl ---- */

static bool get_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t *x = json_object_get(o, key);
	if (json_is_integer(x) && json_integer_value(x) >= 0) {
		*v = (uint64_t)json_integer_value(x);
		return true;
	}
	if (json_is_real(x) && json_real_value(x) >= 0) {
		*v = (uint64_t)json_real_value(x);
		return true;
	}
	return false;
}

struct ctl_state {
	struct builder *b;
	struct psi_rate psi;
};

static void ctl_line(json_t *o, void *ctx)
{
	struct ctl_state *cs = ctx;
	struct builder *b = cs->b;
	const char *type = json_string_value(json_object_get(o, "type"));
	uint64_t t;
	if (!type || !get_u64(o, "t_mono_ns", &t))
		return;
	if (strcmp(type, CTL_HEARTBEAT)) {
		json_t *args = json_deep_copy(o);
		json_object_del(args, "type");
		json_object_del(args, "t_mono_ns");
		instant(b, type, "agent", PID_AGENT, PID_AGENT, t, args);
		return;
	}
	bool any = false;
	for (const char *const *k = heartbeat_fields; *k; k++) {
		uint64_t v;
		if (get_u64(o, *k, &v)) {
			counter(b, *k, t, (double)v);
			any = true;
		}
	}
	if (!any)
		return;         /* the prepare step's heartbeats carry no sample */
	uint64_t some = 0, full = 0;
	bool has_some = get_u64(o, HB_PSI_SOME_TOTAL_US, &some);
	bool has_full = get_u64(o, HB_PSI_FULL_TOTAL_US, &full);
	double some_pct, full_pct;
	psi_rate_step(&cs->psi, t, has_some, some, has_full, full, &some_pct, &full_pct);
	if (some_pct >= 0)
		counter(b, "psi_some_percent", t, some_pct);
	if (full_pct >= 0)
		counter(b, "psi_full_percent", t, full_pct);
}

/* ---- out.log ---- */

struct phase {
	char *workload, *name;
	uint64_t begin_ns, end_ns;
	bool finished;
	json_t *args;
	int lane;
};

struct out_state {
	struct builder *b;
	struct strlist workloads;       /* index + 1 is the lane's base tid */
	struct phase *phases;
	size_t n, alloc;
	/* events other than phases, emitted once the lanes are known */
	json_t *others;
};

static size_t workload_index(struct out_state *os, const char *w)
{
	for (size_t i = 0; i < os->workloads.n; i++)
		if (!strcmp(os->workloads.items[i], w))
			return i;
	strlist_push(&os->workloads, w);
	return os->workloads.n - 1;
}

static void out_line(json_t *o, void *ctx)
{
	struct out_state *os = ctx;
	const char *type = json_string_value(json_object_get(o, "type"));
	const char *name = json_string_value(json_object_get(o, "name"));
	uint64_t t;
	if (!type || strcmp(type, "event") || !name || !get_u64(o, "t_mono_ns", &t))
		return;
	const char *w = json_string_value(json_object_get(o, "workload"));
	if (!w)
		w = "out.log";
	workload_index(os, w);
	note_time(os->b, t);
	const char *phase = json_string_value(json_object_get(o, "phase"));
	if (!strcmp(name, "phase-begin") && phase) {
		ALLOC_GROW(os->phases, os->n + 1, os->alloc);
		struct phase *p = &os->phases[os->n++];
		memset(p, 0, sizeof(*p));
		p->workload = xstrdup(w);
		p->name = xstrdup(phase);
		p->begin_ns = t;
		p->args = json_object();
		return;
	}
	if (!strcmp(name, "phase-end") && phase) {
		/* the latest open phase of that name in that workload */
		for (size_t i = os->n; i-- > 0;) {
			struct phase *p = &os->phases[i];
			if (!p->finished && !strcmp(p->workload, w) && !strcmp(p->name, phase)) {
				p->finished = true;
				p->end_ns = t;
				return;
			}
		}
	}
	json_t *copy = json_deep_copy(o);
	json_object_set_new(copy, "_w", json_string(w));
	json_array_append_new(os->others, copy);
}

static int by_begin(const void *pa, const void *pb)
{
	const struct phase *a = pa, *b = pb;
	if (a->begin_ns != b->begin_ns)
		return a->begin_ns < b->begin_ns ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns > b->end_ns ? -1 : 1;   /* the outer one first */
	return 0;
}

/*
 * Slices on one thread must nest.  Phases of one workload (several
 * processes may print them) are dealt to lanes: a phase goes to the first
 * lane where, once the phases that ended before it are off the lane's
 * stack, the top of the stack contains it.
 */
static void deal_lanes(struct out_state *os, size_t w, int *n_lanes)
{
	struct lane {
		uint64_t *ends;
		size_t n, alloc;
	} *lanes = NULL;
	size_t nl = 0, alloc_lanes = 0;
	for (size_t i = 0; i < os->n; i++) {
		struct phase *p = &os->phases[i];
		if (strcmp(p->workload, os->workloads.items[w]))
			continue;
		size_t l = 0;
		for (; l < nl; l++) {
			struct lane *ln = &lanes[l];
			while (ln->n && ln->ends[ln->n - 1] <= p->begin_ns)
				ln->n--;
			if (!ln->n || ln->ends[ln->n - 1] >= p->end_ns)
				break;
		}
		if (l == nl) {
			ALLOC_GROW(lanes, nl + 1, alloc_lanes);
			memset(&lanes[nl++], 0, sizeof(*lanes));
		}
		struct lane *ln = &lanes[l];
		ALLOC_GROW(ln->ends, ln->n + 1, ln->alloc);
		ln->ends[ln->n++] = p->end_ns;
		p->lane = (int)l;
	}
	for (size_t l = 0; l < nl; l++)
		free(lanes[l].ends);
	free(lanes);
	*n_lanes = nl ? (int)nl : 1;
}

/* Lane tids: workload w's lane l is (w + 1) * 100 + l. */
static int lane_tid(size_t w, int l)
{
	return (int)(w + 1) * 100 + l;
}

/* out.log's TEXT (NULL: no out.log), read once for this and draw_apps. */
static void read_out(struct builder *b, const char *text, size_t len)
{
	struct out_state os = { .b = b, .workloads = STRLIST_INIT, .others = json_array() };
	if (text) {
		jsonl_parse(text, len, out_line, &os);
		b->counts->have_out = true;
	}

	for (size_t i = 0; i < os.n; i++)
		if (!os.phases[i].finished) {
			os.phases[i].end_ns = b->last_ns > os.phases[i].begin_ns ? b->last_ns
										 : os.phases[i].begin_ns;
			json_object_set_new(os.phases[i].args, "unfinished", json_true());
		}
	qsort(os.phases, os.n, sizeof(*os.phases), by_begin);
	for (size_t w = 0; w < os.workloads.n; w++) {
		int n_lanes;
		deal_lanes(&os, w, &n_lanes);
		for (int l = 0; l < n_lanes; l++) {
			char *name = l ? xasprintf("%s (%d)", os.workloads.items[w], l + 1)
				       : xstrdup(os.workloads.items[w]);
			metadata(b, "thread_name", PID_WORKLOADS, lane_tid(w, l), name);
			free(name);
		}
	}
	for (size_t i = 0; i < os.n; i++) {
		struct phase *p = &os.phases[i];
		size_t w = workload_index(&os, p->workload);
		json_object_set_new(p->args, "workload", json_string(p->workload));
		slice(b, p->name, "phase", PID_WORKLOADS, lane_tid(w, p->lane), p->begin_ns, p->end_ns,
		      p->args);
		b->counts->phases++;
		free(p->workload);
		free(p->name);
	}
	size_t i;
	json_t *o;
	json_array_foreach(os.others, i, o) {
		uint64_t t = 0;
		get_u64(o, "t_mono_ns", &t);
		size_t w = workload_index(&os, json_string_value(json_object_get(o, "_w")));
		char *name = xstrdup(json_string_value(json_object_get(o, "name")));
		json_t *args = json_deep_copy(o);
		json_object_del(args, "_w");
		json_object_del(args, "type");
		json_object_del(args, "name");
		json_object_del(args, "t_mono_ns");
		instant(b, name, "workload", PID_WORKLOADS, lane_tid(w, 0), t, args);
		free(name);
	}
	json_decref(os.others);
	free(os.phases);
	strlist_clear(&os.workloads);
}

/* ---- the apps workload: a lane per app ---- */

/* The end of app A's span holding T (T itself when none does). */
static uint64_t span_end(const struct app_timeline *tl, int a, uint64_t t)
{
	for (size_t i = 0; i < tl->n_spans; i++)
		if (tl->spans[i].app == a && tl->spans[i].begin_ns <= t && t < tl->spans[i].end_ns)
			return tl->spans[i].end_ns;
	return t;
}

static void draw_apps(struct builder *b, const char *text, size_t len)
{
	struct app_timeline tl;
	if (!text || app_timeline_parse(text, len, &tl) < 0)
		return;
	for (unsigned a = 0; a < tl.napps; a++) {
		char name[32];
		snprintf(name, sizeof(name), APP_COMM_FORMAT, a);
		metadata(b, "thread_name", PID_APPS, (int)a + 1, name);
		b->counts->app_lanes++;
	}
	for (size_t i = 0; i < tl.n_spans; i++) {
		const struct app_span *sp = &tl.spans[i];
		json_t *args = json_object();
		json_object_set_new(args, "tier", json_string(app_tier_name(sp->tier)));
		json_object_set_new(args, "running", json_boolean(sp->alive));
		slice(b, sp->alive ? app_tier_name(sp->tier) : "dead", APP_EVENT_STATE, PID_APPS, sp->app + 1,
		      sp->begin_ns, sp->end_ns, args);
	}
	/* a launch inside its state's slice: cut where that ends (a death mid-launch) */
	for (size_t i = 0; i < tl.n_launches; i++) {
		const struct app_launch_mark *l = &tl.launches[i];
		uint64_t end = l->t_ns + (l->ms > 0 ? (uint64_t)(l->ms * 1e6) : 0);
		uint64_t cap = span_end(&tl, l->app, l->t_ns);
		json_t *args = json_object();
		json_object_set_new(args, "ms", json_real(l->ms));
		json_object_set_new(args, "ok", json_boolean(l->ok));
		slice(b, l->cold ? "cold start" : "warm start", APP_EVENT_LAUNCH, PID_APPS, l->app + 1, l->t_ns,
		      end < cap ? end : cap, args);
	}
	for (size_t i = 0; i < tl.n_deaths; i++) {
		const struct app_death_mark *d = &tl.deaths[i];
		json_t *args = json_object();
		json_object_set_new(args, "tier", json_string(app_tier_name(d->tier)));
		json_object_set_new(args, "signal", json_integer(d->signal));
		instant(b, d->signal ? "killed" : "exited", APP_EVENT_DEATH, PID_APPS, d->app + 1, d->t_ns,
			args);
	}
	app_timeline_release(&tl);
}

/* ---- assembly ---- */

static int by_time(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;
	if (a->t_ns != b->t_ns)
		return a->t_ns < b->t_ns ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->dur_ns != b->dur_ns)
		return a->dur_ns > b->dur_ns ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void name_threads(struct builder *b)
{
	/* A process is named after its main thread (tid == pid) when the trace
	 * saw it, else after the first of its threads it saw. */
	struct strlist named = STRLIST_INIT;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < b->n_threads; i++) {
			const struct thread *t = &b->threads[i];
			if (pass == 0 && t->tid != t->pid)
				continue;
			char key[24];
			snprintf(key, sizeof(key), "%d", t->pid);
			if (strlist_has(&named, key))
				continue;
			strlist_push(&named, key);
			char *name = t->pid == 0 ? xstrdup("swapper (idle)")
						 : xasprintf("%s %d", t->comm, t->pid);
			metadata(b, "process_name", t->pid, t->pid, name);
			free(name);
		}
	strlist_clear(&named);
	for (size_t i = 0; i < b->n_threads; i++)
		metadata(b, "thread_name", b->threads[i].pid, b->threads[i].tid, b->threads[i].comm);
}

json_t *perfetto_trace(const char *dir, json_t *other_data, struct perfetto_counts *counts)
{
	struct perfetto_counts local;
	if (!counts)
		counts = &local;
	memset(counts, 0, sizeof(*counts));
	struct builder b;
	memset(&b, 0, sizeof(b));
	b.counts = counts;

	struct trace trace;
	read_perf(&b, dir, &trace);
	draw_victims(&b, &trace);
	trace_release(&trace);
	struct ctl_state cs = { .b = &b };
	char *path = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_CTL]);
	counts->have_ctl = jsonl_read_file(path, ctl_line, &cs) >= 0;
	free(path);
	size_t out_len = 0;
	path = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_OUT]);
	char *out = read_file(path, &out_len);
	free(path);
	read_out(&b, out, out_len);
	draw_apps(&b, out, out_len);
	free(out);

	name_threads(&b);
	metadata(&b, "process_name", PID_AGENT, PID_AGENT, "guest agent: memory and PSI (ctl.jsonl)");
	metadata(&b, "thread_name", PID_AGENT, PID_AGENT, "agent");
	metadata(&b, "process_name", PID_VICTIMS, PID_VICTIMS, "OOM victims (trace + kernel log)");
	metadata(&b, "process_name", PID_WORKLOADS, PID_WORKLOADS, "workloads: phases and events (out.log)");
	sort_index(&b, PID_AGENT, -3);
	sort_index(&b, PID_VICTIMS, -2);
	sort_index(&b, PID_WORKLOADS, -1);
	if (counts->app_lanes) {
		metadata(&b, "process_name", PID_APPS, PID_APPS,
			 "apps: state, launches and deaths per app (out.log)");
		sort_index(&b, PID_APPS, 0);
	}

	qsort(b.ev, b.n, sizeof(*b.ev), by_time);
	json_t *events = json_array();
	for (size_t i = 0; i < b.n; i++)
		json_array_append_new(events, b.ev[i].obj);
	counts->events = b.n;

	json_t *root = json_object();
	json_object_set_new(root, "traceEvents", events);
	json_object_set_new(root, "displayTimeUnit", json_string("ms"));
	json_t *other = other_data ? json_deep_copy(other_data) : json_object();
	json_object_set_new(other, "clock", json_string("guest CLOCK_MONOTONIC (perf -k mono)"));
	json_t *sources = json_object();
	json_object_set_new(sources, "perf.script", json_boolean(counts->have_perf));
	json_object_set_new(sources, "kmsg.log", json_boolean(counts->have_kmsg));
	json_object_set_new(sources, "ctl.jsonl", json_boolean(counts->have_ctl));
	json_object_set_new(sources, "out.log", json_boolean(counts->have_out));
	json_object_set_new(other, "sources", sources);
	json_object_set_new(other, "perf_lost_events", json_integer((json_int_t)counts->lost_events));
	json_object_set_new(root, "otherData", other);

	free(b.ev);
	free(b.threads);
	free(b.pending);
	return root;
}

int perfetto_trace_write(const json_t *trace, const char *path)
{
	struct strbuf err = STRBUF_INIT;   /* the caller names the file with errno */
	int rc = json_file_write_as(path, trace, JSON_COMPACT | JSON_REAL_PRECISION(15), JSON_FILE_NEWLINE,
				    &err);
	strbuf_release(&err);
	return rc;
}
