/* The killer's PSI triggers and the stall it saw, on data (lmkd-psi.h). */
#include "lmkd-psi.h"

#include <stdio.h>
#include <string.h>


int lmkd_trigger_text(char *buf, size_t size, const char *kind, long stall_ms, long window_ms)
{
	if (strcmp(kind, "some") && strcmp(kind, "full"))
		return -1;
	int n = snprintf(buf, size, "%s %ld %ld", kind, stall_ms * 1000, window_ms * 1000);
	return n < 0 || (size_t)n >= size ? -1 : n;
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
