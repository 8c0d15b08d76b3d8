/* Statistics helpers; see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y ? 1 : 0;
}

void wl_sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double wl_pct_sorted(const double *sorted, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	/* nearest rank: ceil(p/100 * n), 1-based */
	rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

void wl_summarize(double *v, size_t n, struct summary *s)
{
	double sum = 0, sq = 0, mean;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	wl_sort_doubles(v, n);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	s->n = n;
	s->sum = sum;
	s->mean = mean;
	s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	s->min = v[0];
	s->max = v[n - 1];
	s->p50 = wl_pct_sorted(v, n, 50);
	s->p90 = wl_pct_sorted(v, n, 90);
	s->p95 = wl_pct_sorted(v, n, 95);
	s->p99 = wl_pct_sorted(v, n, 99);
}

void wl_hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned wl_hist_index(uint64_t v)
{
	unsigned p, idx;

	if (v < HIST_SUB)
		return (unsigned)v;
	p = 63u - (unsigned)__builtin_clzll(v);
	if (p > HIST_MAX_POW)
		return HIST_BUCKETS - 1;
	idx = (p - HIST_SUB_BITS + 1) * HIST_SUB +
	      (unsigned)((v >> (p - HIST_SUB_BITS)) & (HIST_SUB - 1));
	return idx;
}

uint64_t wl_hist_lower(unsigned idx)
{
	unsigned p, sub;

	if (idx < HIST_SUB)
		return idx;
	p = idx / HIST_SUB - 1 + HIST_SUB_BITS;
	sub = idx % HIST_SUB;
	return (uint64_t)(HIST_SUB + sub) << (p - HIST_SUB_BITS);
}

static uint64_t wl_hist_width(unsigned idx)
{
	if (idx < HIST_SUB)
		return 1;
	return 1ull << (idx / HIST_SUB - 1);
}

void wl_hist_add(struct hist *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->bucket[wl_hist_index(v)]++;
}

void wl_hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t wl_hist_pct(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t v = wl_hist_lower(i) + wl_hist_width(i) / 2;

			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

double wl_hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}
