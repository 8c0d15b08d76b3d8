/* The low-memory killer's decisions on data (lmkd-decide.h). */
#include "lmkd-decide.h"

#include <stdio.h>
#include <string.h>

#include "common/kernel-text/lmkd-lines.h"
#include "common/proto/app-tiers.h"

int lmkd_trigger_text(char *buf, size_t size, const char *kind, long stall_ms, long window_ms)
{
	if (strcmp(kind, "some") && strcmp(kind, "full"))
		return -1;
	int n = snprintf(buf, size, "%s %ld %ld", kind, stall_ms * 1000, window_ms * 1000);
	return n < 0 || (size_t)n >= size ? -1 : n;
}

long long lmkd_thrashing_percent(long long refaults_now, long long refaults_base, long long file_lru_base)
{
	long long refaults = refaults_now - refaults_base;
	if (refaults <= 0)
		return 0;
	/* +1: an empty file LRU is all thrashing, not a division by zero */
	return refaults * 100 / (file_lru_base + 1);
}

struct lmkd_decision lmkd_decide(const struct lmkd_pressure *p)
{
	struct lmkd_decision d = { NULL, APP_ADJ_CACHED_MIN };
	if (p->full_fired) {
		d.reason = LMKD_REASON_PSI_COMPLETE;
		d.min_adj = APP_ADJ_FOREGROUND;
		return d;
	}
	if (!p->some_fired)
		return d;
	bool swap_low = p->swap_free_low_percent > 0 && p->swap_total_kb > 0 &&
			p->swap_free_kb * 100 < p->swap_free_low_percent * p->swap_total_kb;
	bool thrashing = p->thrashing_limit > 0 && p->thrashing_percent >= p->thrashing_limit;
	if (swap_low || thrashing) {
		d.reason = swap_low ? LMKD_REASON_SWAP_LOW : LMKD_REASON_THRASHING;
		d.min_adj = APP_ADJ_PERCEPTIBLE + 1;
		return d;
	}
	d.reason = LMKD_REASON_PSI_PARTIAL;
	return d;
}

/* Whether A goes before B: the higher tier, then the larger RSS, then the
 * higher adj, then the lower pid (so that the choice is one). */
static bool before(const struct lmkd_proc *a, const struct lmkd_proc *b)
{
	enum app_tier ta = app_tier_of_adj(a->adj), tb = app_tier_of_adj(b->adj);
	if (ta != tb)
		return ta > tb;
	if (a->rss_kb != b->rss_kb)
		return a->rss_kb > b->rss_kb;
	if (a->adj != b->adj)
		return a->adj > b->adj;
	return a->pid < b->pid;
}

int lmkd_choose_victim(const struct lmkd_proc *procs, size_t n, int min_adj)
{
	int best = -1;
	if (min_adj < 0)
		min_adj = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lmkd_proc *p = &procs[i];
		if (p->kernel_thread || p->adj < min_adj || p->rss_kb <= 0 || p->pid <= 1)
			continue;
		if (best < 0 || before(p, &procs[best]))
			best = (int)i;
	}
	return best;
}

void lmkd_samples_add(struct lmkd_samples *s, int64_t t_ms, uint64_t total_us)
{
	size_t at = (s->head + s->n) % LMKD_SAMPLES;
	s->t_ms[at] = t_ms;
	s->total_us[at] = total_us;
	if (s->n < LMKD_SAMPLES)
		s->n++;
	else
		s->head = (s->head + 1) % LMKD_SAMPLES;
}

static size_t slot(const struct lmkd_samples *s, size_t i)
{
	return (s->head + i) % LMKD_SAMPLES;
}

/* The total at time T, interpolated between samples; the oldest before them. */
static double total_at(const struct lmkd_samples *s, int64_t t)
{
	if (t <= s->t_ms[slot(s, 0)])
		return (double)s->total_us[slot(s, 0)];
	for (size_t i = 1; i < s->n; i++) {
		size_t a = slot(s, i - 1), b = slot(s, i);
		if (t <= s->t_ms[b]) {
			double span = (double)(s->t_ms[b] - s->t_ms[a]);
			double f = span > 0 ? (double)(t - s->t_ms[a]) / span : 1.0;
			return (double)s->total_us[a] + f * (double)(s->total_us[b] - s->total_us[a]);
		}
	}
	return (double)s->total_us[slot(s, s->n - 1)];
}

/* The stall over the window ending at sample I, in us. */
static double stall_before(const struct lmkd_samples *s, size_t i, long window_ms)
{
	size_t at = slot(s, i);
	return (double)s->total_us[at] - total_at(s, s->t_ms[at] - window_ms);
}

long long lmkd_stall_over_window(const struct lmkd_samples *s, long window_ms)
{
	if (!s->n)
		return 0;
	return (long long)(stall_before(s, s->n - 1, window_ms) / 1000.0);
}

int64_t lmkd_first_crossing(const struct lmkd_samples *s, long window_ms, long threshold_ms,
			    int64_t since_ms)
{
	for (size_t i = 0; i < s->n; i++) {
		size_t at = slot(s, i);
		if (s->t_ms[at] > since_ms && stall_before(s, i, window_ms) >= threshold_ms * 1000.0)
			return s->t_ms[at];
	}
	return -1;
}
