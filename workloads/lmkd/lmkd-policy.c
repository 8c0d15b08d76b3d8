/* lmkd's decision cycle and polling, on data alone (lmkd-policy.h). */
#include "lmkd-policy.h"

#include <string.h>

#include "common/proto/app-tiers.h"
#include "common/proto/lmkd-config.h"

void lmkd_tunables_from_config(struct lmkd_tunables *t, const struct lmkd_config *c)
{
	/* the rest: lmkd.cpp update_props()'s defaults (FIDELITY-LMKD.md 1.8) */
	/* 0 is the key's "off" (lmkd has none): a limit no thrashing reaches,
	 * small enough that the cuts and 3x do not overflow */
	t->thrashing_limit = c->v[LMKD_THRASHING_LIMIT_PERCENT] ? c->v[LMKD_THRASHING_LIMIT_PERCENT] :
								  LMKD_THRASHING_OFF;
	t->thrashing_limit_decay = c->v[LMKD_THRASHING_LIMIT_DECAY_PERCENT];
	t->thrashing_critical = t->thrashing_limit * 3;
	t->swap_free_low_percent = c->v[LMKD_SWAP_FREE_LOW_PERCENT];
	t->swap_compression_ratio = 1;
	t->swap_util_max = 100;
	t->filecache_min_pages = 0;
	t->direct_reclaim_threshold_ms = 0;
	t->stall_limit_critical = 100;
	t->lowmem_min_oom_score = 701;
	t->pressure_after_kill_min_score = 0;
	t->kill_timeout_ms = c->v[LMKD_KILL_TIMEOUT_MS];
}

void lmkd_tunables_defaults(struct lmkd_tunables *t, bool low_ram)
{
	struct lmkd_config c;
	lmkd_config_defaults(&c);
	if (low_ram)
		lmkd_config_low_ram(&c, NULL);
	lmkd_tunables_from_config(t, &c);
}

void lmkd_policy_init(struct lmkd_memory *m, const struct lmkd_tunables *t)
{
	/* lmkd's statics start at zero, but for the thrashing limit */
	memset(m, 0, sizeof(*m));
	m->thrashing_limit = t->thrashing_limit;
	m->poll_interval_ms = LMKD_POLL_LONG_MS;
}

/* Free swap by lmkd's measure (get_free_swap()): on zram, swap space is
 * only as good as the memory that can be found to hold it. */
static long long free_swap(const struct lmkd_tunables *t, const struct lmkd_meminfo *mi)
{
	if (!t->swap_compression_ratio)
		return mi->swap_free;
	long long easy = (mi->free + mi->inactive_file) * t->swap_compression_ratio;
	return mi->swap_free < easy ? mi->swap_free : easy;
}

static int swap_utilization(const struct lmkd_tunables *t, const struct lmkd_meminfo *mi)
{
	long long used = mi->swap_total - free_swap(t, mi);
	long long swappable = mi->active_anon + mi->inactive_anon + mi->shmem + used;
	return swappable > 0 ? (int)(used * 100 / swappable) : 0;
}

static enum lmkd_wmark lowest_breached(const struct lmkd_meminfo *mi, const struct lmkd_watermarks *w)
{
	long long free = mi->free - mi->cma_free;
	if (free < w->min)
		return LMKD_WMARK_MIN;
	if (free < w->low)
		return LMKD_WMARK_LOW;
	if (free < w->high)
		return LMKD_WMARK_HIGH;
	return LMKD_WMARK_NONE;
}

static long long percent_of_lru(long long refaults, long long base_lru)
{
	/* +1: an empty file LRU is all thrashing, not a division by zero */
	return refaults * 100 / (base_lru + 1);
}

/* Step 5 of lmkd-policy.h: the thrashing figure, with lmkd's windows. */
static long long thrashing_now(struct lmkd_memory *m, const struct lmkd_tunables *t,
			       const struct lmkd_sample *s)
{
	long long refault = s->vs.workingset_refault_file, thrashing = 0;
	int64_t since = s->now_ms - m->thrashing_reset_ms;
	if (since > LMKD_THRASHING_WINDOW_MS) {
		m->prev_thrash_growth = percent_of_lru(refault - m->init_ws_refault, m->base_file_lru);
		int64_t windows = since / LMKD_THRASHING_WINDOW_MS;
		/* kept whole when the window just ended was over the limit, so
		 * that a kill with no victim then is tried again */
		if (windows > 1 || m->prev_thrash_growth < m->thrashing_limit)
			m->prev_thrash_growth = windows >= 63 ? 0 : m->prev_thrash_growth >> windows;
		m->base_file_lru = s->vs.nr_inactive_file + s->vs.nr_active_file;
		m->init_ws_refault = refault;
		m->thrashing_reset_ms = s->now_ms;
		m->thrashing_limit = t->thrashing_limit;
	} else {
		thrashing = percent_of_lru(refault - m->init_ws_refault, m->base_file_lru);
	}
	return thrashing + m->prev_thrash_growth;
}

/* Step 7: the first reason that holds. As in lmkd, a pass that finds none
 * leaves the reason (and adj) of an earlier pass of the same cycle standing. */
static void find_reason(struct lmkd_memory *m, const struct lmkd_tunables *t, const struct lmkd_sample *s,
			struct lmkd_verdict *v)
{
	const int above_perceptible = APP_ADJ_PERCEPTIBLE + 1;
	const long long th = v->thrashing;
	if (v->cycle_after_kill && v->wmark < LMKD_WMARK_LOW) {
		v->reason = LMKD_PRESSURE_AFTER_KILL;
		v->min_adj = (int)t->pressure_after_kill_min_score;
	} else if (s->wake == LMKD_WAKE_FULL) {
		v->reason = LMKD_NOT_RESPONDING;
	} else if (v->swap_low && th > t->thrashing_limit) {
		/* the property, not the limit cut after kills */
		v->reason = LMKD_LOW_SWAP_AND_THRASHING;
		if (v->wmark > LMKD_WMARK_MIN && th < t->thrashing_critical)
			v->min_adj = above_perceptible;
		m->check_filecache = true;
	} else if (v->swap_low && v->wmark < LMKD_WMARK_HIGH) {
		v->reason = LMKD_LOW_MEM_AND_SWAP;
		if (v->wmark > LMKD_WMARK_MIN && th < t->thrashing_critical)
			v->min_adj = above_perceptible;
	} else if (v->wmark < LMKD_WMARK_HIGH && t->swap_util_max < 100 &&
		   swap_utilization(t, &s->mi) > t->swap_util_max) {
		v->reason = LMKD_LOW_MEM_AND_SWAP_UTIL;
	} else if (v->wmark < LMKD_WMARK_HIGH && th > m->thrashing_limit) {
		v->reason = LMKD_LOW_MEM_AND_THRASHING;
		v->cut_thrashing_limit = true;
		if (th < t->thrashing_critical)
			v->min_adj = above_perceptible;
		m->check_filecache = true;
	} else if (v->reclaim == LMKD_DIRECT_RECLAIM && th > m->thrashing_limit) {
		v->reason = LMKD_DIRECT_RECL_AND_THRASHING;
		v->cut_thrashing_limit = true;
		if (th < t->thrashing_critical)
			v->min_adj = above_perceptible;
		m->check_filecache = true;
	} else if (v->reclaim == LMKD_DIRECT_RECLAIM && t->direct_reclaim_threshold_ms > 0 &&
		   s->direct_reclaim_ms > t->direct_reclaim_threshold_ms) {
		v->reason = LMKD_DIRECT_RECL_STUCK;
	} else if (m->check_filecache) {
		if (s->vs.nr_inactive_file + s->vs.nr_active_file < t->filecache_min_pages) {
			v->reason = LMKD_LOW_FILECACHE_AFTER_THRASHING;
			v->min_adj = above_perceptible;
		} else {
			m->check_filecache = false;    /* enough page cache: stop looking */
		}
	}
	if (v->reason == LMKD_NO_KILL && v->wmark < LMKD_WMARK_HIGH) {
		v->reason = LMKD_LOW_MEM;
		v->min_adj = (int)t->lowmem_min_oom_score;
	}
}

/* Step 4: reclaim from the vmstat counters' movement since lmkd last saw them. */
static enum lmkd_reclaim reclaim_seen(struct lmkd_memory *m, const struct lmkd_vmstat *vs)
{
	if (vs->pgscan_direct != m->init_pgscan_direct) {
		m->init_pgscan_direct = vs->pgscan_direct;
		m->init_pgscan_kswapd = vs->pgscan_kswapd;
		m->init_pgrefill = vs->pgrefill;
		return LMKD_DIRECT_RECLAIM;
	}
	if (vs->pgscan_kswapd != m->init_pgscan_kswapd || vs->pgrefill != m->init_pgrefill) {
		m->init_pgscan_kswapd = vs->pgscan_kswapd;
		m->init_pgrefill = vs->pgrefill;
		return LMKD_KSWAPD_RECLAIM;
	}
	return LMKD_NO_RECLAIM;
}

struct lmkd_verdict lmkd_policy_decide(struct lmkd_memory *m, const struct lmkd_tunables *t,
				       const struct lmkd_sample *s, const struct lmkd_zone_reader *zr)
{
	struct lmkd_verdict v = { .exit = LMKD_DECIDED, .wmark = LMKD_WMARK_NONE };
	if (s->wake != LMKD_WAKE_POLL) {
		if (s->wake < m->prev_level) {
			v.exit = LMKD_EXIT_LOWER_EVENT;
			return v;
		}
		m->prev_level = s->wake;
	} else {
		m->prev_level = LMKD_WAKE_POLL;
	}
	if (m->kill_pending &&
	    (t->kill_timeout_ms == 0 || s->now_ms - m->last_kill_ms < t->kill_timeout_ms)) {
		v.exit = LMKD_EXIT_KILL_PENDING;
		return v;
	}
	m->kill_pending = false;             /* dead, or waited long enough */
	if (s->unreadable) {
		v.exit = LMKD_EXIT_UNREADABLE;
		return v;
	}

	long long refault = s->vs.workingset_refault_file;
	if (m->killing) {
		m->killing = false;
		v.cycle_after_kill = true;
		m->base_file_lru = s->vs.nr_inactive_file + s->vs.nr_active_file;
		m->init_ws_refault = refault;
		m->thrashing_reset_ms = s->now_ms;
		m->prev_thrash_growth = 0;
	}
	if (t->swap_free_low_percent)
		v.swap_low = free_swap(t, &s->mi) < s->mi.swap_total * t->swap_free_low_percent / 100;
	v.reclaim = reclaim_seen(m, &s->vs);
	if (v.reclaim == LMKD_NO_RECLAIM && refault == m->prev_ws_refault) {
		v.exit = LMKD_EXIT_NO_RECLAIM;
		return v;
	}
	m->prev_ws_refault = refault;
	v.thrashing = thrashing_now(m, t, s);
	v.critical_stall = s->full_avg10 > (double)t->stall_limit_critical;
	for (;;) {
		if (!m->have_wmarks || m->wmarks.high == 0 ||
		    s->now_ms - m->wmark_update_ms > LMKD_WMARK_REFRESH_MS) {
			if (!zr || zr->read(zr->ctx, &m->wmarks) < 0) {
				m->have_wmarks = false;
				v.exit = LMKD_EXIT_UNREADABLE;
				v.reason = LMKD_NO_KILL;
				return v;
			}
			m->have_wmarks = true;
			m->wmark_update_ms = s->now_ms;
		}
		v.wmark = lowest_breached(&s->mi, &m->wmarks);
		find_reason(m, t, s, &v);
		if (v.reason == LMKD_NO_KILL || m->first_kill_done)
			break;
		/* the watermarks are read again before the very first kill */
		m->first_kill_done = true;
		m->have_wmarks = false;
	}
	if (v.reason != LMKD_NO_KILL && v.critical_stall)
		v.min_adj = 0;
	return v;
}

void lmkd_policy_after_kill(struct lmkd_memory *m, const struct lmkd_tunables *t,
			    const struct lmkd_verdict *v, enum lmkd_wake wake, bool killed, int64_t now_ms)
{
	m->resume_now = false;
	/* these exits return before lmkd's no_kill: label: polling is left as it was */
	bool at_no_kill = v->exit != LMKD_EXIT_LOWER_EVENT && v->exit != LMKD_EXIT_UNREADABLE;
	if (at_no_kill && killed) {
		m->killing = true;
		if (v->cut_thrashing_limit)
			m->thrashing_limit = m->thrashing_limit * (100 - t->thrashing_limit_decay) / 100;
		m->kill_pending = true;
		m->last_kill_ms = now_ms;
	}
	if (at_no_kill && m->kill_pending) {
		/* the death is awaited on the victim's pidfd: no polls meanwhile */
		m->paused = true;
		m->polling = false;
		return;
	}
	bool start = false;
	if (at_no_kill) {
		start = wake != LMKD_WAKE_POLL || m->killing || v->reclaim == LMKD_DIRECT_RECLAIM;
		m->poll_interval_ms = v->swap_low || m->killing ? LMKD_POLL_SHORT_MS : LMKD_POLL_LONG_MS;
	}
	if (m->polling)
		m->last_poll_ms = now_ms;
	if (start) {
		m->polling = true;
		m->poll_start_ms = now_ms;
		m->last_poll_ms = now_ms;
	} else if (m->polling && now_ms - m->poll_start_ms > LMKD_POLL_WINDOW_MS) {
		m->polling = false;          /* polled for a whole PSI window */
	}
}

void lmkd_policy_victim_gone(struct lmkd_memory *m, int64_t now_ms)
{
	m->kill_pending = false;
	if (!m->paused)
		return;
	/* lmkd.cpp resume_polling(): at once, then every 10 ms */
	m->paused = false;
	m->polling = true;
	m->resume_now = true;
	m->poll_start_ms = now_ms;
	m->poll_interval_ms = LMKD_POLL_SHORT_MS;
}

long lmkd_policy_wait_ms(const struct lmkd_memory *m, const struct lmkd_tunables *t, int64_t now_ms)
{
	if (m->resume_now)
		return 0;
	if (m->polling) {
		/* as lmkd's mainloop: a poll already overdue waits one more interval
		 * for an event before it is made */
		int64_t since = now_ms - m->last_poll_ms;
		return since < m->poll_interval_ms ? (long)(m->poll_interval_ms - since) : m->poll_interval_ms;
	}
	if (m->kill_pending && t->kill_timeout_ms) {
		int64_t left = t->kill_timeout_ms - (now_ms - m->last_kill_ms);
		return left > 0 ? (long)left : 0;
	}
	return -1;
}

bool lmkd_policy_poll_due(const struct lmkd_memory *m, int64_t now_ms)
{
	return m->resume_now || (m->polling && now_ms - m->last_poll_ms >= m->poll_interval_ms);
}

bool lmkd_policy_kill_timed_out(const struct lmkd_memory *m, const struct lmkd_tunables *t, int64_t now_ms)
{
	return m->kill_pending && t->kill_timeout_ms && now_ms - m->last_kill_ms >= t->kill_timeout_ms;
}

static const char *const exit_names[LMKD_EXIT_COUNT] = {
	[LMKD_DECIDED] = "decided",
	[LMKD_EXIT_LOWER_EVENT] = "lower-event",
	[LMKD_EXIT_KILL_PENDING] = "kill-pending",
	[LMKD_EXIT_NO_RECLAIM] = "no-reclaim",
	[LMKD_EXIT_UNREADABLE] = "unreadable",
};

const char *lmkd_early_exit_name(enum lmkd_early_exit e)
{
	return (unsigned)e < LMKD_EXIT_COUNT ? exit_names[e] : NULL;
}
