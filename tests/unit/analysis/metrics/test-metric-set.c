/* Unit tests: a trial's metric set, its name index and its cap (metric_set.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "analysis/metrics/metric_set.h"

/* A name adds once; adding it again replaces its value, unit and source. */
static void a_name_is_kept_once(void **state)
{
	(void)state;
	struct metric_set s = METRIC_SET_INIT;
	metric_set_add(&s, "oom_kills", 1, "count", "kmsg");
	metric_set_add(&s, "w.x", 2, "", "out.log");
	metric_set_add(&s, "oom_kills", 3, "events", "vmstat");
	assert_int_equal(s.n, 2);
	const struct metric_value *m = metric_set_get(&s, "oom_kills");
	assert_non_null(m);
	assert_true(m->value == 3);
	assert_string_equal(m->unit, "events");
	assert_string_equal(m->source, "vmstat");
	assert_null(metric_set_get(&s, "oom_kill"));
	metric_set_clear(&s);
	assert_null(metric_set_get(&s, "oom_kills"));
}

/* Past METRIC_SET_MAX distinct names the new ones are dropped and counted;
 * the kept ones are still found and replaced, through every growth of the index. */
static void new_names_past_the_cap_are_dropped_and_counted(void **state)
{
	(void)state;
	struct metric_set s = METRIC_SET_INIT;
	char name[32];
	for (int i = 0; i < 2 * METRIC_SET_MAX; i++) {
		snprintf(name, sizeof(name), "flood.m%d", i);
		metric_set_add(&s, name, i, "", "out.log");
	}
	assert_int_equal(s.n, METRIC_SET_MAX);
	assert_int_equal(s.dropped, METRIC_SET_MAX);
	for (int i = 0; i < 2 * METRIC_SET_MAX; i += 997) {
		snprintf(name, sizeof(name), "flood.m%d", i);
		const struct metric_value *m = metric_set_get(&s, name);
		if (i < METRIC_SET_MAX) {
			assert_non_null(m);
			assert_true(m->value == i);
		} else {
			assert_null(m);
		}
	}
	/* a kept name still takes a new value at the cap */
	metric_set_add(&s, "flood.m7", -1, "", "out.log");
	assert_true(metric_set_get(&s, "flood.m7")->value == -1);
	assert_int_equal(s.dropped, METRIC_SET_MAX);
	metric_set_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_name_is_kept_once),
		cmocka_unit_test(new_names_past_the_cap_are_dropped_and_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
