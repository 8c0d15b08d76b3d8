/* Unit tests: lab bisect's arithmetic (lab/bisect/bisect-plan.h): the error
 * budget for several range sizes and skip allowances, the midpoint with
 * skipped commits, the end with only skipped commits left, and a step's
 * decision from its two tests. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lab/bisect/bisect-plan.h"

static void budget_is_halvings_plus_skips(void **state)
{
	(void)state;
	/* N candidates need ceil(log2 N) halvings */
	assert_int_equal(bisect_max_steps(1, 2), 0);
	assert_int_equal(bisect_max_steps(2, 0), 1);
	assert_int_equal(bisect_max_steps(3, 0), 2);
	assert_int_equal(bisect_max_steps(4, 0), 2);
	assert_int_equal(bisect_max_steps(5, 0), 3);
	assert_int_equal(bisect_max_steps(6, 2), 5);
	assert_int_equal(bisect_max_steps(8, 2), 5);
	assert_int_equal(bisect_max_steps(9, 2), 6);
	assert_int_equal(bisect_max_steps(1000, 0), 10);
	assert_int_equal(bisect_max_steps(1024, 3), 13);
	assert_int_equal(bisect_max_steps(1025, 3), 14);
	/* alpha over K: 0.05 / 5 for six candidates and two skips */
	assert_true(fabs(bisect_step_alpha(0.05, 5) - 0.01) < 1e-15);
	assert_true(fabs(bisect_step_alpha(0.05, 13) - 0.05 / 13) < 1e-15);
	assert_true(fabs(bisect_step_alpha(0.05, 0) - 0.05) < 1e-15);
}

/* A bisection of N candidates whose first bad one is FIRST, every step
 * called right: the steps it takes stay within ceil(log2 N). */
static size_t steps_to_find(size_t n, size_t first)
{
	struct bisect_range r;
	size_t next, steps = 0;
	bisect_range_init(&r, n);
	while (bisect_range_next(&r, &next) == BISECT_NEXT) {
		bisect_range_mark(&r, next, next >= first ? BISECT_BAD : BISECT_GOOD);
		steps++;
	}
	assert_int_equal(bisect_range_next(&r, &next), BISECT_FOUND);
	assert_int_equal(r.first_bad, (long)first);
	bisect_range_free(&r);
	return steps;
}

static void halving_finds_any_first_bad_within_the_budget(void **state)
{
	(void)state;
	for (size_t n = 1; n <= 70; n++)
		for (size_t first = 0; first < n; first++)
			assert_true(steps_to_find(n, first) <= bisect_max_steps(n, 0));
	/* six candidates, the fourth bad: c3 (good), then c4 (bad) */
	struct bisect_range r;
	size_t next;
	bisect_range_init(&r, 6);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 2);
	bisect_range_mark(&r, 2, BISECT_GOOD);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 3);	/* of 3 and 4, as near, the older */
	bisect_range_free(&r);
}

static void a_skipped_midpoint_gives_the_nearest_untested(void **state)
{
	struct bisect_range r;
	size_t next;
	(void)state;
	bisect_range_init(&r, 9);	/* c0..c8, c8 bad */
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 3);	/* 3 and 4 leave 5 at most; the older */
	bisect_range_mark(&r, 3, BISECT_SKIP);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 4);
	bisect_range_mark(&r, 4, BISECT_SKIP);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 2);	/* 2 and 5 leave 6 at most */
	bisect_range_mark(&r, 2, BISECT_SKIP);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 5);
	/* a skip does not narrow the range; good after it does, past it */
	assert_int_equal(r.last_good, -1);
	assert_int_equal(r.first_bad, 8);
	bisect_range_mark(&r, 5, BISECT_GOOD);
	assert_int_equal(r.last_good, 5);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 6);
	bisect_range_free(&r);
}

static void only_skipped_commits_left(void **state)
{
	struct bisect_range r;
	size_t next;
	(void)state;
	bisect_range_init(&r, 6);
	bisect_range_mark(&r, 1, BISECT_GOOD);
	bisect_range_mark(&r, 4, BISECT_BAD);
	bisect_range_mark(&r, 2, BISECT_SKIP);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_NEXT);
	assert_int_equal(next, 3);
	bisect_range_mark(&r, 3, BISECT_SKIP);
	/* the first bad is c2, c3 or c4: only skipped ones lie before c4 */
	assert_int_equal(bisect_range_next(&r, &next), BISECT_ONLY_SKIPPED);
	assert_int_equal(r.last_good, 1);
	assert_int_equal(r.first_bad, 4);
	/* bad on the skipped c2's other side: none left between, found */
	bisect_range_mark(&r, 2, BISECT_BAD);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_FOUND);
	assert_int_equal(r.first_bad, 2);
	bisect_range_free(&r);
	/* one candidate: the bad commit itself, nothing to test */
	bisect_range_init(&r, 1);
	assert_int_equal(bisect_range_next(&r, &next), BISECT_FOUND);
	assert_int_equal(r.first_bad, 0);
	bisect_range_free(&r);
}

static void a_step_calls_from_its_two_tests(void **state)
{
	(void)state;
	const double level = 0.004;
	/* bad is higher than good (+1) */
	/* m above good, like bad is; m like bad (no difference from it) */
	assert_int_equal(bisect_step_call(0.0001, +1, 0.6, -1, +1, level), BISECT_CALL_BAD);
	/* m below bad, like good; no difference from good */
	assert_int_equal(bisect_step_call(0.7, +1, 0.0001, -1, +1, level), BISECT_CALL_GOOD);
	/* rejected, but the wrong way: m below good is not like bad */
	assert_int_equal(bisect_step_call(0.0001, -1, 0.6, -1, +1, level), BISECT_CALL_NONE);
	/* m above bad is not like good */
	assert_int_equal(bisect_step_call(0.7, +1, 0.0001, +1, +1, level), BISECT_CALL_NONE);
	/* m below good, and so below bad: like good (further from bad than good) */
	assert_int_equal(bisect_step_call(0.0001, -1, 0.0001, -1, +1, level), BISECT_CALL_GOOD);
	/* between them, away from both: both reject, inconclusive */
	assert_int_equal(bisect_step_call(0.001, +1, 0.001, -1, +1, level), BISECT_CALL_BOTH);
	/* neither below the look's level: look again */
	assert_int_equal(bisect_step_call(0.005, +1, 0.3, -1, +1, level), BISECT_CALL_NONE);
	/* at the level is not below it */
	assert_int_equal(bisect_step_call(level, +1, 0.3, -1, +1, level), BISECT_CALL_NONE);
	/* bad lower than good (-1): the directions turn round */
	assert_int_equal(bisect_step_call(0.0001, -1, 0.6, +1, -1, level), BISECT_CALL_BAD);
	assert_int_equal(bisect_step_call(0.6, -1, 0.0001, +1, -1, level), BISECT_CALL_GOOD);
	assert_int_equal(bisect_step_call(0.0001, +1, 0.6, +1, -1, level), BISECT_CALL_NONE);
	/* no test (too few trials): NAN never rejects */
	assert_int_equal(bisect_step_call(NAN, +1, NAN, -1, +1, level), BISECT_CALL_NONE);
	/* no direction between the endpoints: nothing can be called */
	assert_int_equal(bisect_step_call(0.0001, +1, 0.0001, -1, 0, level), BISECT_CALL_NONE);
	assert_string_equal(bisect_call_name(BISECT_CALL_BAD), "bad");
	assert_string_equal(bisect_call_name(BISECT_CALL_GOOD), "good");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(budget_is_halvings_plus_skips),
		cmocka_unit_test(halving_finds_any_first_bad_within_the_budget),
		cmocka_unit_test(a_skipped_midpoint_gives_the_nearest_untested),
		cmocka_unit_test(only_skipped_commits_left),
		cmocka_unit_test(a_step_calls_from_its_two_tests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
