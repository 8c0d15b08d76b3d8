/* test-debug-pressure.c - a debug group's pressure against its plain twin's
 * (analysis/verdict/debug_pressure.c), through the engine: the notes of the
 * table compare, report and run print.
 *
 * The run: groups stock and stock+debug, four trials each. stock's page
 * arrays failed their order-3 try 30-33 times a trial and none panicked;
 * stock+debug's 0-1 times, and one of its trials panicked. The panicked
 * trial's figures are not a result, so the order-3 means are over 3 and 4
 * ok trials; the permutation test's most extreme split of those, 1 of
 * C(7,3) = 35, is p 0.0286. One panic in four cannot be told from none (p
 * 1). A run whose debug group met the same failures gets no flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/verdict/compare_family.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-debug-pressure.XXXXXX";

SCRATCH_ROOT_FIXTURES(root)

/* A run NAME under the root: FAILS[g][i] order-3 failures in trial i of
 * group g (0 stock, 1 stock+debug); PANIC: stock+debug's last trial panicked. */
static char *run_folder(const char *name, const double fails[2][4], bool panic)
{
	static const char *const groups[] = { "stock", "stock+debug" };
	char *dir = xasprintf("%s/%s", root, name);
	scratch_put(dir, "run.json",
		    "{\"run_id\": \"r\", \"experiment\": \"e\", \"profile\": \"p\", \"baseline\": \"stock\","
		    " \"metrics\": [\"binder_page_array_order3_failed\"],"
		    " \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\"},"
		    " {\"label\": \"stock+debug\", \"variant\": \"stock+debug\"}]}\n");
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < 4; i++) {
			bool panicked = panic && g == 1 && i == 3;
			char *text = xasprintf(
				"{\"environment\": {\"variant\": \"v\"}, \"outcome\": {\"outcome\": \"%s\"},"
				" \"metrics\": [{\"name\": \"binder_page_array_order3_failed\", \"value\": %g,"
				" \"unit\": \"count\"}, {\"name\": \"oom_kills\", \"value\": 0, \"unit\": \"count\"}]}\n",
				panicked ? "panic" : "ok", fails[g][i]);
			char *path = xasprintf("%s/%03d/trial.json", groups[g], i);
			scratch_put(dir, path, text);
			free(path);
			free(text);
		}
	return dir;
}

static void notes_of(const char *run, struct compare_family *family)
{
	struct compare_family_spec spec = { .seed = 1 };
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	rd.quiet = true;
	assert_int_equal(run_data_add(&rd, run, &err), 0);
	assert_int_equal(compare_family_build(&rd, &spec, family, &err), 0);
	run_data_free(&rd);
	strbuf_release(&err);
}

static bool has_line(const struct compare_table *t, const char *needle)
{
	for (size_t i = 0; i < t->n_context_notes; i++)
		if (strstr(t->context_notes[i], needle))
			return true;
	return false;
}

/* A line with NEEDLE must be there; the notes are printed when it is not. */
static void expect_line(const struct compare_table *t, const char *needle)
{
	if (has_line(t, needle))
		return;
	for (size_t i = 0; i < t->n_context_notes; i++)
		print_message("note: %s\n", t->context_notes[i]);
	fail_msg("no note has '%s'", needle);
}

static void flags_a_debug_group_that_met_other_pressure(void **state)
{
	(void)state;
	static const double fails[2][4] = { { 30, 31, 32, 33 }, { 0, 1, 0, 1 } };
	char *run = run_folder("other", fails, true);
	struct compare_family family;
	notes_of(run, &family);
	const struct compare_table *t = &family.table;
	expect_line(t, "pressure, stock+debug against stock: other pressure (p < 0.05, uncorrected):");
	expect_line(t, "its rows compare another memory regime");
	expect_line(t, "failed order-3 page-array tries 0.333 against 31.5 a trial (p 0.0286)");
	expect_line(t, "panics 1/4 against 0/4 (p 1)");
	/* no kill on either side: no line for them */
	assert_false(has_line(t, "OOM kill"));
	compare_family_free(&family);
	free(run);
}

static void quiet_when_the_pressure_was_alike(void **state)
{
	(void)state;
	static const double fails[2][4] = { { 30, 31, 32, 33 }, { 31, 30, 33, 32 } };
	char *run = run_folder("alike", fails, false);
	struct compare_family family;
	notes_of(run, &family);
	const struct compare_table *t = &family.table;
	expect_line(t, "pressure, stock+debug against stock: no difference shown at 0.05");
	assert_false(has_line(t, "another memory regime"));
	expect_line(t, "failed order-3 page-array tries 31.5 against 31.5 a trial");
	compare_family_free(&family);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags_a_debug_group_that_met_other_pressure),
		cmocka_unit_test(quiet_when_the_pressure_was_alike),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
