/* Unit tests: fault injection keys, their bad input, the job lines that arm them,
 * and the check that a kernel has the framework. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kernel/kconfig.h"
#include "lab/kernel/variant.h"
#include "lab/machine/fault-inject.h"
#include "lab/machine/profile.h"
#include "lab/run/experiment.h"

static void parses_every_word(void **state)
{
	(void)state;
	struct fault_injection f;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(fault_injection_parse(FAULT_PAGE_ALLOC,
					       "probability 20%, min-order 3, interval 2, times 50, "
					       "space 64K, ignore-gfp-wait yes", &f, &err), 0);
	assert_true(f.armed);
	assert_int_equal(f.probability, 20);
	assert_int_equal(f.min_order, 3);
	assert_int_equal(f.interval, 2);
	assert_int_equal(f.times, 50);
	assert_int_equal(f.space, 65536);
	assert_true(f.ignore_gfp_wait);
	/* the defaults: every call, no limit, the kernel's min-order, waiting allocations fail too */
	assert_int_equal(fault_injection_parse(FAULT_SLAB, "probability 100", &f, &err), 0);
	assert_int_equal(f.interval, 1);
	assert_int_equal(f.times, -1);
	assert_int_equal(f.min_order, -1);
	assert_false(f.ignore_gfp_wait);
	strbuf_release(&err);
}

static void expect_refused(enum fault_capability cap, const char *text, const char *needle)
{
	struct fault_injection f = { 0 };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(fault_injection_parse(cap, text, &f, &err), -1);
	if (!strstr(err.buf, needle))
		fail_msg("'%s': error '%s' lacks '%s'", text, err.buf, needle);
	assert_false(f.armed);
	strbuf_release(&err);
}

static void refuses_bad_values(void **state)
{
	(void)state;
	expect_refused(FAULT_PAGE_ALLOC, "probability 101", "from 0 to 100, not '101'");
	expect_refused(FAULT_PAGE_ALLOC, "probability -1", "from 0 to 100");
	expect_refused(FAULT_PAGE_ALLOC, "probability 0.5", "add 'interval N'");
	expect_refused(FAULT_PAGE_ALLOC, "min-order 3", "needs a probability");
	expect_refused(FAULT_PAGE_ALLOC, "probability 5, min-order 11", "from 0 to 10");
	expect_refused(FAULT_SLAB, "probability 5, min-order 3", "min-order is fail_page_alloc's");
	expect_refused(FAULT_SLAB, "probability 5, cache-filter yes", "no such word 'cache-filter'");
	expect_refused(FAULT_PAGE_ALLOC, "probability 5, times 0", "times wants");
	expect_refused(FAULT_PAGE_ALLOC, "probability 5, interval 0", "interval wants");
	expect_refused(FAULT_PAGE_ALLOC, "probability 5, ignore-gfp-wait maybe", "yes or no");
	expect_refused(FAULT_PAGE_ALLOC, "probability 5, space 3G", "below 2G");
	expect_refused(FAULT_PAGE_ALLOC, "probability", "a word and its value");
}

/* The probability goes first to 0 and last to its value: nothing fails half set. */
static void spec_arms_the_probability_last(void **state)
{
	(void)state;
	struct fault_plan plan = { 0 };
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	assert_int_equal(fault_injection_parse(FAULT_PAGE_ALLOC, "probability 30, min-order 3",
					       &plan.cap[FAULT_PAGE_ALLOC], &err), 0);
	assert_true(fault_plan_armed(&plan));
	fault_plan_spec(&plan, &spec);
	const char *first = strstr(spec.buf, "fault.fail_page_alloc.probability=0\n");
	const char *last = strstr(spec.buf, "fault.fail_page_alloc.probability=30\n");
	assert_ptr_equal(first, spec.buf);
	assert_non_null(last);
	assert_string_equal(last + strlen("fault.fail_page_alloc.probability=30\n"), "");
	assert_non_null(strstr(spec.buf, "fault.fail_page_alloc.task-filter=Y\n"));
	assert_non_null(strstr(spec.buf, "fault.fail_page_alloc.ignore-gfp-wait=N\n"));
	assert_non_null(strstr(spec.buf, "fault.fail_page_alloc.min-order=3\n"));
	/* no limit asked: a count to spend, so the failures can be counted */
	assert_non_null(strstr(spec.buf, "fault.fail_page_alloc.times=1000000000\n"));
	assert_null(strstr(spec.buf, "failslab"));
	json_t *j = fault_plan_json(&plan);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "fail_page_alloc"),
							    "probability")), 30);
	assert_null(json_object_get(j, "failslab"));
	json_decref(j);
	strbuf_release(&spec);
	strbuf_release(&err);
}

/* An experiment's setting wins over its profile's, capability by capability. */
static void experiment_over_profile(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct profile p;
	assert_int_equal(profile_parse(&p, "t", "p.conf",
				       "description = d\nmemory = 512M\nfailslab = probability 1\n"
				       "fail_page_alloc = probability 2\n", &err), 0);
	struct experiment e;
	assert_int_equal(experiment_parse(&e, "e", "e.conf",
					  "description = d\nvariants = stock\nprofile = t\nworkload = true\n"
					  "fail_page_alloc = probability 50, min-order 3\n", &err), 0);
	assert_int_equal(e.faults.cap[FAULT_PAGE_ALLOC].line, 5);
	struct fault_plan plan = p.faults;
	fault_plan_merge(&plan, &e.faults);
	assert_int_equal(plan.cap[FAULT_PAGE_ALLOC].probability, 50);
	assert_int_equal(plan.cap[FAULT_SLAB].probability, 1);
	experiment_clear(&e);
	profile_clear(&p);
	/* bad input names the file and line, in one line */
	struct experiment bad;
	assert_int_equal(experiment_parse(&bad, "e", "e.conf",
					  "description = d\nvariants = stock\nprofile = t\nworkload = true\n"
					  "failslab = probability 200\n", &err), -1);
	assert_non_null(strstr(err.buf, "e.conf:5: failslab = probability 200: failslab probability wants"));
	assert_null(strchr(err.buf, '\n'));
	experiment_clear(&bad);
	strbuf_reset(&err);
	assert_int_equal(experiment_parse(&bad, "e", "e.conf",
					  "description = d\nvariants = stock\nprofile = t\nworkload = true\n"
					  "fail_futex = probability 2\n", &err), -1);
	assert_non_null(strstr(err.buf, "e.conf:5: unknown key 'fail_futex'"));
	experiment_clear(&bad);
	strbuf_release(&err);
}

/* A kernel whose configuration turns the framework off is named, with the key's line. */
static void refuses_a_kernel_without_the_framework(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct kconfig base = KCONFIG_INIT;
	assert_int_equal(kconfig_parse(&base, "CONFIG_FAULT_INJECTION=y\nCONFIG_FAIL_PAGE_ALLOC=y\n"
					      "CONFIG_FAULT_INJECTION_DEBUG_FS=y\n# CONFIG_FAILSLAB is not set\n",
				       "base", &err), 0);
	struct variant v;
	memset(&v, 0, sizeof(v));
	v.name = "mine";
	struct fault_plan plan = { 0 };
	assert_int_equal(fault_injection_parse(FAULT_PAGE_ALLOC, "probability 5", &plan.cap[FAULT_PAGE_ALLOC],
					       &err), 0);
	plan.cap[FAULT_PAGE_ALLOC].file = "e.conf";
	plan.cap[FAULT_PAGE_ALLOC].line = 7;
	assert_int_equal(fault_plan_check_kernel(&plan, &v, &base, &err), 0);
	assert_int_equal(fault_injection_parse(FAULT_SLAB, "probability 5", &plan.cap[FAULT_SLAB], &err), 0);
	plan.cap[FAULT_SLAB].file = "--failslab";
	assert_int_equal(fault_plan_check_kernel(&plan, &v, &base, &err), -1);
	assert_string_equal(err.buf, "--failslab: failslab needs the kernel's fault injection; variant 'mine' "
				     "lacks CONFIG_FAILSLAB");
	kconfig_clear(&base);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_every_word),
		cmocka_unit_test(refuses_bad_values),
		cmocka_unit_test(spec_arms_the_probability_last),
		cmocka_unit_test(experiment_over_profile),
		cmocka_unit_test(refuses_a_kernel_without_the_framework),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
