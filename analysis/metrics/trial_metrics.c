/* trial_metrics.c - a trial folder's metrics (trial_metrics.h).
 *
 * Every metric made here has its row in metric_catalog.c: unit, kind,
 * direction, meaning and source (`lab metrics` prints them). Names are flat
 * (docs/FORMATS.md: lab figures without a dot). A figure whose input is
 * missing is left out; "after"-only figures need files/after, deltas need
 * both snapshots.
 */
#include "trial_metrics.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "analysis/trace/app_launches.h"
#include "analysis/trace/window.h"
#include "common/proto/killer-kinds.h"
#include "common/proto/protocol.h"
#include "analysis/parse/binder_stats.h"
#include "analysis/parse/kernel_complaints.h"
#include "analysis/parse/slabinfo.h"
#include "analysis/parse/snapshot.h"
#include "analysis/trace/trace.h"
#include "killer_metrics.h"
#include "lab_metric_add.h"
#include "metric_set.h"
#include "workload_lines.h"
#include "workload_metrics.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static char *read_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = read_file(path, NULL);
	free(path);
	return text;
}

/* ---- trace ---- */

static void stall_metrics(struct metric_set *m, const struct stall_tracker *t)
{
	uint64_t total_ns = 0;
	for (int k = 0; k < STALL_KINDS; k++) {
		const struct stall_series *s = &t->kind[k];
		const char *name = stall_kind_name(k);
		struct stall_summary sum;
		stall_summarize(s->durations_ns, s->n, &sum);
		total_ns += sum.total_ns;
		lab_metric_add_part(m, LAB_STALL_COUNT, (double)sum.count, "trace", name);
		/* "*_stall_*_us": the kind, then total, p50, p99 or max */
		lab_metric_addf(m, LAB_STALL_TIME_US, (double)sum.total_ns / 1e3, "trace",
				"%s_stall_total_us", name);
		lab_metric_addf(m, LAB_STALL_TIME_US, sum.p50_ns / 1e3, "trace", "%s_stall_p50_us", name);
		lab_metric_addf(m, LAB_STALL_TIME_US, sum.p99_ns / 1e3, "trace", "%s_stall_p99_us", name);
		lab_metric_addf(m, LAB_STALL_TIME_US, (double)sum.max_ns / 1e3, "trace", "%s_stall_max_us",
				name);
		lab_metric_add_part(m, LAB_STALL_OPEN, (double)s->open_at_end, "trace", name);
		lab_metric_add_part(m, LAB_STALL_OPEN_US, (double)s->open_ns / 1e3, "trace", name);
		lab_metric_add_part(m, LAB_STALL_UNMATCHED_END, (double)s->unmatched_end, "trace", name);
		lab_metric_add_part(m, LAB_STALL_NESTED, (double)s->nested, "trace", name);
	}
	lab_metric_add(m, LAB_DIRECT_COMPACTION_ATTEMPTS, t->compaction_attempts, "trace");
	lab_metric_add(m, LAB_KCOMPACTD_PASSES, t->kcompactd_passes, "trace");
	lab_metric_add(m, LAB_ALLOC_STALL_TIME_TOTAL_MS, (double)total_ns / 1e6, "trace");

	const struct stall_series *d = &t->kind[STALL_DIRECT_RECLAIM], *c = &t->kind[STALL_MEMCG_RECLAIM];
	size_t n = d->n + c->n;
	uint64_t *all = xmalloc((n ? n : 1) * sizeof(*all));
	if (d->n)
		memcpy(all, d->durations_ns, d->n * sizeof(*all));
	if (c->n)
		memcpy(all + d->n, c->durations_ns, c->n * sizeof(*all));
	struct stall_summary sum;
	stall_summarize(all, n, &sum);
	lab_metric_add(m, LAB_RECLAIM_STALL_P99_US, sum.p99_ns / 1e3, "trace");
	free(all);
}

static void page_alloc_metrics(struct metric_set *m, const struct page_alloc_tally *a)
{
	lab_metric_add(m, LAB_PAGE_ALLOC_HIGH_ORDER, a->high_order, "trace");
	lab_metric_add(m, LAB_PAGE_ALLOC_HIGH_ORDER_FAILED, a->high_order_failed, "trace");
	lab_metric_add(m, LAB_PAGE_ALLOC_HIGH_ORDER_PAGES, a->high_order_pages, "trace");
	for (int o = 1; o <= PAGE_ALLOC_MAX_ORDER; o++)
		lab_metric_addf(m, LAB_PAGE_ALLOC_ORDER, (double)a->by_order[o], "trace",
				"page_alloc_order%d", o);
	/* the family's sum: its glob's '*' stands for nothing */
	lab_metric_add_part(m, LAB_EXTFRAG_FALLBACKS, a->extfrag, "trace", "");
	lab_metric_add(m, LAB_EXTFRAG_FRAGMENTING, a->extfrag_fragmenting, "trace");
	lab_metric_add(m, LAB_EXTFRAG_CHANGE_OWNERSHIP, a->extfrag_change_ownership, "trace");
}

/* Delays between two victim times, in ms, over the victims that have both. */
struct delays {
	double *ms;
	size_t n;
};

static void delay_add(struct delays *d, int64_t from, int64_t to)
{
	if (from != OOM_NO_TIME && to != OOM_NO_TIME)
		d->ms[d->n++] = (double)(to - from) / 1e6;
}

/* The median, NAN (no figure) when there is none. */
static double delays_median(struct delays *d)
{
	if (!d->n)
		return NAN;
	gsl_sort(d->ms, 1, d->n);
	return gsl_stats_median_from_sorted_data(d->ms, 1, d->n);
}

static void victim_metrics(struct metric_set *m, const struct oom_timeline *t, bool have_trace)
{
	lab_metric_add(m, LAB_OOM_VICTIMS, t->n, have_trace ? "trace+kmsg" : "kmsg");
	if (!have_trace)
		return;
	size_t wakes = 0, reaped = 0, skipped = 0, before_exit = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct oom_victim *v = &t->v[i];
		wakes += v->wake_reaper_ns != OOM_NO_TIME;
		reaped += v->finish_reaping_ns != OOM_NO_TIME;
		skipped += v->skip_reaping_ns != OOM_NO_TIME;
		before_exit += v->reaped_before_exit;
	}
	lab_metric_add(m, LAB_REAPER_WAKES, wakes, "trace");
	lab_metric_add(m, LAB_REAPER_REAPED, reaped, "trace");
	lab_metric_add(m, LAB_REAPER_SKIPPED, skipped, "trace");
	lab_metric_add(m, LAB_REAPED_BEFORE_EXIT, before_exit, "trace");
	struct delays wake = { 0 }, finish = { 0 }, reap = { 0 }, exit = { 0 };
	size_t cap = t->n ? t->n : 1;
	wake.ms = xcalloc(cap, sizeof(double));
	finish.ms = xcalloc(cap, sizeof(double));
	reap.ms = xcalloc(cap, sizeof(double));
	exit.ms = xcalloc(cap, sizeof(double));
	for (size_t i = 0; i < t->n; i++) {
		const struct oom_victim *v = &t->v[i];
		delay_add(&wake, v->mark_victim_ns, v->wake_reaper_ns);
		delay_add(&finish, v->mark_victim_ns, v->finish_reaping_ns);
		delay_add(&reap, v->start_reaping_ns, v->finish_reaping_ns);
		delay_add(&exit, v->mark_victim_ns, v->exit_ns);
	}
	lab_metric_add(m, LAB_REAPER_WAKE_DELAY_MS, delays_median(&wake), "trace");
	lab_metric_add(m, LAB_REAPER_FINISH_DELAY_MS, delays_median(&finish), "trace");
	lab_metric_add(m, LAB_REAPER_REAP_MS, delays_median(&reap), "trace");
	lab_metric_add(m, LAB_OOM_VICTIM_EXIT_MS, delays_median(&exit), "trace");
	free(wake.ms);
	free(finish.ms);
	free(reap.ms);
	free(exit.ms);
}

/* ---- snapshots ---- */

struct snap {
	char *before, *after;
};

static void snap_read(const char *dir, const char *name, struct snap *s)
{
	char *b = xasprintf("files/" SNAPSHOT_BEFORE "/%s", name);
	char *a = xasprintf("files/" SNAPSHOT_AFTER "/%s", name);
	s->before = read_in(dir, b);
	s->after = read_in(dir, a);
	free(b);
	free(a);
}

static void snap_free(struct snap *s)
{
	free(s->before);
	free(s->after);
}

/* The /proc/vmstat fields whose deltas are figures, vmstat_FIELD, each of its row. */
static const struct {
	const char *field;
	enum lab_metric row;
} vmstat_fields[] = {
	{ "compact_stall", LAB_VMSTAT_COMPACT_STALL }, { "compact_fail", LAB_VMSTAT_COMPACT_FAIL },
	{ "compact_success", LAB_VMSTAT_COMPACT_SUCCESS }, { "pgscan_direct", LAB_VMSTAT_PGSCAN_DIRECT },
	{ "pgsteal_direct", LAB_VMSTAT_PGSTEAL_DIRECT }, { "pgmajfault", LAB_VMSTAT_PGMAJFAULT },
	{ "workingset_refault_anon", LAB_VMSTAT_WORKINGSET_REFAULT },
	{ "workingset_refault_file", LAB_VMSTAT_WORKINGSET_REFAULT },
	{ "pswpin", LAB_VMSTAT_PSW }, { "pswpout", LAB_VMSTAT_PSW }, { "oom_kill", LAB_VMSTAT_OOM_KILL },
};

/* Adds the vmstat deltas; *oom_kill gets the oom_kill delta (-1 when unknown). */
static void vmstat_metrics(struct metric_set *m, const struct snap *s, long long *oom_kill)
{
	*oom_kill = -1;
	if (!s->before || !s->after)
		return;
	struct kv_list b = { 0 }, a = { 0 };
	kv_parse(s->before, &b);
	kv_parse(s->after, &a);
	long long vb, va, allocstall = 0;
	bool any_allocstall = false;
	for (size_t i = 0; i < a.n; i++) {
		if (starts_with(a.items[i].key, "allocstall_") && kv_get(&b, a.items[i].key, &vb)) {
			long long d = a.items[i].value - vb;
			lab_metric_addf(m, LAB_VMSTAT_ALLOCSTALL, (double)d, "vmstat", "vmstat_%s",
					a.items[i].key);
			allocstall += d;
			any_allocstall = true;
		}
	}
	if (any_allocstall)
		lab_metric_add_part(m, LAB_VMSTAT_ALLOCSTALL, allocstall, "vmstat", "");	/* the sum */
	for (size_t i = 0; i < sizeof(vmstat_fields) / sizeof(vmstat_fields[0]); i++) {
		if (!kv_get(&b, vmstat_fields[i].field, &vb) || !kv_get(&a, vmstat_fields[i].field, &va))
			continue;
		lab_metric_addf(m, vmstat_fields[i].row, (double)(va - vb), "vmstat", "vmstat_%s",
				vmstat_fields[i].field);
		if (!strcmp(vmstat_fields[i].field, "oom_kill"))
			*oom_kill = va - vb;
	}
	kv_clear(&b);
	kv_clear(&a);
}

static void memory_events_metrics(struct metric_set *m, const struct snap *s, long long *oom_kill)
{
	static const struct {
		const char *key;
		enum lab_metric row;
	} keys[] = {
		{ "low", LAB_MEMORY_EVENTS_LOW }, { "high", LAB_MEMORY_EVENTS_HIGH },
		{ "max", LAB_MEMORY_EVENTS_MAX }, { "oom", LAB_MEMORY_EVENTS_OOM },
		{ "oom_kill", LAB_MEMORY_EVENTS_OOM }, { "oom_group_kill", LAB_MEMORY_EVENTS_OOM },
	};
	*oom_kill = -1;
	if (!s->before || !s->after)
		return;
	struct kv_list b = { 0 }, a = { 0 };
	kv_parse(s->before, &b);
	kv_parse(s->after, &a);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		long long vb, va;
		if (!kv_get(&b, keys[i].key, &vb) || !kv_get(&a, keys[i].key, &va))
			continue;
		lab_metric_addf(m, keys[i].row, (double)(va - vb), "memory.events", "memory_events_%s",
				keys[i].key);
		if (!strcmp(keys[i].key, "oom_kill"))
			*oom_kill = va - vb;
	}
	kv_clear(&b);
	kv_clear(&a);
}

/* ROW's figures PREFIX_some_us and PREFIX_full_us */
static void psi_metrics(struct metric_set *m, const struct snap *s, enum lab_metric row,
			const char *prefix, const char *source)
{
	struct psi b, a;
	if (!s->before || !s->after || !psi_parse(s->before, &b) || !psi_parse(s->after, &a))
		return;
	if (b.have_some && a.have_some)
		lab_metric_addf(m, row, (double)(a.some_total_us - b.some_total_us), source,
				"%s_some_us", prefix);
	if (b.have_full && a.have_full)
		lab_metric_addf(m, row, (double)(a.full_total_us - b.full_total_us), source,
				"%s_full_us", prefix);
}

static void slab_metrics(struct metric_set *m, const struct snap *s, unsigned long long page_bytes)
{
	struct slabinfo a = { 0 }, b = { 0 };
	if (!s->after || slabinfo_parse(s->after, &a) < 0) {
		slabinfo_clear(&a);
		return;
	}
	bool have_before = s->before && slabinfo_parse(s->before, &b) >= 0;
	unsigned long long binder = 0, kmalloc = 0, total = 0;
	for (size_t i = 0; i < a.n; i++) {
		const struct slab_cache *c = &a.caches[i];
		total += slab_cache_bytes(c, page_bytes);
		bool is_binder = starts_with(c->name, "binder_");
		if (!is_binder && !starts_with(c->name, "kmalloc-"))
			continue;
		unsigned long long bytes = slab_cache_bytes(c, page_bytes);
		*(is_binder ? &binder : &kmalloc) += bytes;
		/*
		 * The plain kmalloc-N caches (where stock binder's objects live) get their
		 * memory and objects; the cg-, rcl- and dma- kinds only count in the sum,
		 * and the geometry of a cache (object size, slab order, efficiency) is
		 * reported for binder's own caches, the ones the variants change.
		 */
		bool plain_kmalloc = !is_binder && isdigit((unsigned char)c->name[strlen("kmalloc-")]);
		if (!is_binder && !plain_kmalloc)
			continue;
		lab_metric_add_part(m, LAB_SLAB_ACTIVE_OBJS, (double)c->active_objs, "slabinfo", c->name);
		lab_metric_add_part(m, LAB_SLAB_BYTES, (double)bytes, "slabinfo", c->name);
		const struct slab_cache *before = have_before ? slabinfo_cache(&b, c->name) : NULL;
		if (have_before)
			lab_metric_add_part(m, LAB_SLAB_BYTES_DELTA,
					    (double)bytes - (before ? (double)slab_cache_bytes(before, page_bytes) : 0.0),
					    "slabinfo", c->name);
		if (!is_binder)
			continue;
		lab_metric_add_part(m, LAB_SLAB_OBJSIZE, (double)c->objsize, "slabinfo", c->name);
		lab_metric_add_part(m, LAB_SLAB_OBJS_PER_SLAB, (double)c->objs_per_slab, "slabinfo", c->name);
		lab_metric_add_part(m, LAB_SLAB_PAGES_PER_SLAB, (double)c->pages_per_slab, "slabinfo", c->name);
		lab_metric_add_part(m, LAB_SLAB_EFFICIENCY, slab_cache_efficiency(c, page_bytes), "slabinfo",
				    c->name);
	}
	lab_metric_add(m, LAB_SLAB_BINDER_BYTES, binder, "slabinfo");
	lab_metric_add(m, LAB_SLAB_KMALLOC_BYTES, kmalloc, "slabinfo");
	/* What a dedicated cache saves in kmalloc-N it may spend in its own partly
	 * filled slabs, or in the cache it was merged into: the sum over every cache
	 * is the one figure that says whether slab memory went down. */
	lab_metric_add(m, LAB_SLAB_TOTAL_BYTES, total, "slabinfo");
	slabinfo_clear(&a);
	slabinfo_clear(&b);
}

static void binder_metrics(struct metric_set *m, const struct snap *s)
{
	struct binder_stats a = { 0 }, b = { 0 };
	if (!s->after || binder_stats_parse(s->after, &a) < 0) {
		binder_stats_clear(&a);
		return;
	}
	bool have_before = s->before && binder_stats_parse(s->before, &b) >= 0;
	for (size_t i = 0; i < a.n_objs; i++) {
		const struct binder_obj_count *o = &a.objs[i];
		lab_metric_add_part(m, LAB_BINDER_ACTIVE, (double)o->active, "binder-stats", o->type);
		if (have_before) {
			const struct binder_obj_count *ob = binder_stats_obj(&b, o->type);
			lab_metric_add_part(m, LAB_BINDER_CREATED,
					    (double)o->total - (ob ? (double)ob->total : 0.0), "binder-stats",
					    o->type);
		}
	}
	binder_stats_clear(&a);
	binder_stats_clear(&b);
}

/* ---- what the control channel said (protocol.h), read in one pass ---- */

struct ctl_notes {
	/* the stall window (window.h, CTL_WINDOW) */
	uint64_t start_ns, end_ns;
	bool have_start, have_end;
	char *recorded;		/* CTL_RECORDING's "events", or NULL: nothing recorded */
	/* the fragmentation as the workload started (-1: not said) */
	long long target_order, free_blocks_ge, target_max_blocks;
	/* the guest kernel's page size from the hello; 4096 for trials recorded
	 * before the hello said it (all of them x86_64) */
	unsigned long long page_bytes;
	bool saw_exit;		/* CTL_EXIT: the agent finished */
	bool saw_prepared;	/* CTL_PREPARED: a prepare step shaped the machine */
	long long pinned_bytes;	/* CTL_PINNED: the recorder's pages locked (-1: not said) */
	/* CTL_PREPARE_LOST: it ended during the workload (status, -1 while still exiting) */
	bool prepare_lost;
	long long prepare_lost_status;
	double prepare_lost_uptime;
	/* CTL_FAULTS: the failures fault injection forced, per capability (-1: not armed) */
	long long injected[FAULT_CAPABILITY_COUNT];
	int killer;		/* CTL_KILLER: the userspace killer that ran (killer-kinds.h), -1: none */
	_Static_assert(FAULT_CAPABILITY_COUNT == 2, "trial_metrics_compute sets injected[] to -1 each");
};

static void note_ctl(json_t *record, void *ctx)
{
	struct ctl_notes *e = ctx;
	const char *type = jsonl_type(record);
	if (!type)
		return;
	if (!strcmp(type, CTL_HELLO)) {
		json_int_t page = json_integer_value(json_object_get(record, HELLO_PAGE_SIZE));
		if (page > 0)
			e->page_bytes = (unsigned long long)page;
	} else if (!strcmp(type, CTL_EXIT)) {
		e->saw_exit = true;
	} else if (!strcmp(type, CTL_PREPARED)) {
		e->saw_prepared = true;
	} else if (!strcmp(type, CTL_PINNED)) {
		json_t *b = json_object_get(record, PINNED_BYTES);
		if (json_is_integer(b))
			e->pinned_bytes = json_integer_value(b);
	} else if (!strcmp(type, CTL_PREPARE_LOST)) {
		json_t *st = json_object_get(record, PREPARE_LOST_STATUS);
		e->prepare_lost = true;
		e->prepare_lost_status = json_is_integer(st) ? json_integer_value(st) : -1;
		e->prepare_lost_uptime = json_number_value(json_object_get(record, PREPARE_LOST_ENDED_UPTIME));
	} else if (!strcmp(type, CTL_FAULTS)) {
		const char *cap = json_string_value(json_object_get(record, FAULTS_CAPABILITY));
		json_t *n = json_object_get(record, FAULTS_INJECTED);
		for (int i = 0; cap && json_is_integer(n) && i < FAULT_CAPABILITY_COUNT; i++)
			if (!strcmp(cap, fault_capability_name[i]))
				e->injected[i] = json_integer_value(n);
	} else if (!strcmp(type, CTL_KILLER)) {
		const char *name = json_string_value(json_object_get(record, KILLER_NAME));
		int k = name ? killer_kind_of_name(name) : -1;
		e->killer = k >= 0 && killer_is_userspace((enum killer_kind)k) ? k : -1;
	} else if (!strcmp(type, CTL_RECORDING)) {
		const char *events = json_string_value(json_object_get(record, "events"));
		free(e->recorded);
		e->recorded = xstrdup(events ? events : "");
	} else if (!strcmp(type, CTL_WINDOW)) {
		const char *edge = json_string_value(json_object_get(record, "edge"));
		json_t *t = json_object_get(record, "read_mono_ns");
		if (!edge || !json_is_integer(t))
			return;
		if (!strcmp(edge, WINDOW_EDGE_START)) {
			e->start_ns = (uint64_t)json_integer_value(t);
			e->have_start = true;
			json_t *v;
			if ((v = json_object_get(record, WINDOW_TARGET_ORDER)) && json_is_integer(v))
				e->target_order = json_integer_value(v);
			if ((v = json_object_get(record, WINDOW_FREE_BLOCKS_GE)) && json_is_integer(v))
				e->free_blocks_ge = json_integer_value(v);
			if ((v = json_object_get(record, WINDOW_TARGET_MAX_BLOCKS)) && json_is_integer(v))
				e->target_max_blocks = json_integer_value(v);
		} else if (!strcmp(edge, WINDOW_EDGE_END)) {
			e->end_ns = (uint64_t)json_integer_value(t);
			e->have_end = true;
		}
	}
}

/* What the workload window counts from the trace. */
struct window_counts {
	struct stall_window stalls;
	struct app_launches apps;
};

static void window_sample(const struct perf_sample *s, const struct trace *t, void *ctx)
{
	struct window_counts *w = ctx;
	(void)t;
	stall_window_sample(&w->stalls, s);
	app_launches_sample(&w->apps, s);
}

/* The apps' cold starts from the trace, beside the count the apps workload
 * reported (its apps.cold_starts, from out.log), when task_rename was
 * recorded. */
/* REPORTED: the programs' own metrics, where the apps workload's cold starts are */
static void app_launch_metrics(struct metric_set *m, const struct metric_set *reported,
			       const struct ctl_notes *e, const struct app_launches *l, bool have_trace)
{
	if (metric_set_get(reported, "apps.cold_starts") && have_trace && e->have_start && e->have_end &&
	    e->recorded && strstr(e->recorded, APP_TRACE_EVENT))
		lab_metric_add(m, LAB_APPS_COLD_STARTS_TRACE, l->renames, "trace");
}

/* vmstat over the window, and the trace's count of the same things. */
static void window_metrics(struct metric_set *m, const char *dir, const struct ctl_notes *e,
			   const struct stall_window *w, bool have_trace)
{
	if (e->have_start && e->target_order > 0 && e->free_blocks_ge >= 0)
		lab_metric_addf(m, LAB_WORKLOAD_START_FREE_BLOCKS_GE, (double)e->free_blocks_ge, "ctl",
				"workload_start_free_blocks_ge%lld",
			    e->target_order);
	if (e->have_start && e->target_max_blocks >= 0 && e->free_blocks_ge >= 0)
		lab_metric_add(m, LAB_PREPARE_TARGET_MET, e->free_blocks_ge <= e->target_max_blocks, "ctl");
	if (e->saw_prepared)
		lab_metric_add(m, LAB_PREPARE_HELD, !e->prepare_lost, "ctl");
	if (e->pinned_bytes >= 0)
		lab_metric_add(m, LAB_RECORDER_PINNED_KB, (double)e->pinned_bytes / 1024, "ctl");
	if (!e->have_start || !e->have_end)
		return;
	lab_metric_add(m, LAB_WORKLOAD_WINDOW_S, (double)(e->end_ns - e->start_ns) / 1e9, "ctl");
	char *b = read_in(dir, "files/" SNAPSHOT_WINDOW_START "/" SNAP_VMSTAT);
	char *a = read_in(dir, "files/" SNAPSHOT_WINDOW_END "/" SNAP_VMSTAT);
	if (a && b) {
		struct kv_list kb = { 0 }, ka = { 0 };
		long long vb, va, allocstall = 0;
		kv_parse(b, &kb);
		kv_parse(a, &ka);
		for (size_t i = 0; i < ka.n; i++)
			if (starts_with(ka.items[i].key, "allocstall_") && kv_get(&kb, ka.items[i].key, &vb))
				allocstall += ka.items[i].value - vb;
		lab_metric_add(m, LAB_WORKLOAD_DIRECT_RECLAIM_STALLS_VMSTAT, allocstall, "vmstat");
		if (kv_get(&kb, "compact_stall", &vb) && kv_get(&ka, "compact_stall", &va))
			lab_metric_add(m, LAB_WORKLOAD_COMPACTION_STALLS_VMSTAT, va - vb, "vmstat");
		kv_clear(&kb);
		kv_clear(&ka);
	}
	free(a);
	free(b);
	if (!have_trace || !e->recorded)
		return;
	if (strstr(e->recorded, "vmscan:mm_vmscan_direct_reclaim_begin"))
		lab_metric_add(m, LAB_WORKLOAD_DIRECT_RECLAIM_STALLS_TRACE, w->direct_reclaims, "trace");
	if (w->can_count_compaction)
		lab_metric_add(m, LAB_WORKLOAD_COMPACTION_STALLS_TRACE, w->compaction_stalls, "trace");
	if (!w->opener_seen)
		return;
	if (strstr(e->recorded, "kmem:mm_page_alloc")) {
		lab_metric_add(m, LAB_BINDER_PAGE_ARRAY_ORDER3, w->page_array_allocs, "trace");
		lab_metric_add(m, LAB_BINDER_PAGE_ARRAY_ORDER3_FAILED, w->page_array_failed, "trace");
	}
	lab_metric_add(m, LAB_BINDER_MMAP_STALL_MS, (double)w->opener_stall_ns / 1e6, "trace");
}

/* ---- the kernel's complaints ---- */

/* trial.json keeps this many of a trial's reports; the counts are of all. */
#define COMPLAINTS_KEPT 100

static void complaint_metrics(struct metric_set *m, const struct kernel_complaints *c)
{
	size_t counts[COMPLAINT_KINDS];
	kernel_complaints_count(c, counts);
	lab_metric_add(m, LAB_KERNEL_WARNINGS, c->n, "kmsg+console");
	for (int k = 0; k < COMPLAINT_KINDS; k++)
		lab_metric_add_part(m, LAB_KERNEL_WARNINGS_KIND, (double)counts[k], "kmsg+console",
				    complaint_kind_name(k));
}

/* ---- the whole trial ---- */

static bool after_complete(const char *dir)
{
	char *vmstat = xasprintf("%s/files/" SNAPSHOT_AFTER "/" SNAP_VMSTAT, dir);
	char *partial = xasprintf("%s/files/" SNAPSHOT_AFTER "/" SNAP_VMSTAT ".partial", dir);
	bool ok = path_exists(vmstat) && !path_exists(partial);
	free(vmstat);
	free(partial);
	return ok;
}

static void oom_kill_totals(struct metric_set *m, const struct oom_reports *r, bool have_kmsg,
			    long long vmstat, long long memevents, bool have_trace,
			    uint64_t trace_marks)
{
	long long kmsg = have_kmsg ? (long long)r->n_kills : -1;
	if (have_kmsg)
		lab_metric_add(m, LAB_OOM_KILLS_KMSG, kmsg, "kmsg");
	if (vmstat >= 0)
		lab_metric_add(m, LAB_OOM_KILLS_VMSTAT, vmstat, "vmstat");
	if (memevents >= 0)
		lab_metric_add(m, LAB_OOM_KILLS_MEMORY_EVENTS, memevents, "memory.events");
	if (have_trace)
		lab_metric_add(m, LAB_OOM_KILLS_TRACE, trace_marks, "trace");

	if (kmsg >= 0 || vmstat >= 0)
		lab_metric_add(m, LAB_OOM_KILLS, kmsg >= vmstat ? kmsg : vmstat, kmsg >= vmstat ? "kmsg" : "vmstat");
	else if (memevents >= 0)
		lab_metric_add(m, LAB_OOM_KILLS, memevents, "memory.events");
	else if (have_trace)
		lab_metric_add(m, LAB_OOM_KILLS, trace_marks, "trace");

	if (have_kmsg) {
		size_t memcg = 0, global = 0;
		for (size_t i = 0; i < r->n_kills; i++) {
			memcg += !strcmp(r->kills[i].constraint, "memcg");
			global += !strcmp(r->kills[i].constraint, "global");
		}
		lab_metric_add(m, LAB_OOM_KILLS_MEMCG, memcg, "kmsg");
		lab_metric_add(m, LAB_OOM_KILLS_GLOBAL, global, "kmsg");
		lab_metric_add(m, LAB_OOM_INVOCATIONS_KMSG, r->invocations, "kmsg");
		lab_metric_add(m, LAB_OOM_REAPED_KMSG, r->n_reaps, "kmsg");
	}
}

/* Each fault capability's row (protocol.h), its name + "_injected". */
static const enum lab_metric injected_rows[FAULT_CAPABILITY_COUNT] = {
	[FAULT_PAGE_ALLOC] = LAB_FAIL_PAGE_ALLOC_INJECTED,
	[FAULT_SLAB] = LAB_FAILSLAB_INJECTED,
};

int trial_metrics_compute(const char *dir, json_t **out, struct strbuf *err)
{
	*out = NULL;
	if (!is_dir(dir)) {
		strbuf_addf(err, "%s: not a trial folder", dir);
		return -1;
	}
	struct metric_set m = METRIC_SET_INIT;
	struct ctl_notes ctl_said = { .target_order = -1, .free_blocks_ge = -1, .target_max_blocks = -1,
				      .pinned_bytes = -1, .killer = -1,
				   .page_bytes = 4096, .injected = { -1, -1 } };
	char *ctl = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_CTL]);
	jsonl_read_file(ctl, note_ctl, &ctl_said);
	free(ctl);
	struct window_counts window;
	stall_window_init(&window.stalls, ctl_said.start_ns, ctl_said.end_ns, ctl_said.recorded);
	app_launches_init(&window.apps, ctl_said.start_ns, ctl_said.end_ns);
	struct trace trace;
	trace_read(dir, &trace, window_sample, &window);
	stall_window_finish(&window.stalls);
	bool have_trace = trace.have_trace, have_kmsg = trace.have_kmsg;
	window_metrics(&m, dir, &ctl_said, &window.stalls, have_trace);

	if (have_trace) {
		stall_metrics(&m, &trace.stalls);
		page_alloc_metrics(&m, &trace.alloc);
	}
	if (have_trace || have_kmsg)
		victim_metrics(&m, &trace.oom, have_trace);
	if (have_kmsg)
		lab_metric_add(&m, LAB_KMSG_MISSED_RECORDS, trace.kmsg.seq_gaps, "kmsg");
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++)
		if (ctl_said.injected[i] >= 0)
			lab_metric_addf(&m, injected_rows[i], (double)ctl_said.injected[i], "ctl",
					"%s_injected", fault_capability_name[i]);

	struct snap vmstat, events, psi_sys, psi_cg, slab, binder;
	snap_read(dir, SNAP_VMSTAT, &vmstat);
	snap_read(dir, SNAP_CGROUP_EVENTS, &events);
	snap_read(dir, SNAP_PRESSURE_MEMORY, &psi_sys);
	snap_read(dir, SNAP_CGROUP_PRESSURE, &psi_cg);
	snap_read(dir, SNAP_SLABINFO, &slab);
	snap_read(dir, SNAP_BINDER_STATS, &binder);
	long long vm_oom, ev_oom;
	vmstat_metrics(&m, &vmstat, &vm_oom);
	memory_events_metrics(&m, &events, &ev_oom);
	psi_metrics(&m, &psi_sys, LAB_PSI_MEMORY_US, "psi_memory", "pressure");
	psi_metrics(&m, &psi_cg, LAB_CGROUP_PSI_MEMORY_US, "cgroup_psi_memory", "memory.pressure");
	slab_metrics(&m, &slab, ctl_said.page_bytes);
	binder_metrics(&m, &binder);
	oom_kill_totals(&m, &trace.reports, have_kmsg, vm_oom, ev_oom, have_trace,
			trace.oom.mark_victim_events);
	if (have_kmsg)
		oom_kills_by_tier(&m, &trace.reports);
	if (ctl_said.killer >= 0 && have_kmsg)
		killer_metrics(&m, &trace, (enum killer_kind)ctl_said.killer, have_trace);

	struct kernel_complaints complaints;
	bool have_logs = kernel_complaints_read_trial(dir, &complaints);
	if (have_logs)
		complaint_metrics(&m, &complaints);

	size_t outlog_len = 0;
	char *outlog_path = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_OUT]);
	char *outlog = read_file(outlog_path, &outlog_len);
	free(outlog_path);
	struct workload_lines lines = { 0 };
	/* the programs' own metrics go in last: past the set's cap a flooding
	 * program loses its names, never the lab's */
	struct metric_set programs = METRIC_SET_INIT;
	if (outlog) {
		workload_lines_parse(outlog, outlog_len, &lines, &programs);
		workload_lines_metrics(&lines, &m);
	}
	app_launch_metrics(&m, &programs, &ctl_said, &window.apps, have_trace);
	for (size_t i = 0; i < programs.n; i++)
		metric_set_add_declared(&m, programs.items[i].name, programs.items[i].value,
					programs.items[i].unit, programs.items[i].source,
					programs.items[i].declared);
	m.dropped += programs.dropped;
	metric_set_clear(&programs);

	bool partial = !after_complete(dir) || !ctl_said.saw_exit;
	json_t *o = json_object();
	json_object_set_new(o, "metrics", metric_set_json(&m));
	json_object_set_new(o, "victims", oom_victims_json(&trace.oom));
	if (ctl_said.killer >= 0 && have_kmsg)
		killer_json(o, &trace, (enum killer_kind)ctl_said.killer);
	json_object_set_new(o, "lost_events", json_integer((json_int_t)trace.perf.lost_events));
	if (m.dropped)
		json_object_set_new(o, "metrics_dropped", json_integer((json_int_t)m.dropped));
	json_object_set_new(o, "partial", json_boolean(partial));
	if (have_logs)
		json_object_set_new(o, "kernel_complaints", kernel_complaints_json(&complaints, COMPLAINTS_KEPT));
	if (lines.n)
		json_object_set_new(o, "workload_lines", workload_lines_json(&lines));
	/* the prepare step missed its target, or did not hold it to the end:
	 * the trial measured another machine */
	if (ctl_said.target_max_blocks >= 0 && ctl_said.free_blocks_ge > ctl_said.target_max_blocks)
		json_object_set_new(o, "off_target",
				    json_pack("{s:I, s:I, s:I}", "order", (json_int_t)ctl_said.target_order,
					      "free_blocks", (json_int_t)ctl_said.free_blocks_ge,
					      "max_blocks", (json_int_t)ctl_said.target_max_blocks));
	else if (ctl_said.prepare_lost)
		json_object_set_new(o, "off_target",
				    json_pack("{s:I, s:f}", "prepare_lost_status",
					      (json_int_t)ctl_said.prepare_lost_status, "prepare_lost_uptime",
					      ctl_said.prepare_lost_uptime));
	*out = o;
	kernel_complaints_release(&complaints);

	free(outlog);
	workload_lines_clear(&lines);
	snap_free(&vmstat);
	snap_free(&events);
	snap_free(&psi_sys);
	snap_free(&psi_cg);
	snap_free(&slab);
	snap_free(&binder);
	trace_release(&trace);
	stall_window_release(&window.stalls);
	free(ctl_said.recorded);
	metric_set_clear(&m);
	return 0;
}
