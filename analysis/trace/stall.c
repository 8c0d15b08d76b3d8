/* stall.c - pairing of stall begin/end tracepoints (stall.h). */
#include "stall.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

const char *stall_kind_name(enum stall_kind kind)
{
	switch (kind) {
	case STALL_DIRECT_RECLAIM:    return "direct_reclaim";
	case STALL_MEMCG_RECLAIM:     return "memcg_reclaim";
	case STALL_DIRECT_COMPACTION: return "direct_compaction";
	case STALL_KINDS:             break;
	}
	return "?";
}

void stall_tracker_init(struct stall_tracker *t)
{
	memset(t, 0, sizeof(*t));
}

void stall_tracker_release(struct stall_tracker *t)
{
	for (int k = 0; k < STALL_KINDS; k++) {
		free(t->kind[k].durations_ns);
		free(t->kind[k].open);
	}
	memset(t, 0, sizeof(*t));
}

static struct stall_open *find_open(struct stall_series *s, int tid)
{
	for (size_t i = 0; i < s->n_open; i++)
		if (s->open[i].tid == tid)
			return &s->open[i];
	return NULL;
}

void stall_begin(struct stall_tracker *t, enum stall_kind kind, int tid, uint64_t t_ns)
{
	struct stall_series *s = &t->kind[kind];
	struct stall_open *o = find_open(s, tid);
	if (o) {
		s->nested++;
		o->begin_ns = t_ns;
		return;
	}
	ALLOC_GROW(s->open, s->n_open + 1, s->alloc_open);
	s->open[s->n_open++] = (struct stall_open){ tid, t_ns };
}

void stall_end(struct stall_tracker *t, enum stall_kind kind, int tid, uint64_t t_ns)
{
	struct stall_series *s = &t->kind[kind];
	struct stall_open *o = find_open(s, tid);
	if (!o) {
		s->unmatched_end++;
		return;
	}
	uint64_t begin = o->begin_ns;
	*o = s->open[--s->n_open];
	ALLOC_GROW(s->durations_ns, s->n + 1, s->alloc);
	/* perf sorts samples by time, so an end before its begin cannot come from
	 * one thread; clamp rather than wrap around. */
	s->durations_ns[s->n++] = t_ns >= begin ? t_ns - begin : 0;
}

void stall_tracker_finish(struct stall_tracker *t, uint64_t last_ns)
{
	for (int k = 0; k < STALL_KINDS; k++) {
		struct stall_series *s = &t->kind[k];
		for (size_t i = 0; i < s->n_open; i++) {
			s->open_at_end++;
			if (last_ns > s->open[i].begin_ns)
				s->open_ns += last_ns - s->open[i].begin_ns;
		}
	}
}

static bool is_kcompactd(const char *comm)
{
	return starts_with(comm, "kcompactd");
}

void stall_tracker_sample(struct stall_tracker *t, const struct perf_sample *s)
{
	const char *e = s->event;
	if (starts_with(e, "vmscan:")) {
		e += 7;
		if (!strcmp(e, "mm_vmscan_direct_reclaim_begin"))
			stall_begin(t, STALL_DIRECT_RECLAIM, s->tid, s->t_ns);
		else if (!strcmp(e, "mm_vmscan_direct_reclaim_end"))
			stall_end(t, STALL_DIRECT_RECLAIM, s->tid, s->t_ns);
		else if (!strcmp(e, "mm_vmscan_memcg_reclaim_begin"))
			stall_begin(t, STALL_MEMCG_RECLAIM, s->tid, s->t_ns);
		else if (!strcmp(e, "mm_vmscan_memcg_reclaim_end"))
			stall_end(t, STALL_MEMCG_RECLAIM, s->tid, s->t_ns);
	} else if (starts_with(e, "compaction:")) {
		e += 11;
		if (!strcmp(e, "mm_compaction_try_to_compact_pages")) {
			t->compaction_attempts++;
		} else if (!strcmp(e, "mm_compaction_begin")) {
			if (!is_kcompactd(s->comm))
				stall_begin(t, STALL_DIRECT_COMPACTION, s->tid, s->t_ns);
		} else if (!strcmp(e, "mm_compaction_end")) {
			if (is_kcompactd(s->comm))
				t->kcompactd_passes++;
			else
				stall_end(t, STALL_DIRECT_COMPACTION, s->tid, s->t_ns);
		}
	}
}

void stall_summarize(const uint64_t *durations_ns, size_t n, struct stall_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->count = n;
	if (!n)
		return;
	double *sorted = xmalloc(n * sizeof(*sorted));
	for (size_t i = 0; i < n; i++) {
		sorted[i] = (double)durations_ns[i];
		out->total_ns += durations_ns[i];
		if (durations_ns[i] > out->max_ns)
			out->max_ns = durations_ns[i];
	}
	gsl_sort(sorted, 1, n);
	out->p50_ns = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.50);
	out->p99_ns = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.99);
	free(sorted);
}
