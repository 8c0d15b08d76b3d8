/*
 * test-lmkd-policy.c - lmkd's decision as a table (workloads/lmkd/lmkd-policy.c).
 *
 * One row per kill reason and per early exit of lmkd's decision cycle,
 * each naming the AOSP file and function whose behaviour it encodes
 * (platform/system/memory/lmkd at 767ae23; the facts with their lines are in
 * docs/FIDELITY-LMKD.md, sections 1-2). Every row starts from one world
 * and changes what it names:
 *
 *   zone watermarks (pages, watermark + protection summed): min 1000, low 1250, high 1500;
 *   MemFree 5000 pages (above high), no CMA, Inactive(file) 10000;
 *   swap 65536 pages, 60000 free: lmkd's free swap min(60000, 5000 + 10000)
 *     is above its 10 % (6553);
 *   file LRU at the thrashing base 20000 pages, the base taken 500 ms ago;
 *   no reclaim since the last cycle; lmkd's low-RAM tunables (thrashing
 *   limit 30 %, critical 90 %, decay 50 %, LOW_MEM floor 701, kill timeout
 *   100 ms); the first kill already made (its watermark re-read has its own row).
 *
 * A row's thrashing is the % of refaults since the base it asks for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "common/proto/lmkd-config.h"
#include "workloads/lmkd/lmkd-policy.h"

#define NOW 100000
#define W_MIN 1000
#define W_LOW 1250
#define W_HIGH 1500
#define BASE_LRU 20000
#define BASE_REFAULT 50000
#define PGSCAN 7000

/* The zoneinfo the cycle reads when lmkd would read it again. */
struct zone_stub {
	struct lmkd_watermarks w;
	int reads;
	bool fails;
};

static int stub_read(void *ctx, struct lmkd_watermarks *out)
{
	struct zone_stub *z = ctx;
	z->reads++;
	if (z->fails)
		return -1;
	*out = z->w;
	return 0;
}

enum { NOT_SET = 0, PENDING = 1 };

struct row {
	const char *behaviour;
	const char *source;             /* AOSP file and function */
	/* the state: 0 keeps the base world's value */
	enum lmkd_wake wake;
	enum lmkd_wake prev_level;      /* an earlier event in the polling window */
	long long free;                 /* MemFree, pages */
	long long swap_free, inactive_file;
	int thrashing;                  /* % refaults since the base */
	long long direct, kswapd;       /* pgscan_direct / pgscan_kswapd moved by */
	bool refault_moved_only;        /* refaults moved by one page, no reclaim */
	bool after_kill;                /* the previous cycle killed */
	int pending_ms;                 /* > 0: the last kill, that long ago, not reported dead */
	long kill_timeout_ms;           /* -1: 0 (no limit) */
	int since_thrash_reset_ms;      /* 0: 500 */
	long long thrashing_limit_now;  /* the current (cut) limit; 0: the property */
	long long prev_growth;          /* the last window's thrashing, carried */
	bool check_filecache;
	int direct_reclaim_ms;
	double full_avg10;
	bool first_kill;                /* the first kill is still to come */
	int since_wmark_ms;             /* 0: 1000 */
	bool no_wmarks;                 /* never read yet */
	struct lmkd_watermarks zone;    /* what zoneinfo says when read again; 0: the base's */
	bool zone_fails;
	bool unreadable;                /* meminfo or vmstat unreadable */
	bool high_end;                  /* lmkd's tunables for a device that is not low-RAM */
	long swap_util_max, filecache_min_pages, direct_reclaim_threshold_ms, stall_limit_critical;
	/* the decision */
	enum lmkd_early_exit exit;
	enum lmkd_reason reason;
	int min_adj;
	int zone_reads;
};

static const struct lmkd_watermarks base_zone = { .min = W_MIN, .low = W_LOW, .high = W_HIGH };

static long long refaults_for(int percent)
{
	/* the fewest refaults that make PERCENT of (BASE_LRU + 1) */
	return ((long long)percent * (BASE_LRU + 1) + 99) / 100;
}

/* Sets up the world of R in M, T, S and Z. */
static void world(const struct row *r, struct lmkd_memory *m, struct lmkd_tunables *t,
		  struct lmkd_sample *s, struct zone_stub *z)
{
	lmkd_tunables_defaults(t, !r->high_end);
	if (r->kill_timeout_ms)
		t->kill_timeout_ms = r->kill_timeout_ms < 0 ? 0 : r->kill_timeout_ms;
	if (r->swap_util_max)
		t->swap_util_max = r->swap_util_max;
	if (r->filecache_min_pages)
		t->filecache_min_pages = r->filecache_min_pages;
	if (r->direct_reclaim_threshold_ms)
		t->direct_reclaim_threshold_ms = r->direct_reclaim_threshold_ms;
	if (r->stall_limit_critical)
		t->stall_limit_critical = r->stall_limit_critical;
	lmkd_policy_init(m, t);
	m->prev_level = r->prev_level;
	m->base_file_lru = BASE_LRU;
	m->init_ws_refault = m->prev_ws_refault = BASE_REFAULT;
	m->init_pgscan_direct = m->init_pgscan_kswapd = m->init_pgrefill = PGSCAN;
	m->thrashing_reset_ms = NOW - (r->since_thrash_reset_ms ? r->since_thrash_reset_ms : 500);
	if (r->thrashing_limit_now)
		m->thrashing_limit = r->thrashing_limit_now;
	m->prev_thrash_growth = r->prev_growth;
	m->killing = r->after_kill;
	m->check_filecache = r->check_filecache;
	m->first_kill_done = !r->first_kill;
	m->have_wmarks = !r->no_wmarks;
	m->wmarks = base_zone;
	m->wmark_update_ms = NOW - (r->since_wmark_ms ? r->since_wmark_ms : 1000);
	if (r->pending_ms) {
		m->kill_pending = true;
		m->last_kill_ms = NOW - r->pending_ms;
	}

	memset(s, 0, sizeof(*s));
	s->wake = r->wake;
	s->now_ms = NOW;
	s->mi.free = r->free ? r->free : 5000;
	s->mi.inactive_file = r->inactive_file ? r->inactive_file : 10000;
	s->mi.active_file = 10000;
	s->mi.swap_total = 65536;
	s->mi.swap_free = r->swap_free ? r->swap_free : 60000;
	s->vs.nr_inactive_file = s->vs.nr_active_file = BASE_LRU / 2;
	s->vs.workingset_refault_file = BASE_REFAULT + refaults_for(r->thrashing) + r->refault_moved_only;
	s->vs.pgscan_direct = PGSCAN + r->direct;
	s->vs.pgscan_kswapd = PGSCAN + r->kswapd;
	s->vs.pgrefill = PGSCAN;
	s->full_avg10 = r->full_avg10;
	s->direct_reclaim_ms = r->direct_reclaim_ms;
	s->unreadable = r->unreadable;

	memset(z, 0, sizeof(*z));
	z->w = r->zone.high ? r->zone : base_zone;
	z->fails = r->zone_fails;
}

static const struct row rows[] = {
	/* ---- early exits ---- */
	{ "a lower-level event within the first polling window is dropped",
	  "lmkd.cpp __mp_event_psi(): \"Ignoring %s pressure event; occurred too soon\"",
	  .wake = LMKD_WAKE_SOME, .prev_level = LMKD_WAKE_FULL, .free = 900, .kswapd = 10,
	  .exit = LMKD_EXIT_LOWER_EVENT },
	{ "a poll ends the window: the next partial event is heard",
	  "lmkd.cpp __mp_event_psi(): prev_level reset on a poll",
	  .wake = LMKD_WAKE_POLL, .prev_level = LMKD_WAKE_FULL, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "nothing is decided while the last victim lives and the kill timeout runs",
	  "lmkd.cpp __mp_event_psi(): is_kill_pending() and kill_timeout_ms",
	  .wake = LMKD_WAKE_FULL, .pending_ms = 50, .free = 900, .kswapd = 10,
	  .exit = LMKD_EXIT_KILL_PENDING },
	{ "kill_timeout_ms 0: the death is awaited with no limit",
	  "lmkd.cpp __mp_event_psi(): kill_timeout_ms == 0 skips while a kill is pending",
	  .wake = LMKD_WAKE_FULL, .pending_ms = 60000, .kill_timeout_ms = -1, .free = 900, .kswapd = 10,
	  .exit = LMKD_EXIT_KILL_PENDING },
	{ "once the kill timeout is over, lmkd decides again",
	  "lmkd.cpp __mp_event_psi(): stop_wait_for_proc_kill()",
	  .wake = LMKD_WAKE_SOME, .pending_ms = 150, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "no reclaim and no refault change: no kill, even below the min watermark",
	  "lmkd.cpp __mp_event_psi(): \"bail out early until we see these stats changing\"",
	  .wake = LMKD_WAKE_SOME, .free = 900,
	  .exit = LMKD_EXIT_NO_RECLAIM },
	{ "a refault change alone lets the cycle go on",
	  "lmkd.cpp __mp_event_psi(): workingset_refault_file against prev_workingset_refault",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .refault_moved_only = true,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "meminfo or vmstat unreadable: the cycle ends",
	  "lmkd.cpp __mp_event_psi(): vmstat_parse() or meminfo_parse() < 0",
	  .wake = LMKD_WAKE_FULL, .free = 900, .kswapd = 10, .unreadable = true,
	  .exit = LMKD_EXIT_UNREADABLE },
	{ "zoneinfo unreadable when the watermarks are due: the cycle ends",
	  "lmkd.cpp __mp_event_psi(): update_zoneinfo_watermarks() < 0",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .kswapd = 10, .no_wmarks = true, .zone_fails = true,
	  .exit = LMKD_EXIT_UNREADABLE, .zone_reads = 1 },

	/* ---- no reason: a partial stall alone does not kill ---- */
	{ "a partial stall with free memory above high and no thrashing: no kill",
	  "lmkd.cpp __mp_event_psi(): no kill_reason matches",
	  .wake = LMKD_WAKE_SOME, .kswapd = 10, .thrashing = 20,
	  .reason = LMKD_NO_KILL },
	{ "swap low alone is not a reason",
	  "lmkd.cpp __mp_event_psi(): swap_is_low only with thrashing or below high",
	  .wake = LMKD_WAKE_SOME, .kswapd = 10, .swap_free = 5000,
	  .reason = LMKD_NO_KILL },
	{ "direct reclaim without thrashing above the limit: no kill",
	  "lmkd.cpp __mp_event_psi(): DIRECT_RECL_AND_THRASHING needs thrashing > limit",
	  .wake = LMKD_WAKE_SOME, .direct = 10, .thrashing = 30,
	  .reason = LMKD_NO_KILL },
	{ "a poll is never NOT_RESPONDING",
	  "lmkd.cpp __mp_event_psi(): level == CRITICAL && events != 0",
	  .wake = LMKD_WAKE_POLL, .kswapd = 10,
	  .reason = LMKD_NO_KILL },

	/* ---- the reasons, in lmkd's order ---- */
	{ "PRESSURE_AFTER_KILL: below min in the cycle after a kill, down to adj 0",
	  "lmkd.cpp __mp_event_psi(): cycle_after_kill && wmark < WMARK_LOW",
	  .wake = LMKD_WAKE_POLL, .after_kill = true, .free = 900, .kswapd = 10,
	  .reason = LMKD_PRESSURE_AFTER_KILL, .min_adj = 0 },
	{ "after a kill, below low but above min is LOW_MEM, not PRESSURE_AFTER_KILL",
	  "lmkd.cpp __mp_event_psi(): cycle_after_kill && wmark < WMARK_LOW",
	  .wake = LMKD_WAKE_POLL, .after_kill = true, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "NOT_RESPONDING: a full stall event, down to adj 0",
	  "lmkd.cpp __mp_event_psi(): level == VMPRESS_LEVEL_CRITICAL && events != 0",
	  .wake = LMKD_WAKE_FULL, .kswapd = 10,
	  .reason = LMKD_NOT_RESPONDING, .min_adj = 0 },
	{ "LOW_SWAP_AND_THRASHING: swap low, thrashing over the limit, above min: adj 201",
	  "lmkd.cpp __mp_event_psi(): swap_is_low && thrashing > thrashing_limit_pct",
	  .wake = LMKD_WAKE_SOME, .swap_free = 5000, .thrashing = 40, .kswapd = 10,
	  .reason = LMKD_LOW_SWAP_AND_THRASHING, .min_adj = 201 },
	{ "LOW_SWAP_AND_THRASHING below the min watermark: adj 0",
	  "lmkd.cpp __mp_event_psi(): wmark > WMARK_MIN keeps PERCEPTIBLE_APP_ADJ + 1",
	  .wake = LMKD_WAKE_SOME, .swap_free = 5000, .thrashing = 40, .free = 900, .kswapd = 10,
	  .reason = LMKD_LOW_SWAP_AND_THRASHING, .min_adj = 0 },
	{ "LOW_SWAP_AND_THRASHING at 3x the limit: adj 0",
	  "lmkd.cpp __mp_event_psi(): thrashing < thrashing_critical_pct",
	  .wake = LMKD_WAKE_SOME, .swap_free = 5000, .thrashing = 95, .kswapd = 10,
	  .reason = LMKD_LOW_SWAP_AND_THRASHING, .min_adj = 0 },
	{ "LOW_SWAP_AND_THRASHING holds thrashing to the property, not the cut limit",
	  "lmkd.cpp __mp_event_psi(): thrashing_limit_pct, not thrashing_limit",
	  .wake = LMKD_WAKE_SOME, .swap_free = 5000, .thrashing = 20, .thrashing_limit_now = 15,
	  .kswapd = 10,
	  .reason = LMKD_NO_KILL },
	{ "LOW_MEM_AND_SWAP: swap low and below low: adj 201",
	  "lmkd.cpp __mp_event_psi(): swap_is_low && wmark < WMARK_HIGH",
	  .wake = LMKD_WAKE_SOME, .swap_free = 5000, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_SWAP, .min_adj = 201 },
	{ "LOW_MEM_AND_SWAP below min: adj 0",
	  "lmkd.cpp __mp_event_psi(): wmark > WMARK_MIN keeps PERCEPTIBLE_APP_ADJ + 1",
	  .wake = LMKD_WAKE_SOME, .swap_free = 5000, .free = 900, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_SWAP, .min_adj = 0 },
	{ "swap low by lmkd's measure: free RAM + Inactive(file) short, SwapFree plenty",
	  "lmkd.cpp get_free_swap(): min(SwapFree, easy_available * swap_compression_ratio)",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .inactive_file = 100, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_SWAP, .min_adj = 201 },
	{ "LOW_MEM_AND_SWAP_UTIL: below low, swap utilisation over swap_util_max: adj 0",
	  "lmkd.cpp __mp_event_psi(): calc_swap_utilization() > swap_util_max",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .swap_free = 30000, .swap_util_max = 50, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_SWAP_UTIL, .min_adj = 0 },
	{ "LOW_MEM_AND_SWAP_UTIL is off by default (swap_util_max 100)",
	  "lmkd.cpp update_props(): ro.lmk.swap_util_max default 100",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .swap_free = 30000, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "LOW_MEM_AND_THRASHING: below low, thrashing over the limit: adj 201",
	  "lmkd.cpp __mp_event_psi(): wmark < WMARK_HIGH && thrashing > thrashing_limit",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .thrashing = 40, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_THRASHING, .min_adj = 201 },
	{ "LOW_MEM_AND_THRASHING at 3x the limit: adj 0",
	  "lmkd.cpp __mp_event_psi(): thrashing < thrashing_critical_pct",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .thrashing = 95, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_THRASHING, .min_adj = 0 },
	{ "thrashing is compared strictly: exactly the limit is not thrashing",
	  "lmkd.cpp __mp_event_psi(): thrashing > thrashing_limit",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .thrashing = 30, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "a device that is not low-RAM: 40 % is under its 100 % limit",
	  "lmkd.cpp update_props(): ro.lmk.thrashing_limit 100, low-RAM 30",
	  .high_end = true, .wake = LMKD_WAKE_SOME, .free = 1200, .thrashing = 40, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "DIRECT_RECL_AND_THRASHING: direct reclaim, thrashing over the limit: adj 201",
	  "lmkd.cpp __mp_event_psi(): reclaim == DIRECT_RECLAIM && thrashing > thrashing_limit",
	  .wake = LMKD_WAKE_SOME, .direct = 10, .thrashing = 40,
	  .reason = LMKD_DIRECT_RECL_AND_THRASHING, .min_adj = 201 },
	{ "DIRECT_RECL_AND_THRASHING holds thrashing to the current (cut) limit",
	  "lmkd.cpp __mp_event_psi(): thrashing_limit after thrashing_limit_decay_pct",
	  .wake = LMKD_WAKE_SOME, .direct = 10, .thrashing = 20, .thrashing_limit_now = 15,
	  .reason = LMKD_DIRECT_RECL_AND_THRASHING, .min_adj = 201 },
	{ "kswapd reclaim is not direct reclaim",
	  "lmkd.cpp __mp_event_psi(): pgscan_kswapd/pgrefill give KSWAPD_RECLAIM",
	  .wake = LMKD_WAKE_SOME, .kswapd = 10, .thrashing = 40,
	  .reason = LMKD_NO_KILL },
	{ "DIRECT_RECL_STUCK: direct reclaim longer than its threshold: adj 0",
	  "lmkd.cpp __mp_event_psi(): direct_reclaim_duration_ms > direct_reclaim_threshold_ms",
	  .wake = LMKD_WAKE_SOME, .direct = 10, .direct_reclaim_ms = 300, .direct_reclaim_threshold_ms = 200,
	  .reason = LMKD_DIRECT_RECL_STUCK, .min_adj = 0 },
	{ "DIRECT_RECL_STUCK is off by default (threshold 0)",
	  "lmkd.cpp update_props(): ro.lmk.direct_reclaim_threshold_ms default 0",
	  .wake = LMKD_WAKE_SOME, .direct = 10, .direct_reclaim_ms = 300,
	  .reason = LMKD_NO_KILL },
	{ "LOW_FILECACHE_AFTER_THRASHING: after a thrashing kill, file LRU under filecache_min_kb: adj 201",
	  "lmkd.cpp __mp_event_psi(): check_filecache && file_lru_kb < filecache_min_kb",
	  .wake = LMKD_WAKE_SOME, .kswapd = 10, .check_filecache = true, .filecache_min_pages = 50000,
	  .reason = LMKD_LOW_FILECACHE_AFTER_THRASHING, .min_adj = 201 },
	{ "LOW_FILECACHE_AFTER_THRASHING is off by default (filecache_min_kb 0)",
	  "lmkd.cpp update_props(): ro.lmk.filecache_min_kb default 0",
	  .wake = LMKD_WAKE_SOME, .kswapd = 10, .check_filecache = true,
	  .reason = LMKD_NO_KILL },
	{ "below high but above low: no kill (lmkd's wmark < WMARK_HIGH is low or min breached)",
	  "lmkd.cpp get_lowest_watermark(): WMARK_HIGH is only the high watermark breached",
	  .wake = LMKD_WAKE_SOME, .free = 1400, .kswapd = 10,
	  .reason = LMKD_NO_KILL },
	{ "LOW_MEM: below low and nothing else: adj 701, the previous app (700) spared",
	  "lmkd.cpp __mp_event_psi(): kill_reason == NONE && wmark < WMARK_HIGH, lowmem_min_oom_score",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "LOW_MEM below min is still 701",
	  "lmkd.cpp __mp_event_psi(): lowmem_min_oom_score",
	  .wake = LMKD_WAKE_POLL, .free = 900, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "a critical stall (full avg10 over stall_limit_critical) takes the floor to 0",
	  "lmkd.cpp __mp_event_psi(): critical_stall sets min_score_adj 0",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .kswapd = 10, .full_avg10 = 60, .stall_limit_critical = 50,
	  .reason = LMKD_LOW_MEM, .min_adj = 0 },
	{ "the critical stall is off by default (avg10 cannot exceed 100)",
	  "lmkd.cpp update_props(): ro.lmk.stall_limit_critical default 100",
	  .wake = LMKD_WAKE_SOME, .free = 1200, .kswapd = 10, .full_avg10 = 99.9,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },

	/* ---- the watermarks ---- */
	{ "free memory is MemFree against watermark + protection; above high: no kill",
	  "lmkd.cpp get_lowest_watermark(), calc_zone_watermarks()",
	  .wake = LMKD_WAKE_SOME, .free = 1500, .kswapd = 10,
	  .reason = LMKD_NO_KILL },
	{ "the watermarks are read again after 60 s",
	  "lmkd.cpp __mp_event_psi(): get_time_diff_ms(&wmark_update_tm) > 60000",
	  .wake = LMKD_WAKE_SOME, .since_wmark_ms = 60001, .zone = { .min = 4000, .low = 5500, .high = 6000 },
	  .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701, .zone_reads = 1 },
	{ "... and not before",
	  "lmkd.cpp __mp_event_psi(): get_time_diff_ms(&wmark_update_tm) > 60000",
	  .wake = LMKD_WAKE_SOME, .since_wmark_ms = 59000, .zone = { .min = 4000, .low = 5500, .high = 6000 },
	  .kswapd = 10,
	  .reason = LMKD_NO_KILL, .zone_reads = 0 },
	{ "the first kill reads the watermarks again and decides again",
	  "lmkd.cpp __mp_event_psi(): first_kill, goto update_watermarks",
	  .wake = LMKD_WAKE_SOME, .first_kill = true, .free = 1600, .direct = 10, .thrashing = 40,
	  .zone = { .min = 1000, .low = 2000, .high = 2500 },
	  .reason = LMKD_LOW_MEM_AND_THRASHING, .min_adj = 201, .zone_reads = 1 },
	{ "... where a reason found before stands if none holds after the re-read",
	  "lmkd.cpp __mp_event_psi(): kill_reason is not reset before goto update_watermarks",
	  .wake = LMKD_WAKE_SOME, .first_kill = true, .free = 1200, .kswapd = 10,
	  .zone = { .min = 10, .low = 20, .high = 30 },
	  .reason = LMKD_LOW_MEM, .min_adj = 701, .zone_reads = 1 },

	/* ---- thrashing's windows ---- */
	{ "a window ended over the limit: its growth is kept whole, so the kill is tried again",
	  "lmkd.cpp __mp_event_psi(): windows_passed > 1 || prev_thrash_growth < thrashing_limit",
	  .wake = LMKD_WAKE_SOME, .since_thrash_reset_ms = 1500, .thrashing = 40, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_THRASHING, .min_adj = 201 },
	{ "two windows passed: the growth is halved twice (40 -> 10)",
	  "lmkd.cpp __mp_event_psi(): prev_thrash_growth >>= windows_passed",
	  .wake = LMKD_WAKE_SOME, .since_thrash_reset_ms = 2500, .thrashing = 40, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "after a kill the thrashing base is reset: the old refaults count no more",
	  "lmkd.cpp __mp_event_psi(): \"Reset file-backed pagecache size and refault amounts after a kill\"",
	  .wake = LMKD_WAKE_POLL, .after_kill = true, .thrashing = 40, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "... and the last window's growth cleared",
	  "lmkd.cpp __mp_event_psi(): prev_thrash_growth = 0 after a kill",
	  .wake = LMKD_WAKE_POLL, .after_kill = true, .prev_growth = 40, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM, .min_adj = 701 },
	{ "without a kill, the last window's growth adds to this one's",
	  "lmkd.cpp __mp_event_psi(): thrashing += prev_thrash_growth",
	  .wake = LMKD_WAKE_POLL, .prev_growth = 20, .thrashing = 20, .free = 1200, .kswapd = 10,
	  .reason = LMKD_LOW_MEM_AND_THRASHING, .min_adj = 201 },
};

static void decision_table(void **state)
{
	(void)state;
	int failed = 0;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct lmkd_memory m;
		struct lmkd_tunables t;
		struct lmkd_sample s;
		struct zone_stub z;
		world(r, &m, &t, &s, &z);
		struct lmkd_zone_reader zr = { stub_read, &z };
		struct lmkd_verdict v = lmkd_policy_decide(&m, &t, &s, &zr);
		int want_adj = r->reason == LMKD_NO_KILL ? 0 : r->min_adj;
		int got_adj = v.reason == LMKD_NO_KILL ? 0 : v.min_adj;
		if (v.exit != r->exit || v.reason != r->reason || got_adj != want_adj || z.reads != r->zone_reads) {
			printf("row %zu: %s\n  (%s)\n  want %s %s adj %d (%d zoneinfo reads), got %s %s adj %d (%d)\n",
			       i + 1, r->behaviour, r->source, lmkd_early_exit_name(r->exit),
			       lmkd_reason_name(r->reason), want_adj, r->zone_reads, lmkd_early_exit_name(v.exit),
			       lmkd_reason_name(v.reason), got_adj, z.reads);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* ---- polling and the cycles that follow a kill (lmkd.cpp call_handler(),
 * mainloop(), resume_polling(), __mp_event_psi()'s no_kill: label) ---- */

/* A sample of R's world at time NOW_MS; M is left as it is. */
static struct lmkd_sample sample_at(const struct row *r, int64_t now_ms)
{
	struct lmkd_memory m;
	struct lmkd_tunables t;
	struct lmkd_sample s;
	struct zone_stub z;
	world(r, &m, &t, &s, &z);
	s.now_ms = now_ms;
	return s;
}

struct cycle {
	struct lmkd_memory m;
	struct lmkd_tunables t;
	struct zone_stub z;
	struct lmkd_zone_reader zr;
};

static void cycle_start(struct cycle *c, const struct row *r)
{
	struct lmkd_sample s;
	world(r, &c->m, &c->t, &s, &c->z);
	c->zr = (struct lmkd_zone_reader){ stub_read, &c->z };
}

/* One cycle at NOW in R's world; KILL: whether a victim is found and killed. */
static struct lmkd_verdict cycle_run(struct cycle *c, const struct row *r, int64_t now, bool kill)
{
	struct lmkd_sample s = sample_at(r, now);
	/* the counters only move forward: each cycle's pgscan is ahead of the last */
	s.vs.pgscan_kswapd += now;
	s.vs.pgscan_direct = r->direct ? PGSCAN + r->direct + now : c->m.init_pgscan_direct;
	struct lmkd_verdict v = lmkd_policy_decide(&c->m, &c->t, &s, &c->zr);
	lmkd_policy_after_kill(&c->m, &c->t, &v, r->wake, kill && v.reason != LMKD_NO_KILL, now);
	return v;
}

/* lmkd.cpp __mp_event_psi(): POLLING_START after an event; PSI_POLL_PERIOD_LONG_MS */
static void an_event_starts_a_second_of_polls_at_100ms(void **state)
{
	(void)state;
	const struct row event = { .wake = LMKD_WAKE_SOME, .kswapd = 10 };
	const struct row poll = { .wake = LMKD_WAKE_POLL, .kswapd = 10 };
	struct cycle c;
	cycle_start(&c, &event);
	assert_int_equal(lmkd_policy_wait_ms(&c.m, &c.t, NOW), -1);     /* asleep until an event */
	assert_int_equal(cycle_run(&c, &event, NOW, true).reason, LMKD_NO_KILL);
	assert_true(c.m.polling);
	assert_int_equal(c.m.poll_interval_ms, 100);
	assert_int_equal(lmkd_policy_wait_ms(&c.m, &c.t, NOW + 30), 70);
	assert_false(lmkd_policy_poll_due(&c.m, NOW + 99));
	assert_true(lmkd_policy_poll_due(&c.m, NOW + 100));
	int polls = 0;
	for (int64_t t = NOW + 100; c.m.polling; t += 100, polls++)
		cycle_run(&c, &poll, t, true);
	/* polls at +100 ... +1000 go on; the one at +1100 finds the window over */
	assert_int_equal(polls, 11);
	assert_int_equal(lmkd_policy_wait_ms(&c.m, &c.t, NOW + 1200), -1);
}

/* lmkd.cpp __mp_event_psi(): "extend polling while device is in direct
 * reclaim ...; do not extend when kswapd reclaims" */
static void direct_reclaim_extends_polling_kswapd_does_not(void **state)
{
	(void)state;
	const struct row event = { .wake = LMKD_WAKE_SOME, .kswapd = 10 };
	const struct row kswapd = { .wake = LMKD_WAKE_POLL, .kswapd = 10 };
	const struct row direct = { .wake = LMKD_WAKE_POLL, .direct = 10 };
	struct cycle c;
	cycle_start(&c, &event);
	cycle_run(&c, &event, NOW, false);
	cycle_run(&c, &kswapd, NOW + 1001, false);
	assert_false(c.m.polling);
	cycle_start(&c, &event);
	cycle_run(&c, &event, NOW, false);
	assert_int_equal(cycle_run(&c, &direct, NOW + 1001, false).reclaim, LMKD_DIRECT_RECLAIM);
	assert_true(c.m.polling);
	assert_int_equal(c.m.poll_start_ms, NOW + 1001);
}

/* lmkd.cpp __mp_event_psi(): PSI_POLL_PERIOD_SHORT_MS when swap_is_low */
static void swap_low_polls_at_10ms(void **state)
{
	(void)state;
	const struct row event = { .wake = LMKD_WAKE_SOME, .kswapd = 10, .swap_free = 5000 };
	struct cycle c;
	cycle_start(&c, &event);
	struct lmkd_verdict v = cycle_run(&c, &event, NOW, true);
	assert_true(v.swap_low);
	assert_int_equal(v.reason, LMKD_NO_KILL);
	assert_int_equal(c.m.poll_interval_ms, 10);
}

/*
 * A kill pauses polling until the victim's death (lmkd.cpp
 * is_waiting_for_kill(): POLLING_PAUSE); the death resumes it at once at 10 ms
 * (resume_polling()); the next cycle is a cycle after a kill, and while free
 * memory stays below min it kills again down to adj 0 (PRESSURE_AFTER_KILL);
 * once above min but below low, LOW_MEM's 701 again.
 */
static void kills_go_on_while_below_min(void **state)
{
	(void)state;
	const struct row low = { .wake = LMKD_WAKE_SOME, .kswapd = 10, .free = 1200 };
	const struct row min = { .wake = LMKD_WAKE_POLL, .kswapd = 10, .free = 900 };
	const struct row low_poll = { .wake = LMKD_WAKE_POLL, .kswapd = 10, .free = 1200 };
	const struct row full = { .wake = LMKD_WAKE_FULL, .kswapd = 10, .free = 900 };
	struct cycle c;
	cycle_start(&c, &low);
	struct lmkd_verdict v = cycle_run(&c, &low, NOW, true);
	assert_int_equal(v.reason, LMKD_LOW_MEM);
	assert_int_equal(v.min_adj, 701);
	assert_true(c.m.paused);
	assert_false(c.m.polling);
	assert_int_equal(lmkd_policy_wait_ms(&c.m, &c.t, NOW + 30), 70);  /* the kill timeout left */
	/* a full event while the victim lives: skipped */
	assert_int_equal(cycle_run(&c, &full, NOW + 40, true).exit, LMKD_EXIT_KILL_PENDING);
	lmkd_policy_victim_gone(&c.m, NOW + 50);
	assert_int_equal(lmkd_policy_wait_ms(&c.m, &c.t, NOW + 50), 0);
	assert_true(lmkd_policy_poll_due(&c.m, NOW + 50));
	assert_int_equal(c.m.poll_interval_ms, 10);
	v = cycle_run(&c, &min, NOW + 50, true);
	assert_true(v.cycle_after_kill);
	assert_int_equal(v.reason, LMKD_PRESSURE_AFTER_KILL);
	assert_int_equal(v.min_adj, 0);
	lmkd_policy_victim_gone(&c.m, NOW + 60);
	v = cycle_run(&c, &low_poll, NOW + 60, true);
	assert_int_equal(v.reason, LMKD_LOW_MEM);
	assert_int_equal(v.min_adj, 701);
	/* no victim found: not a kill; polling goes on at 100 ms */
	lmkd_policy_victim_gone(&c.m, NOW + 70);
	v = cycle_run(&c, &low_poll, NOW + 70, false);
	assert_true(v.cycle_after_kill);
	assert_false(c.m.killing);
	assert_true(c.m.polling);
	assert_int_equal(c.m.poll_interval_ms, 100);
}

/* lmkd.cpp mainloop(): the kill timeout ends the wait; 0 waits for the death with no limit */
static void kill_timeout_ends_the_wait_unless_0(void **state)
{
	(void)state;
	const struct row low = { .wake = LMKD_WAKE_SOME, .kswapd = 10, .free = 1200 };
	struct cycle c;
	cycle_start(&c, &low);
	cycle_run(&c, &low, NOW, true);
	assert_false(lmkd_policy_kill_timed_out(&c.m, &c.t, NOW + 99));
	assert_true(lmkd_policy_kill_timed_out(&c.m, &c.t, NOW + 100));
	const struct row forever = { .wake = LMKD_WAKE_SOME, .kswapd = 10, .free = 1200, .kill_timeout_ms = -1 };
	cycle_start(&c, &forever);
	cycle_run(&c, &forever, NOW, true);
	assert_int_equal(lmkd_policy_wait_ms(&c.m, &c.t, NOW + 5000), -1);
	assert_false(lmkd_policy_kill_timed_out(&c.m, &c.t, NOW + 60000));
	assert_int_equal(cycle_run(&c, &forever, NOW + 60000, true).exit, LMKD_EXIT_KILL_PENDING);
}

/* lmkd.cpp __mp_event_psi(): cut_thrashing_limit after LOW_MEM_AND_THRASHING
 * and DIRECT_RECL_AND_THRASHING kills, by thrashing_limit_decay_pct; the
 * property comes back with the next thrashing window */
static void thrashing_kills_cut_the_limit(void **state)
{
	(void)state;
	const struct row thrash = { .wake = LMKD_WAKE_SOME, .free = 1200, .thrashing = 40, .kswapd = 10 };
	struct cycle c;
	cycle_start(&c, &thrash);
	assert_int_equal(cycle_run(&c, &thrash, NOW, true).reason, LMKD_LOW_MEM_AND_THRASHING);
	assert_int_equal(c.m.thrashing_limit, 15);              /* 30 less 50 % */
	const struct row lowmem = { .wake = LMKD_WAKE_SOME, .free = 1200, .kswapd = 10 };
	cycle_start(&c, &lowmem);
	assert_int_equal(cycle_run(&c, &lowmem, NOW, true).reason, LMKD_LOW_MEM);
	assert_int_equal(c.m.thrashing_limit, 30);              /* LOW_MEM cuts nothing */
	cycle_start(&c, &thrash);
	c.m.thrashing_limit = 15;
	lmkd_policy_victim_gone(&c.m, NOW);
	const struct row later = { .wake = LMKD_WAKE_SOME, .kswapd = 10, .since_thrash_reset_ms = 500 };
	cycle_run(&c, &later, NOW + 600, false);                /* 1100 ms since the base: a new window */
	assert_int_equal(c.m.thrashing_limit, 30);
}

/* lmkd.cpp update_props(): the low-RAM defaults against the others */
static void low_ram_defaults(void **state)
{
	(void)state;
	struct lmkd_tunables lo, hi;
	lmkd_tunables_defaults(&lo, true);
	lmkd_tunables_defaults(&hi, false);
	assert_int_equal(lo.thrashing_limit, 30);
	assert_int_equal(lo.thrashing_limit_decay, 50);
	assert_int_equal(lo.thrashing_critical, 90);
	assert_int_equal(hi.thrashing_limit, 100);
	assert_int_equal(hi.thrashing_limit_decay, 10);
	assert_int_equal(hi.thrashing_critical, 300);
	assert_int_equal(lo.lowmem_min_oom_score, 701);
	assert_int_equal(hi.lowmem_min_oom_score, 701);
	assert_int_equal(lo.kill_timeout_ms, 100);
	assert_int_equal(lo.swap_free_low_percent, 10);
	/* the key's 0 is off: no thrashing is over the limit */
	struct lmkd_config c;
	lmkd_config_defaults(&c);
	c.v[LMKD_THRASHING_LIMIT_PERCENT] = 0;
	struct lmkd_tunables off;
	lmkd_tunables_from_config(&off, &c);
	assert_true(off.thrashing_limit > 1000000000L);
	assert_true(off.thrashing_critical > off.thrashing_limit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decision_table),
		cmocka_unit_test(an_event_starts_a_second_of_polls_at_100ms),
		cmocka_unit_test(direct_reclaim_extends_polling_kswapd_does_not),
		cmocka_unit_test(swap_low_polls_at_10ms),
		cmocka_unit_test(kills_go_on_while_below_min),
		cmocka_unit_test(kill_timeout_ends_the_wait_unless_0),
		cmocka_unit_test(thrashing_kills_cut_the_limit),
		cmocka_unit_test(low_ram_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
