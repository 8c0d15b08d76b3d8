/* test-lmkd-psi.c - the killer's PSI side on data (workloads/lmkd/lmkd-psi.c):
 * the trigger text the kernel takes, and the stall it says it saw over a
 * window. Its decisions are test-lmkd-policy.c's, its victims test-lmkd-victim.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "workloads/lmkd/lmkd-psi.h"

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
		cmocka_unit_test(stall_over_window_from_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
