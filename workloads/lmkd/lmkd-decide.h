/*
 * The low-memory killer's decisions, on data alone (no /proc), so that the
 * unit tests can hold them to lmkd's documented behaviour:
 *
 * - the PSI trigger text /proc/pressure/memory takes ("some 70000 1000000":
 *   the stall and the window in microseconds);
 * - why to kill, and down to which oom_score_adj: a partial (some) stall
 *   kills cached apps only; with free swap below its percentage or the page
 *   cache thrashing (refaults as a percentage of the file LRU above the
 *   limit) it goes down to services (above perceptible, 201); a complete
 *   (full) stall goes down to foreground (0);
 * - the victim: the highest tier first (common/proto/app-tiers.h), then the
 *   largest RSS; never a process below oom_score_adj 0 (the agent, the
 *   killer itself, the system), a kernel thread, or one without memory;
 * - the stall the killer saw over a window, from its own samples of PSI's
 *   stall totals, and when it first reached a threshold.
 */
#ifndef OOMLAB_LMKD_DECIDE_H
#define OOMLAB_LMKD_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "some 70000 1000000" into BUF (kind "some" or "full"); its length, or -1. */
int lmkd_trigger_text(char *buf, size_t size, const char *kind, long stall_ms, long window_ms);

/* What the killer knows when a trigger fires. */
struct lmkd_pressure {
	bool some_fired, full_fired;
	long long swap_total_kb, swap_free_kb;
	long swap_free_low_percent;         /* 0: off */
	long long thrashing_percent;        /* refaults since the base, % of the base's file LRU */
	long long thrashing_limit;          /* 0: off */
};

struct lmkd_decision {
	const char *reason;                 /* LMKD_REASON_* (common/kernel-text/lmkd-lines.h); NULL: none */
	int min_adj;                        /* kill only at this oom_score_adj or above */
};

struct lmkd_decision lmkd_decide(const struct lmkd_pressure *p);

/* Refaults since the base as a percentage of the base's file LRU (pages). */
long long lmkd_thrashing_percent(long long refaults_now, long long refaults_base, long long file_lru_base);

struct lmkd_proc {
	int pid;
	char comm[16];
	int adj;                            /* oom_score_adj */
	long long rss_kb;
	bool kernel_thread;
};

/* The victim's index in PROCS (N of them) at MIN_ADJ or above, or -1. */
int lmkd_choose_victim(const struct lmkd_proc *procs, size_t n, int min_adj);

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
