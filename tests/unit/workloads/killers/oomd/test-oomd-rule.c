/* test-oomd-rule.c - systemd-oomd's memory-pressure rule as the lab's oomd
 * decides it (workloads/killers/oomd/oomd-rule.h), one poll a second, and its kill
 * line made and read back (common/kernel-text/oomd-lines.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/kernel-text/oomd-lines.h"
#include "workloads/killers/oomd/oomd-rule.h"

static const struct oomd_rule rule = { .limit_percent = 60, .duration_ms = 30000 };

/* Polls from FROM_S to TO_S (seconds, one a second) at AVG10, reclaiming;
 * the second of the first kill due, or -1. */
static int64_t first_due(struct oomd_state *s, int from_s, int to_s, double avg10, bool reclaimed)
{
	for (int t = from_s; t <= to_s; t++) {
		int64_t over;
		if (oomd_poll(s, &rule, avg10, reclaimed, (int64_t)t * 1000, &over))
			return t;
	}
	return -1;
}

static void kills_once_over_the_limit_for_the_duration(void **state)
{
	(void)state;
	struct oomd_state s;
	oomd_state_init(&s);
	/* over from second 10: due at 40, not before */
	assert_int_equal(first_due(&s, 0, 9, 10.0, true), -1);
	assert_int_equal(first_due(&s, 10, 100, 61.0, true), 40);
	int64_t over;
	assert_true(oomd_poll(&s, &rule, 61.0, true, 40000, &over));
	assert_int_equal(over, 30000);
	/* at the limit is not above it (oomd_pressure_above: strictly greater) */
	oomd_state_init(&s);
	assert_int_equal(first_due(&s, 0, 100, 60.0, true), -1);
}

static void a_dip_starts_the_duration_again(void **state)
{
	(void)state;
	struct oomd_state s;
	oomd_state_init(&s);
	assert_int_equal(first_due(&s, 0, 20, 80.0, true), -1);
	int64_t over;
	assert_false(oomd_poll(&s, &rule, 59.0, true, 21000, &over));
	assert_int_equal(first_due(&s, 22, 100, 80.0, true), 52);
}

static void no_reclaim_no_kill_and_a_delay_after_a_kill(void **state)
{
	(void)state;
	struct oomd_state s;
	oomd_state_init(&s);
	/* pressure without reclaim in the last 30 s: a kill would not help */
	assert_int_equal(first_due(&s, 0, 100, 90.0, false), -1);
	/* reclaim seen at 100 s: due at once (over since 0), and until 130 s */
	int64_t over;
	assert_true(oomd_poll(&s, &rule, 90.0, true, 100000, &over));
	oomd_killed(&s, 100000);
	/* 15 s after the kill nothing (POST_ACTION_DELAY), then due again */
	assert_int_equal(first_due(&s, 101, 200, 90.0, false), 115);
	oomd_state_init(&s);
	assert_true(oomd_poll(&s, &rule, 90.0, true, 0, &over) == false);
	assert_int_equal(first_due(&s, 1, 100, 90.0, false), 30);
	assert_false(oomd_poll(&s, &rule, 90.0, false, 31000, &over));
}

static void the_victim_is_the_most_reclaimed_then_the_largest(void **state)
{
	(void)state;
	const struct oomd_candidate c[] = {
		{ .pgscan_delta = 10, .memory_bytes = 100 },
		{ .pgscan_delta = 500, .memory_bytes = 1 },
		{ .pgscan_delta = 500, .memory_bytes = 50 },
		{ .pgscan_delta = 0, .memory_bytes = 1 << 30 },
	};
	assert_int_equal(oomd_select(c, 4), 2);
	assert_int_equal(oomd_select(c, 1), 0);
	const struct oomd_candidate idle[] = { { 0, 0 }, { 0, 0 } };
	assert_int_equal(oomd_select(idle, 2), -1);
	const struct oomd_candidate none_reclaimed[] = { { 0, 10 }, { 0, 20 }, { 0, 0 } };
	assert_int_equal(oomd_select(none_reclaimed, 3), 1);
}

static void the_kill_line_reads_back(void **state)
{
	(void)state;
	struct oomd_kill_line k = { .processes = 3, .avg10 = 72.15, .limit_percent = 60, .over_ms = 30012,
				    .pgscan = 1234, .memory_kb = 45678, .t_mono_ns = 123456789 };
	strcpy(k.cgroup, "/sys/fs/cgroup/workload/app-03");
	strcpy(k.monitored, "/sys/fs/cgroup/workload");
	char buf[1024];
	assert_true(oomd_format_kill(buf, sizeof(buf), &k) > 0);
	assert_string_equal(buf, "oomd: Killed /sys/fs/cgroup/workload/app-03 (3 processes): memory pressure "
				 "72.15% > 60% for 30012ms in /sys/fs/cgroup/workload, pgscan 1234, memory "
				 "45678kB; t_mono_ns 123456789");
	struct oomd_kill_line r;
	assert_true(oomd_parse_kill(buf, &r));
	assert_string_equal(r.cgroup, k.cgroup);
	assert_string_equal(r.monitored, k.monitored);
	assert_int_equal(r.processes, 3);
	assert_float_equal(r.avg10, 72.15, 1e-9);
	assert_int_equal(r.limit_percent, 60);
	assert_int_equal(r.over_ms, 30012);
	assert_int_equal(r.pgscan, 1234);
	assert_int_equal(r.memory_kb, 45678);
	assert_int_equal(r.t_mono_ns, 123456789);
	/* with more after it, or cut short, it is no kill line */
	strcat(buf, " x");
	assert_false(oomd_parse_kill(buf, &r));
	*strstr(buf, "; t_mono_ns") = '\0';
	assert_false(oomd_parse_kill(buf, &r));
	assert_false(oomd_parse_kill("lmkd: Kill 'a' (1)", &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kills_once_over_the_limit_for_the_duration),
		cmocka_unit_test(a_dip_starts_the_duration_again),
		cmocka_unit_test(no_reclaim_no_kill_and_a_delay_after_a_kill),
		cmocka_unit_test(the_victim_is_the_most_reclaimed_then_the_largest),
		cmocka_unit_test(the_kill_line_reads_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
