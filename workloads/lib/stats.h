/* Small statistics helpers: summaries of sample arrays (exact percentiles)
 * and a log-linear latency histogram that can live in shared memory so
 * that worker processes record and a parent merges. */
#ifndef OOMLAB_WL_STATS_H
#define OOMLAB_WL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double min, max, mean, sum, stddev;
	double p50, p90, p95, p99;
};

/* Nearest-rank percentile of sorted values, p in [0, 100]. */
double wl_pct_sorted(const double *sorted, size_t n, double p);
/* Sorts v in place and fills s.  n == 0 gives all zeros. */
void wl_summarize(double *v, size_t n, struct summary *s);
void wl_sort_doubles(double *v, size_t n);

/* Log-linear histogram of nanosecond values: values below 2^HIST_SUB_BITS
 * are exact, above that each power of two is split into 2^HIST_SUB_BITS
 * buckets (relative bucket width <= 1/64 = 1.6%).  Plain old data, no
 * pointers: place it in MAP_SHARED memory and merge with wl_hist_merge(). */
#define HIST_SUB_BITS 6
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_MAX_POW  44                /* up to ~4.9 hours in ns */
#define HIST_BUCKETS  ((HIST_MAX_POW - HIST_SUB_BITS + 2) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min, max;                 /* exact */
	uint64_t bucket[HIST_BUCKETS];
};

void wl_hist_init(struct hist *h);
void wl_hist_add(struct hist *h, uint64_t v);
void wl_hist_merge(struct hist *dst, const struct hist *src);
/* Nearest-rank percentile; returns the midpoint of the bucket holding the
 * rank (exact for small values), clamped to [min, max]. */
uint64_t wl_hist_pct(const struct hist *h, double p);
double wl_hist_mean(const struct hist *h);
/* Bucket index / lower bound, exposed for tests. */
unsigned wl_hist_index(uint64_t v);
uint64_t wl_hist_lower(unsigned idx);

#endif
