/* test-lmkd-lines.c - the low-memory killer's kernel log lines: what the
 * guest writes is what the host reads back, field for field, and nothing
 * else is taken for one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/kernel-text/lmkd-lines.h"

static void kill_line_reads_as_lmkd_writes_it(void **state)
{
	(void)state;
	struct lmkd_kill_line k;
	const char *text = "lmkd: Kill 'app-03' (1234), oom_score_adj 900 (cached) to free 45678kB rss, "
			   "1024kB swap; reason: psi-partial; psi some 12.34 full 3.21; t_mono_ns 19355302123, "
			   "sent by 19355302987";
	assert_true(lmkd_parse_kill(text, &k));
	assert_string_equal(k.comm, "app-03");
	assert_int_equal(k.pid, 1234);
	assert_int_equal(k.oom_score_adj, 900);
	assert_string_equal(k.tier, "cached");
	assert_int_equal(k.rss_kb, 45678);
	assert_int_equal(k.swap_kb, 1024);
	assert_string_equal(k.reason, "psi-partial");
	assert_float_equal(k.psi_some, 12.34, 1e-9);
	assert_float_equal(k.psi_full, 3.21, 1e-9);
	assert_int_equal(k.t_mono_ns, 19355302123ULL);
	assert_int_equal(k.t_sent_ns, 19355302987ULL);
	char buf[320];
	lmkd_format_kill(buf, sizeof(buf), &k);
	assert_string_equal(buf, text);
	assert_false(k.have_mem);
	/* with what the decision compared */
	const char *mem = "lmkd: Kill 'old-900' (321), oom_score_adj 900 (cached) to free 8200kB rss, "
			  "0kB swap; reason: LOW_MEM_AND_SWAP; psi some 40.10 full 2.00; t_mono_ns 5, "
			  "sent by 6; free 4012kB, watermarks min 3924kB low 4436kB high 4948kB";
	assert_true(lmkd_parse_kill(mem, &k));
	assert_true(k.have_mem);
	assert_int_equal(k.free_kb, 4012);
	assert_int_equal(k.wmark_min_kb, 3924);
	assert_int_equal(k.wmark_low_kb, 4436);
	assert_int_equal(k.wmark_high_kb, 4948);
	assert_int_equal(k.t_sent_ns, 6);
	assert_string_equal(k.reason, "LOW_MEM_AND_SWAP");
	lmkd_format_kill(buf, sizeof(buf), &k);
	assert_string_equal(buf, mem);
	/* cut short, or more after it: not a kill line */
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: LOW_MEM; psi some 1.00 full 0.00; t_mono_ns 1, sent by 2; free 3kB, "
				     "watermarks min 1kB low 2kB", &k));
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: LOW_MEM; psi some 1.00 full 0.00; t_mono_ns 1, sent by 2; free 3kB, "
				     "watermarks min 1kB low 2kB high 4kB!", &k));
	/* an older killer's line, without "sent by": read, the second time 0 */
	assert_true(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				    "reason: swap-low; psi some 1.00 full 0.00; t_mono_ns 17", &k));
	assert_int_equal(k.t_mono_ns, 17);
	assert_int_equal(k.t_sent_ns, 0);
}

static void kill_line_round_trips_awkward_comms(void **state)
{
	(void)state;
	const char *comms[] = { "a' (b", "x), oom_score_adj 5", "with space", "(paren)", "'", "" };
	for (size_t i = 0; i < sizeof(comms) / sizeof(comms[0]); i++) {
		struct lmkd_kill_line k = { .pid = 42 + (int)i, .oom_score_adj = 100 * (int)i,
					    .rss_kb = 1000 + (long long)i, .swap_kb = 7, .psi_some = 0.5,
					    .t_mono_ns = 1000000000ULL * i, .t_sent_ns = 1000000000ULL * i + 5,
					    .psi_full = 0 };
		strcpy(k.comm, comms[i]);
		strcpy(k.tier, "visible");
		strcpy(k.reason, "LOW_FILECACHE_AFTER_THRASHING");
		char buf[256];
		lmkd_format_kill(buf, sizeof(buf), &k);
		struct lmkd_kill_line back;
		if (!lmkd_parse_kill(buf, &back))
			fail_msg("'%s' does not parse", buf);
		assert_string_equal(back.comm, comms[i]);
		assert_int_equal(back.pid, k.pid);
		assert_int_equal(back.oom_score_adj, k.oom_score_adj);
		assert_int_equal(back.rss_kb, k.rss_kb);
		assert_int_equal(back.swap_kb, 7);
		assert_int_equal(back.t_mono_ns, 1000000000ULL * i);
		assert_int_equal(back.t_sent_ns, 1000000000ULL * i + 5);
		assert_string_equal(back.tier, "visible");
		assert_string_equal(back.reason, "LOW_FILECACHE_AFTER_THRASHING");
	}
}

static void not_kill_lines(void **state)
{
	(void)state;
	struct lmkd_kill_line k;
	assert_false(lmkd_parse_kill("Out of memory: Killed process 130 (oom-hog) total-vm:1kB", &k));
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (12), oom_score_adj 900 (cached) to free 1kB rss", &k));
	/* the line before it said the swap */
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss; "
				     "reason: swap-low; psi some 1.00 full 0.00", &k));
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (x), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: swap-low; psi some 1.00 full 0.00; t_mono_ns 1", &k));
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: swap-low; psi some 1.00 full 0.00; t_mono_ns 1 and more", &k));
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: swap-low; psi some 1.00 full 0.00; t_mono_ns 1, sent by x", &k));
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: swap-low; psi some 1.00 full 0.00; t_mono_ns 1, sent by 2 and more", &k));
	/* without its time */
	assert_false(lmkd_parse_kill("lmkd: Kill 'a' (1), oom_score_adj 900 (cached) to free 1kB rss, 0kB swap; "
				     "reason: swap-low; psi some 1.00 full 0.00", &k));
}

static void reap_and_event_lines(void **state)
{
	(void)state;
	struct lmkd_reap_line r = { .pid = 77, .reaped = true, .ms = 7 };
	char buf[256];
	lmkd_format_reap(buf, sizeof(buf), &r);
	assert_string_equal(buf, "lmkd: Process 77 was reaped in 7ms");
	struct lmkd_reap_line back;
	assert_true(lmkd_parse_reap(buf, &back));
	assert_true(back.reaped);
	assert_int_equal(back.pid, 77);
	assert_int_equal(back.ms, 7);
	r.reaped = false;
	r.ms = 1000;
	lmkd_format_reap(buf, sizeof(buf), &r);
	assert_true(lmkd_parse_reap(buf, &back));
	assert_false(back.reaped);
	assert_int_equal(back.ms, 1000);
	assert_false(lmkd_parse_reap("lmkd: Process 77 was reaped in 7ms!", &back));
	assert_false(lmkd_parse_reap("oom_reaper: reaped process 77 (x), now anon-rss:0kB", &back));

	struct lmkd_event_line e = { .kind = "full", .stall_ms = 812, .window_ms = 1000,
				     .threshold_ms = 700, .after_crossing_ms = -1 };
	lmkd_format_event(buf, sizeof(buf), &e);
	assert_string_equal(buf, "lmkd: PSI full event: stall 812ms in the last 1000ms (threshold 700ms), "
				 "-1ms after crossing it");
	struct lmkd_event_line eb;
	assert_true(lmkd_parse_event(buf, &eb));
	assert_string_equal(eb.kind, "full");
	assert_int_equal(eb.stall_ms, 812);
	assert_int_equal(eb.window_ms, 1000);
	assert_int_equal(eb.threshold_ms, 700);
	assert_int_equal(eb.after_crossing_ms, -1);
	assert_false(lmkd_parse_event("lmkd: PSI half event: stall 1ms in the last 1000ms (threshold 70ms), "
				      "0ms after crossing it", &eb));
}

/* Android lmkd's kill reasons by name, both ways; an older killer's are none */
static void reason_names_round_trip(void **state)
{
	(void)state;
	for (int r = 0; r < LMKD_REASON_COUNT; r++) {
		assert_non_null(lmkd_reason_name((enum lmkd_reason)r));
		assert_int_equal(lmkd_reason_of_name(lmkd_reason_name((enum lmkd_reason)r)), r);
	}
	assert_string_equal(lmkd_reason_name(LMKD_LOW_MEM), "LOW_MEM");
	assert_string_equal(lmkd_reason_name(LMKD_PRESSURE_AFTER_KILL), "PRESSURE_AFTER_KILL");
	assert_null(lmkd_reason_name(LMKD_REASON_COUNT));
	assert_int_equal(lmkd_reason_of_name("psi-partial"), -1);
	assert_int_equal(lmkd_reason_of_name("low_mem"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reason_names_round_trip),
		cmocka_unit_test(kill_line_reads_as_lmkd_writes_it),
		cmocka_unit_test(kill_line_round_trips_awkward_comms),
		cmocka_unit_test(not_kill_lines),
		cmocka_unit_test(reap_and_event_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
