/*
 * When Android's lmkd kills, and down to which oom_score_adj: its decision
 * cycle as a pure function of what it reads and what it remembers, so that
 * the decision table (tests/unit/workloads/lmkd/test-lmkd-policy.c) can
 * hold it to lmkd's behaviour row by row. Built from lmkd's documented and
 * observable behaviour (docs/FIDELITY-LMKD.md, sections 1-2, which give
 * lmkd.cpp's functions and lines at AOSP 767ae23); no lmkd code.
 *
 * One cycle (lmkd.cpp __mp_event_psi()), on a PSI event or a poll:
 *  1. a lower-level event after a higher one, within the first polling
 *     window, is dropped;
 *  2. while the last victim is not reported dead and kill_timeout_ms has
 *     not run out since the kill (0: no limit), nothing is decided;
 *  3. after a cycle that killed, the thrashing base is reset;
 *  4. swap is low when min(SwapFree, MemFree + Inactive(file)) is below
 *     swap_free_low_percent of SwapTotal; reclaim is "direct" when
 *     pgscan_direct moved since lmkd last saw it, "kswapd" when
 *     pgscan_kswapd or pgrefill did; with neither, and file refaults
 *     unchanged, the cycle ends (events and polls alike);
 *  5. thrashing: file refaults since the base, as % of the file LRU at the
 *     base (+1 page), plus the previous window's growth, halved for each
 *     1 s window passed (kept whole when exactly one passed at or above the
 *     limit); each new window takes a new base and restores the limit;
 *  6. free memory (MemFree - CmaFree) is held against the zone watermarks
 *     (lmkd-procfs.h), read again when never read, every 60 s, and before
 *     the first kill (which decides once more);
 *  7. the first of lmkd's reasons that holds (enum lmkd_reason) gives the
 *     kill and its lowest adj; a full avg10 above stall_limit_critical drops
 *     that to 0.
 * After the kill (lmkd_policy_after_kill()): a kill for LOW_MEM_AND_THRASHING
 * or DIRECT_RECL_AND_THRASHING cuts the current thrashing limit by
 * thrashing_limit_decay percent; the next cycle is a cycle after a kill.
 *
 * Polling (lmkd.cpp call_handler(), mainloop()): an event, a kill or direct
 * reclaim (re)starts 1 s of polling; the interval is 10 ms while swap is low
 * or just after a kill, 100 ms otherwise; while a victim's death is awaited
 * polling pauses, and resumes at once (10 ms) when it dies or the kill
 * timeout runs out.
 */
#ifndef OOMLAB_LMKD_POLICY_H
#define OOMLAB_LMKD_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "common/kernel-text/lmkd-lines.h"
#include "lmkd-procfs.h"

/* What woke lmkd: a PSI trigger's event or a poll (no event). */
enum lmkd_wake {
	LMKD_WAKE_POLL,
	LMKD_WAKE_SOME,                 /* the partial stall trigger (lmkd's MEDIUM level) */
	LMKD_WAKE_FULL,                 /* the complete stall trigger (CRITICAL) */
};

/* Why a cycle ended before it looked for a reason. */
enum lmkd_early_exit {
	LMKD_DECIDED,                   /* it looked (and may have found no reason) */
	LMKD_EXIT_LOWER_EVENT,          /* a lower-level event inside the first polling window */
	LMKD_EXIT_KILL_PENDING,         /* the last victim is not dead, the kill timeout not over */
	LMKD_EXIT_NO_RECLAIM,           /* neither reclaim nor a change of file refaults */
	LMKD_EXIT_UNREADABLE,           /* meminfo, vmstat or (when due) zoneinfo unreadable */
	LMKD_EXIT_COUNT
};

/* lmkd's lowest breached watermark (enum zone_watermark): MIN < LOW < HIGH < NONE. */
enum lmkd_wmark { LMKD_WMARK_MIN, LMKD_WMARK_LOW, LMKD_WMARK_HIGH, LMKD_WMARK_NONE };

enum lmkd_reclaim { LMKD_NO_RECLAIM, LMKD_KSWAPD_RECLAIM, LMKD_DIRECT_RECLAIM };

/* lmkd's tunables (ro.lmk.*): lmkd_tunables_defaults() gives its defaults. */
struct lmkd_tunables {
	long thrashing_limit;           /* % */
	long thrashing_limit_decay;     /* % */
	long thrashing_critical;        /* %: 3x the limit */
	long swap_free_low_percent;     /* 0: off */
	long swap_compression_ratio;    /* 0: SwapFree alone */
	long swap_util_max;             /* %: 100 is off */
	long filecache_min_pages;       /* 0: off */
	long direct_reclaim_threshold_ms; /* 0: off */
	long stall_limit_critical;      /* full avg10 %: 100 is off */
	long lowmem_min_oom_score;      /* LOW_MEM's lowest adj */
	long pressure_after_kill_min_score;
	long kill_timeout_ms;           /* 0: wait for the death with no limit */
};

/* lmkd's defaults; LOW_RAM: ro.config.low_ram's (common/proto/lmkd-config.h
 * lmkd_config_low_ram(): thrashing 30 %, decay 50 %). */
void lmkd_tunables_defaults(struct lmkd_tunables *t, bool low_ram);
/* The tunables a profile sets (common/proto/lmkd-config.h), lmkd's
 * defaults for the rest, which no profile key sets yet. */
struct lmkd_config;
void lmkd_tunables_from_config(struct lmkd_tunables *t, const struct lmkd_config *c);

/* Where the cycle gets the zone watermarks when it reads them again. */
struct lmkd_zone_reader {
	int (*read)(void *ctx, struct lmkd_watermarks *out);    /* 0, or -1 */
	void *ctx;
};

/* What one wake-up reads. */
struct lmkd_sample {
	enum lmkd_wake wake;
	int64_t now_ms;                 /* CLOCK_MONOTONIC */
	struct lmkd_meminfo mi;
	struct lmkd_vmstat vs;
	double full_avg10;              /* PSI memory full avg10, % */
	int64_t direct_reclaim_ms;      /* how long direct reclaim has run (memevents only); 0 */
	bool unreadable;                /* /proc/meminfo or /proc/vmstat could not be read */
};

/* What lmkd remembers between cycles (its statics); lmkd_policy_init(). */
struct lmkd_memory {
	enum lmkd_wake prev_level;      /* the highest event in the first polling window */
	long long init_ws_refault, prev_ws_refault, base_file_lru;
	long long init_pgscan_kswapd, init_pgscan_direct, init_pgrefill;
	bool killing;                   /* the last cycle killed */
	long long thrashing_limit;      /* the current limit: cut after thrashing kills */
	int64_t thrashing_reset_ms;
	long long prev_thrash_growth;
	bool check_filecache;
	bool first_kill_done;
	bool have_wmarks;
	struct lmkd_watermarks wmarks;
	int64_t wmark_update_ms;
	/* the last kill, until its victim is reported dead or the timeout runs out */
	bool kill_pending;
	int64_t last_kill_ms;
	/* polling (lmkd.cpp struct polling_params) */
	bool polling, paused, resume_now;
	int64_t poll_start_ms, last_poll_ms;
	int poll_interval_ms;
};

void lmkd_policy_init(struct lmkd_memory *m, const struct lmkd_tunables *t);

/* One cycle's decision, and what it saw. */
struct lmkd_verdict {
	enum lmkd_early_exit exit;
	enum lmkd_reason reason;        /* LMKD_NO_KILL: no kill */
	int min_adj;                    /* kill only at this oom_score_adj or above */
	bool cut_thrashing_limit;       /* a kill for this reason cuts the limit */
	/* what it saw */
	bool swap_low;
	enum lmkd_reclaim reclaim;
	enum lmkd_wmark wmark;
	long long thrashing;            /* % */
	bool cycle_after_kill;
	bool critical_stall;
};

/* Decides one cycle; updates M as lmkd does before the kill. */
struct lmkd_verdict lmkd_policy_decide(struct lmkd_memory *m, const struct lmkd_tunables *t,
				       const struct lmkd_sample *s, const struct lmkd_zone_reader *zr);

/* After the cycle: whether a process was killed (then the death is
 * awaited), and the polling that follows (lmkd's no_kill: label and
 * call_handler()). */
void lmkd_policy_after_kill(struct lmkd_memory *m, const struct lmkd_tunables *t,
			    const struct lmkd_verdict *v, enum lmkd_wake wake, bool killed, int64_t now_ms);

/* The last victim is gone (its pidfd said so), or the caller stopped
 * waiting for it; polling resumes at once if it was paused. */
void lmkd_policy_victim_gone(struct lmkd_memory *m, int64_t now_ms);

/* How long to wait for an event before the next poll (ms), 0: poll now,
 * -1: wait for an event only. With a kill pending and a kill timeout, the
 * time left until it runs out (then call lmkd_policy_kill_timed_out()). */
long lmkd_policy_wait_ms(const struct lmkd_memory *m, const struct lmkd_tunables *t, int64_t now_ms);
/* Whether a poll is due now (the interval passed since the last poll). */
bool lmkd_policy_poll_due(const struct lmkd_memory *m, int64_t now_ms);
/* The kill timeout ran out while waiting for the death. */
bool lmkd_policy_kill_timed_out(const struct lmkd_memory *m, const struct lmkd_tunables *t, int64_t now_ms);

/* "decided", "lower-event", ...; the reasons' names are lmkd-lines.h's. */
const char *lmkd_early_exit_name(enum lmkd_early_exit e);

/* lmkd's polling periods and windows (lmkd.cpp PSI_POLL_PERIOD_*_MS, ...). */
#define LMKD_POLL_SHORT_MS 10
#define LMKD_POLL_LONG_MS 100
#define LMKD_POLL_WINDOW_MS 1000
#define LMKD_THRASHING_WINDOW_MS 1000
#define LMKD_WMARK_REFRESH_MS 60000
/* lmkd.thrashing_limit_percent = 0: thrashing is never over this (%) */
#define LMKD_THRASHING_OFF 1000000000000L

#endif
