/*
 * The killer's PSI side, on data alone (no /proc), so that the unit tests
 * can hold it to the kernel's documented behaviour:
 *
 * - the trigger text /proc/pressure/memory takes ("some 70000 1000000":
 *   the stall and the window in microseconds);
 * - the stall the killer saw over a window, from its own samples of PSI's
 *   stall totals, and when it first reached a threshold (for its event
 *   lines, common/kernel-text/lmkd-lines.h).
 *
 * What the killer decides on a trigger's event is lmkd-policy.h's.
 */
#ifndef OOMLAB_LMKD_PSI_H
#define OOMLAB_LMKD_PSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "some 70000 1000000" into BUF (kind "some" or "full"); its length, or -1. */
int lmkd_trigger_text(char *buf, size_t size, const char *kind, long stall_ms, long window_ms);

/* The killer's samples of PSI's stall totals (us), oldest first, at most LMKD_SAMPLES. */
#define LMKD_SAMPLES 512
struct lmkd_samples {
	int64_t t_ms[LMKD_SAMPLES];
	uint64_t total_us[LMKD_SAMPLES];
	size_t n, head;                     /* a ring: head is the oldest */
};
void lmkd_samples_add(struct lmkd_samples *s, int64_t t_ms, uint64_t total_us);
/* The stall over the WINDOW_MS before the newest sample, in ms (the total
 * at the window's start interpolated between samples; the oldest sample when
 * the samples do not reach back that far). */
long long lmkd_stall_over_window(const struct lmkd_samples *s, long window_ms);
/* The first sample after SINCE_MS at which the stall over the window before
 * it reached THRESHOLD_MS: its time in ms, or -1. */
int64_t lmkd_first_crossing(const struct lmkd_samples *s, long window_ms, long threshold_ms,
			    int64_t since_ms);

#endif
