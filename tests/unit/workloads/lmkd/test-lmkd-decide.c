/* test-lmkd-decide.c - the low-memory killer's decisions on data: the
 * trigger text the kernel takes, why and how deep it kills, which process
 * it takes, and the stall it says it saw over a window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/kernel-text/lmkd-lines.h"
#include "workloads/lmkd/lmkd-decide.h"

static void trigger_text_is_microseconds(void **state)
{
	(void)state;
	char buf[64];
	assert_int_equal(lmkd_trigger_text(buf, sizeof(buf), "some", 70, 1000), 18);
	assert_string_equal(buf, "some 70000 1000000");
	lmkd_trigger_text(buf, sizeof(buf), "full", 700, 1000);
	assert_string_equal(buf, "full 700000 1000000");
	lmkd_trigger_text(buf, sizeof(buf), "some", 200, 10000);
	assert_string_equal(buf, "some 200000 10000000");
	assert_int_equal(lmkd_trigger_text(buf, sizeof(buf), "avg", 70, 1000), -1);
	assert_int_equal(lmkd_trigger_text(buf, 8, "some", 70, 1000), -1);
}

static void pressure_decides_reason_and_depth(void **state)
{
	(void)state;
	struct lmkd_pressure p = { .swap_total_kb = 1000, .swap_free_kb = 500,
				   .swap_free_low_percent = 10, .thrashing_percent = 20,
				   .thrashing_limit = 100 };
	assert_null(lmkd_decide(&p).reason);                    /* no event: no kill */
	p.some_fired = true;
	struct lmkd_decision d = lmkd_decide(&p);
	assert_string_equal(d.reason, LMKD_REASON_PSI_PARTIAL);
	assert_int_equal(d.min_adj, 900);                       /* cached only */
	p.swap_free_kb = 99;                                    /* below 10% of 1000 */
	d = lmkd_decide(&p);
	assert_string_equal(d.reason, LMKD_REASON_SWAP_LOW);
	assert_int_equal(d.min_adj, 201);                       /* services and cached */
	p.swap_free_kb = 100;                                   /* exactly 10%: not low */
	assert_string_equal(lmkd_decide(&p).reason, LMKD_REASON_PSI_PARTIAL);
	p.swap_free_low_percent = 0;                            /* off */
	p.swap_free_kb = 0;
	assert_string_equal(lmkd_decide(&p).reason, LMKD_REASON_PSI_PARTIAL);
	p.swap_total_kb = 0;                                    /* no swap is not low swap */
	p.swap_free_low_percent = 10;
	assert_string_equal(lmkd_decide(&p).reason, LMKD_REASON_PSI_PARTIAL);
	p.thrashing_percent = 100;
	d = lmkd_decide(&p);
	assert_string_equal(d.reason, LMKD_REASON_THRASHING);
	assert_int_equal(d.min_adj, 201);
	p.thrashing_limit = 0;                                  /* off */
	assert_string_equal(lmkd_decide(&p).reason, LMKD_REASON_PSI_PARTIAL);
	p.full_fired = true;
	d = lmkd_decide(&p);
	assert_string_equal(d.reason, LMKD_REASON_PSI_COMPLETE);
	assert_int_equal(d.min_adj, 0);                         /* down to foreground */
	p.some_fired = false;
	assert_string_equal(lmkd_decide(&p).reason, LMKD_REASON_PSI_COMPLETE);
}

static void thrashing_is_refaults_over_file_lru(void **state)
{
	(void)state;
	assert_int_equal(lmkd_thrashing_percent(1500, 1000, 999), 50);
	assert_int_equal(lmkd_thrashing_percent(1000, 1000, 999), 0);
	assert_int_equal(lmkd_thrashing_percent(900, 1000, 999), 0);    /* counters never go back */
	assert_int_equal(lmkd_thrashing_percent(10, 0, 0), 1000);       /* no page cache left */
}

static void victim_is_highest_tier_then_largest_rss(void **state)
{
	(void)state;
	struct lmkd_proc procs[] = {
		{ .pid = 10, .comm = "fg", .adj = 0, .rss_kb = 90000 },
		{ .pid = 11, .comm = "visible", .adj = 100, .rss_kb = 50000 },
		{ .pid = 12, .comm = "cached-small", .adj = 999, .rss_kb = 1000 },
		{ .pid = 13, .comm = "cached-big", .adj = 900, .rss_kb = 8000 },
		{ .pid = 14, .comm = "service", .adj = 500, .rss_kb = 70000 },
		{ .pid = 15, .comm = "agent", .adj = -1000, .rss_kb = 999999 },
		{ .pid = 16, .comm = "kthreadd", .adj = 999, .rss_kb = 99999, .kernel_thread = true },
		{ .pid = 17, .comm = "no-memory", .adj = 999, .rss_kb = 0 },
	};
	size_t n = sizeof(procs) / sizeof(procs[0]);
	/* cached first, and among the cached the largest, not the highest adj */
	assert_int_equal(lmkd_choose_victim(procs, n, 900), 3);
	assert_int_equal(lmkd_choose_victim(procs, n, 201), 3);
	procs[3].adj = -1;                                      /* gone */
	assert_int_equal(lmkd_choose_victim(procs, n, 900), 2);
	procs[2].adj = -1;
	assert_int_equal(lmkd_choose_victim(procs, n, 900), -1);        /* no cached left */
	assert_int_equal(lmkd_choose_victim(procs, n, 201), 4);         /* the service */
	procs[4].adj = -1;
	assert_int_equal(lmkd_choose_victim(procs, n, 201), -1);        /* perceptible and up are safe */
	assert_int_equal(lmkd_choose_victim(procs, n, 0), 1);           /* visible before foreground */
	procs[1].adj = -1;
	assert_int_equal(lmkd_choose_victim(procs, n, 0), 0);
	procs[0].adj = -1;
	/* never below 0, even asked to */
	assert_int_equal(lmkd_choose_victim(procs, n, -1000), -1);
	/* within a tier and RSS, the higher adj, then the lower pid */
	struct lmkd_proc ties[] = {
		{ .pid = 30, .adj = 900, .rss_kb = 5 },
		{ .pid = 31, .adj = 950, .rss_kb = 5 },
		{ .pid = 29, .adj = 950, .rss_kb = 5 },
	};
	assert_int_equal(lmkd_choose_victim(ties, 3, 900), 2);
	/* pid 1 is never taken */
	struct lmkd_proc init[] = { { .pid = 1, .adj = 999, .rss_kb = 5 } };
	assert_int_equal(lmkd_choose_victim(init, 1, 0), -1);
}

static void stall_over_window_from_samples(void **state)
{
	(void)state;
	static struct lmkd_samples s;
	memset(&s, 0, sizeof(s));
	assert_int_equal(lmkd_stall_over_window(&s, 1000), 0);
	/* no stall for 2 s, then 100 ms of stall every 100 ms from t=2000 */
	for (int64_t t = 0; t <= 2000; t += 100)
		lmkd_samples_add(&s, t, 5000);
	uint64_t total = 5000;
	for (int64_t t = 2100; t <= 3000; t += 100) {
		total += 100000;
		lmkd_samples_add(&s, t, total);
	}
	assert_int_equal(lmkd_stall_over_window(&s, 1000), 1000);
	assert_int_equal(lmkd_stall_over_window(&s, 500), 500);
	/* a 70 ms threshold is reached at the first stalled sample, 700 ms at the seventh */
	assert_int_equal(lmkd_first_crossing(&s, 1000, 70, 0), 2100);
	assert_int_equal(lmkd_first_crossing(&s, 1000, 700, 0), 2700);
	assert_int_equal(lmkd_first_crossing(&s, 1000, 700, 2700), 2800);
	assert_int_equal(lmkd_first_crossing(&s, 1000, 1001, 0), -1);
	/* interpolated between samples: half of a 100 ms step */
	static struct lmkd_samples h;
	memset(&h, 0, sizeof(h));
	lmkd_samples_add(&h, 0, 0);
	lmkd_samples_add(&h, 1000, 1000000);
	lmkd_samples_add(&h, 1500, 1000000);
	assert_int_equal(lmkd_stall_over_window(&h, 1000), 500);
	/* a ring: the oldest go */
	for (int64_t t = 2000; t < 2000 + 2 * LMKD_SAMPLES; t++)
		lmkd_samples_add(&h, t, (uint64_t)t * 1000);
	assert_int_equal(h.n, LMKD_SAMPLES);
	assert_int_equal(lmkd_stall_over_window(&h, 100), 100);
	/* more than the samples reach back: from the oldest */
	assert_int_equal(lmkd_stall_over_window(&h, 100000), LMKD_SAMPLES - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trigger_text_is_microseconds),
		cmocka_unit_test(pressure_decides_reason_and_depth),
		cmocka_unit_test(thrashing_is_refaults_over_file_lru),
		cmocka_unit_test(victim_is_highest_tier_then_largest_rss),
		cmocka_unit_test(stall_over_window_from_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
