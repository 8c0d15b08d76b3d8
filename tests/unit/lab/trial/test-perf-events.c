/* test-perf-events.c - what the guest's perf records (lab/trial/perf-events.c):
 * event specs checked one by one and turned into perf record arguments,
 * the default list well-formed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lab/trial/perf-events.h"

static void test_specs_checked(void **state)
{
	(void)state;
	assert_null(perf_event_check("oom:mark_victim"));
	assert_null(perf_event_check("kmem:mm_page_alloc if order > 0"));
	assert_null(perf_event_check("kmem:mm_page_alloc if   order > 0"));
	static const char *const bad[] = {
		"mark_victim",                  /* no group */
		":mark_victim", "oom:", "oom:mark victim", "oom-x:mark_victim",
		"oom:mark_victim if ", "oom:mark_victim if  \t",
		"",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!perf_event_check(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
	assert_non_null(strstr(perf_event_check("kmem:mm_page_alloc if "), "'if' needs a filter"));
}

static void test_specs_to_args(void **state)
{
	(void)state;
	struct strlist events = STRLIST_INIT, args = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	strlist_push(&events, "oom:mark_victim");
	strlist_push(&events, "kmem:mm_page_alloc if order > 0");
	assert_int_equal(perf_events_to_args(&events, &args, &err), 0);
	static const char *const want[] = { "-e", "oom:mark_victim", "-e", "kmem:mm_page_alloc",
					    "--filter", "order > 0" };
	assert_int_equal(args.n, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(args.items[i], want[i]);

	strlist_push(&events, "bad event");
	strlist_clear(&args);
	assert_int_equal(perf_events_to_args(&events, &args, &err), -1);
	assert_non_null(strstr(err.buf, "perf event 'bad event'"));
	strlist_clear(&events);
	strlist_clear(&args);
	strbuf_release(&err);
}

/* Every default is well-formed and once in the list; three are filtered,
 * and exactly these, in the list's order: the page allocations (an
 * unfiltered one floods a TCG guest), the signals (SIGKILLs alone: the
 * killers' kills) and the task renames (the apps' cold starts alone, not
 * every exec's). */
static void test_defaults(void **state)
{
	(void)state;
	struct strlist d = STRLIST_INIT;
	perf_default_events(&d);
	assert_true(d.n >= 15);
	static const char *const filtered[] = {
		"kmem:mm_page_alloc if order > 0",
		"signal:signal_generate if sig == 9",
		"task:task_rename if newcomm ~ \"app-*\"",
	};
	const size_t n_filtered = sizeof(filtered) / sizeof(filtered[0]);
	size_t filters = 0;
	for (size_t i = 0; i < d.n; i++) {
		if (perf_event_check(d.items[i]))
			fail_msg("default '%s': %s", d.items[i], perf_event_check(d.items[i]));
		for (size_t k = i + 1; k < d.n; k++)
			assert_string_not_equal(d.items[i], d.items[k]);
		if (!strstr(d.items[i], " if "))
			continue;
		/* the filtered ones, one by one, against the expected list */
		if (filters >= n_filtered)
			fail_msg("filtered default '%s' is not one of the %zu expected", d.items[i], n_filtered);
		if (strcmp(d.items[i], filtered[filters]))
			fail_msg("filtered default %zu is '%s', expected '%s'", filters, d.items[i],
				 filtered[filters]);
		filters++;
	}
	if (filters != n_filtered)
		fail_msg("%zu defaults are filtered, expected %zu (the first missing: '%s')", filters, n_filtered,
			 filtered[filters]);
	assert_true(strlist_has(&d, "oom:mark_victim"));
	strlist_clear(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specs_checked),
		cmocka_unit_test(test_specs_to_args),
		cmocka_unit_test(test_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
