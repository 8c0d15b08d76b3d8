/* The selftests' KTAP/TAP lines into cases (common/kernel-text/ktap.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "common/kernel-text/ktap.h"

static void feed_all(struct ktap_run *r, const char *const *lines)
{
	for (; *lines; lines++)
		ktap_feed(r, *lines);
}

/* kselftest.h's output: a plan, passes, a failure, a skip with a name and one without */
static void test_kselftest_cases(void **state)
{
	(void)state;
	const char *const lines[] = {
		"TAP version 13\n", "1..5\n", "# Starting\n",
		"ok 1 test_memcg_subtree_control\n",
		"not ok 2 test_memcg_oom_group_leaf_events\n",
		"# memory.swap.max isn't available\n",
		"ok 3 # SKIP test_memcg_swap_max\n",
		"ok 4 check_compaction # SKIP no huge pages\n",
		"not ok 5 # error cannot open /proc/self/x\n",
		NULL };
	struct ktap_run r;
	ktap_init(&r);
	feed_all(&r, lines);
	assert_int_equal(r.planned, 5);
	assert_int_equal(r.n, 5);
	assert_string_equal(r.cases[0].name, "test_memcg_subtree_control");
	assert_int_equal(r.cases[0].result, KTAP_PASS);
	assert_string_equal(r.cases[1].name, "test_memcg_oom_group_leaf_events");
	assert_int_equal(r.cases[1].result, KTAP_FAIL);
	/* the bare skip's word is the name; the diagnostic before it the reason */
	assert_string_equal(r.cases[2].name, "test_memcg_swap_max");
	assert_int_equal(r.cases[2].result, KTAP_SKIP);
	assert_string_equal(r.cases[2].reason, "memory.swap.max isn't available");
	assert_string_equal(r.cases[3].name, "check_compaction");
	assert_int_equal(r.cases[3].result, KTAP_SKIP);
	assert_string_equal(r.cases[3].reason, "no huge pages");
	assert_string_equal(r.cases[4].name, "case5");
	assert_int_equal(r.cases[4].result, KTAP_FAIL);
	assert_string_equal(r.cases[4].reason, "error cannot open /proc/self/x");
	assert_int_equal(ktap_missing(&r), 0);
	assert_string_equal(ktap_result_name(r.cases[3].result), "skip");
	ktap_clear(&r);
}

/* Numbers in a description do not make a new case each trial; duplicates get their number. */
static void test_names_stable(void **state)
{
	(void)state;
	struct ktap_run r;
	ktap_init(&r);
	ktap_feed(&r, "ok 1 Success reaping a child with 37MB of memory allocations");
	ktap_feed(&r, "ok 2 - global.binderfs_stress");
	ktap_feed(&r, "ok 3 global.binderfs_stress");
	ktap_feed(&r, "    ok 1 a subtest of its own");
	ktap_feed(&r, "ok 4 xfailing # XFAIL known bug");
	/* the same line again (a forked child flushing a copy of the test's buffer) is no new case */
	ktap_feed(&r, "ok 4 xfailing # XFAIL known bug");
	ktap_feed(&r, "ok 2 - global.binderfs_stress");
	assert_int_equal(r.n, 4);
	assert_string_equal(r.cases[0].name, "Success_reaping_a_child_with_NMB_of_memory_allocations");
	assert_string_equal(r.cases[1].name, "global.binderfs_stress");
	assert_string_equal(r.cases[2].name, "global.binderfs_stress_3");
	/* an expected failure passes and says so */
	assert_int_equal(r.cases[3].result, KTAP_PASS);
	assert_string_equal(r.cases[3].reason, "XFAIL known bug");
	ktap_clear(&r);
}

/* A whole test skipped, and a test cut short before its plan was done. */
static void test_whole_skip_and_missing(void **state)
{
	(void)state;
	struct ktap_run r;
	ktap_init(&r);
	ktap_feed(&r, "TAP version 13");
	ktap_feed(&r, "1..0 # SKIP cgroup v2 isn't mounted");
	assert_true(r.whole_skip);
	assert_string_equal(r.whole_reason, "cgroup v2 isn't mounted");
	assert_int_equal(r.n, 0);
	ktap_clear(&r);

	ktap_init(&r);
	ktap_feed(&r, "1..3");
	ktap_feed(&r, "ok 1 first");
	assert_false(r.whole_skip);
	assert_int_equal(ktap_missing(&r), 2);
	ktap_clear(&r);
	/* no plan: nothing is known to be missing */
	ktap_init(&r);
	ktap_feed(&r, "ok 1 first");
	assert_int_equal(r.planned, -1);
	assert_int_equal(ktap_missing(&r), 0);
	ktap_clear(&r);
}

/* The line that explains a stopped test: Bail out! first, then the last
 * diagnostic that is not a count, then the last "not ok"; nothing for text
 * that is not KTAP. */
static const char *explain(const char *const *lines)
{
	static struct ktap_explainer e;
	ktap_explainer_init(&e);
	for (; *lines; lines++)
		ktap_explainer_feed(&e, *lines, strlen(*lines));
	return ktap_explaining_line(&e);
}

static void test_explaining_line(void **state)
{
	(void)state;
	/* kselftest.h's ksft_exit_fail_msg(): Bail out!, then its counts */
	const char *const bail[] = { "TAP version 13\n", "1..3\n", "# Starting\n",
				     "# Failed to open /proc/sys/vm/nr_hugepages\n",
				     "Bail out! cannot set up huge pages (errno 13)\n",
				     "# Planned tests != run tests (3 != 0)\n",
				     "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\n", NULL };
	assert_string_equal(explain(bail), "Bail out! cannot set up huge pages (errno 13)");
	/* ksft_print_msg() then ksft_exit_fail(): the last diagnostic, not the counts */
	const char *const diag[] = { "TAP version 13", "1..1", "# Starting 1 test",
				     "  # Failed to open /proc/sys/vm/nr_hugepages  ",
				     "# Planned tests != run tests (1 != 0)",
				     "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0", NULL };
	assert_string_equal(explain(diag), "# Failed to open /proc/sys/vm/nr_hugepages");
	/* kselftest_harness.h's count is no reason; a bare '#' neither */
	const char *const harness[] = { "TAP version 13", "1..2", "# no huge pages here",
					"not ok 1 global.hugetlb_read", "ok 2 global.other", "#",
					"# FAILED: 1 / 2 tests passed.", "# Totals: pass:1 fail:1", NULL };
	assert_string_equal(explain(harness), "# no huge pages here");
	/* no diagnostic: the last failure */
	const char *const fails[] = { "KTAP version 1", "1..2", "not ok 1 first", "not ok 2 second",
				      NULL };
	assert_string_equal(explain(fails), "not ok 2 second");
	/* a plan alone makes it TAP, and a clean run says nothing */
	const char *const clean[] = { "1..1", "ok 1 fine", NULL };
	assert_null(explain(clean));
	/* not KTAP: a program's own '#' lines are its words, not diagnostics */
	const char *const plain[] = { "taskset: bad affinity 'zz'", "# not a diagnostic",
				      "Bail out! neither", NULL };
	assert_null(explain(plain));
	/* a long line is cut, not overrun */
	char long_line[400];
	memset(long_line, 'x', sizeof(long_line) - 1);
	long_line[0] = '#';
	long_line[sizeof(long_line) - 1] = '\0';
	const char *const longest[] = { "TAP version 13", long_line, NULL };
	assert_int_equal(strlen(explain(longest)), KTAP_REASON_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explaining_line),
		cmocka_unit_test(test_kselftest_cases),
		cmocka_unit_test(test_names_stable),
		cmocka_unit_test(test_whole_skip_and_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
