/* window.c - the workload window's stalls from the trace, as vmstat counts them. */
#include "window.h"

#include <stdlib.h>
#include <string.h>

#include "common/proto/app-events.h"
#include "common/util.h"
#include "page_fields.h"

static bool has_event(const char *list, const char *event)
{
	size_t len = strlen(event);

	for (const char *p = list; p && (p = strstr(p, event)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

void stall_window_init(struct stall_window *w, uint64_t start_ns, uint64_t end_ns,
		       const char *recorded)
{
	memset(w, 0, sizeof(*w));
	w->start_ns = start_ns;
	w->end_ns = end_ns;
	w->can_count_compaction = has_event(recorded, "compaction:mm_compaction_try_to_compact_pages") &&
				  has_event(recorded, "compaction:mm_compaction_suitable") &&
				  has_event(recorded, "compaction:mm_compaction_deferred") &&
				  has_event(recorded, "compaction:mm_compaction_begin");
}

static bool inside(const struct stall_window *w, uint64_t t)
{
	return t >= w->start_ns && t <= w->end_ns;
}

static struct window_attempt *pending_of(struct stall_window *w, int tid)
{
	for (size_t i = 0; i < w->n_pending; i++)
		if (w->pending[i].tid == tid)
			return &w->pending[i];
	return NULL;
}

/* The attempt is over: counted unless its zones were all skipped. */
static void settle(struct stall_window *w, struct window_attempt *a)
{
	bool counted = a->decided ? a->counted : true;	/* no zone event: the watermark was met */

	if (counted && inside(w, a->t_ns))
		w->compaction_stalls++;
	*a = w->pending[--w->n_pending];
}

static void zone_event(struct window_attempt *a, bool counts)
{
	if (counts) {
		a->decided = true;
		a->counted = true;
	} else if (!a->decided) {
		a->decided = true;	/* skipped, unless a later zone counts */
		a->counted = false;
	}
}

static bool is(const struct perf_sample *s, const char *event)
{
	return !strcmp(s->event, event);
}

/* The processes whose binder mmaps are counted: binder-mmap's openers, and
 * the apps workload's apps, each named app-NN (common/proto/app-events.h). */
#define OPENER_COMM "binder-mmap"

static bool is_opener(const char *comm)
{
	return comm && (!strcmp(comm, OPENER_COMM) || !strncmp(comm, APP_COMM_PREFIX, strlen(APP_COMM_PREFIX)));
}

static void page_array_sample(struct stall_window *w, const struct perf_sample *s)
{
	long long order;
	const char *gfp = perf_field(s, "gfp_flags");

	if (!perf_field_long(s, "order", &order) || order != 3 || !gfp_flags_have(gfp, "__GFP_ZERO") ||
	    !gfp_flags_have(gfp, "__GFP_COMP"))
		return;
	w->page_array_allocs++;
	w->page_array_failed += page_alloc_failed(s);
}

/* The openers' stall time: begins and ends of reclaim and compaction paired per thread. */
static void opener_stall_sample(struct stall_window *w, const struct perf_sample *s, bool begin)
{
	size_t i = 0;

	while (i < w->n_stalls && w->stalls[i].tid != s->tid)
		i++;
	if (begin) {
		if (i == w->n_stalls) {
			ALLOC_GROW(w->stalls, w->n_stalls + 1, w->alloc_stalls);
			w->n_stalls++;
		}
		w->stalls[i] = (struct window_stall){ .tid = s->tid, .begin_ns = s->t_ns };
	} else if (i < w->n_stalls) {
		if (s->t_ns >= w->stalls[i].begin_ns)
			w->opener_stall_ns += s->t_ns - w->stalls[i].begin_ns;
		w->stalls[i] = w->stalls[--w->n_stalls];
	}
}

void stall_window_sample(struct stall_window *w, const struct perf_sample *s)
{
	struct window_attempt *a = pending_of(w, s->tid);

	if (is(s, "vmscan:mm_vmscan_direct_reclaim_begin") && inside(w, s->t_ns))
		w->direct_reclaims++;
	if (is_opener(s->comm) && inside(w, s->t_ns)) {
		w->opener_seen = true;
		if (is(s, "kmem:mm_page_alloc"))
			page_array_sample(w, s);
		else if (is(s, "vmscan:mm_vmscan_direct_reclaim_begin") ||
			 is(s, "compaction:mm_compaction_begin"))
			opener_stall_sample(w, s, true);
		else if (is(s, "vmscan:mm_vmscan_direct_reclaim_end") ||
			 is(s, "compaction:mm_compaction_end"))
			opener_stall_sample(w, s, false);
	}
	if (!w->can_count_compaction)
		return;
	if (is(s, "compaction:mm_compaction_suitable") && a) {
		const char *ret = perf_field(s, "ret");
		zone_event(a, !ret || (strcmp(ret, "skipped") && strcmp(ret, "not_suitable_zone")));
	} else if ((is(s, "compaction:mm_compaction_deferred") ||
		    is(s, "compaction:mm_compaction_begin")) && a) {
		zone_event(a, true);
	} else if (is(s, "compaction:mm_compaction_try_to_compact_pages") ||
		   is(s, "vmscan:mm_vmscan_direct_reclaim_begin") || is(s, "kmem:mm_page_alloc") ||
		   is(s, "sched:sched_process_exit")) {
		/* the thread's next allocation step: its open attempt is over */
		if (a)
			settle(w, a);
		if (is(s, "compaction:mm_compaction_try_to_compact_pages")) {
			ALLOC_GROW(w->pending, w->n_pending + 1, w->alloc_pending);
			w->pending[w->n_pending++] = (struct window_attempt){ .tid = s->tid, .t_ns = s->t_ns };
		}
	}
}

void stall_window_finish(struct stall_window *w)
{
	while (w->n_pending)
		settle(w, &w->pending[w->n_pending - 1]);
}

void stall_window_release(struct stall_window *w)
{
	free(w->pending);
	free(w->stalls);
	memset(w, 0, sizeof(*w));
}
