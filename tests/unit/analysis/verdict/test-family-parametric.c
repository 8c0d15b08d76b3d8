/* test-family-parametric.c - run.json "parametric" through the engine
 * (analysis/run/run-data.c reads it, analysis/verdict/compare_family.c
 * marks the metrics): lab compare and lab report judge a run's parametric
 * rows as lab run's looks did, in the headline family and in --all.
 *
 * The run: groups stock and new, three ok trials each of rt_ns (100, 101,
 * 99 against 110, 111, 109) and of kills (0 0 0 against 1 1 1). The
 * permutation test's smallest p at 3 vs 3 is 0.1; Welch's t on the logs
 * against Student's t gives far less (t about 14, df about 4). */
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

static char root[] = "/tmp/oomlab-test-family-parametric.XXXXXX";

SCRATCH_ROOT_FIXTURES(root)

/* The run NAME under PARENT, with run.json's "parametric" as PARAMETRIC
 * (a JSON array, or NULL for none). */
static char *run_folder(const char *parent, const char *name, const char *parametric)
{
	static const double rt[2][3] = { { 100, 101, 99 }, { 110, 111, 109 } };
	char *dir = xasprintf("%s/%s", parent, name), *path;
	char *meta = xasprintf("{\"run_id\": \"r\", \"experiment\": \"e\", \"profile\": \"p\","
			       " \"baseline\": \"stock\", \"metrics\": [\"rt_ns\", \"oom_kills\"]%s%s,"
			       " \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\"},"
			       " {\"label\": \"new\", \"variant\": \"new\"}]}\n",
			       parametric ? ", \"parametric\": " : "", parametric ? parametric : "");

	scratch_put(dir, "run.json", meta);
	free(meta);
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < 3; i++) {
			char *text = xasprintf(
				"{\"environment\": {\"variant\": \"v\"}, \"outcome\": {\"outcome\": \"ok\"},"
				" \"metrics\": [{\"name\": \"rt_ns\", \"value\": %g, \"unit\": \"ns\"},"
				" {\"name\": \"oom_kills\", \"value\": %d, \"unit\": \"count\"}]}\n",
				rt[g][i], g);
			path = xasprintf("%s/%03d/trial.json", g ? "new" : "stock", i);
			scratch_put(dir, path, text);
			free(path);
			free(text);
		}
	return dir;
}

static const struct compare_row *row_of(const struct compare_table *t, const char *metric)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (!strcmp(t->metrics[t->rows[i].metric].name, metric))
			return &t->rows[i];
	fail_msg("no row of %s", metric);
	return NULL;
}

/* Builds the family of RUN (ALL: every metric) and checks the rows. */
static void check(const char *run, bool all, bool parametric)
{
	struct compare_family_spec spec = { .seed = 1, .all = all };
	struct run_data rd = { 0 };
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	const struct compare_row *rt, *kills;

	assert_int_equal(run_data_add(&rd, run, &err), 0);
	assert_int_equal(rd.parametric.n, parametric ? 1 : 0);
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), 0);
	rt = row_of(&family.table, "rt_ns");
	kills = row_of(&family.table, "oom_kills");
	assert_true(rt->parametric == parametric);
	assert_false(kills->parametric);	/* shares never */
	assert_string_equal(compare_test_name(rt->method, rt->parametric),
			    parametric ? "Welch t (logs)" : "permutation t (logs)");
	if (parametric) {
		assert_true(rt->p < 0.001);
		assert_true(compare_verdict_decided(rt->verdict));
	} else {
		assert_true(rt->p >= 0.1 - 1e-12);
		assert_false(compare_verdict_decided(rt->verdict) && rt->verdict != VERDICT_EQUIVALENT);
	}
	compare_family_free(&family);
	run_data_free(&rd);
	strbuf_release(&err);
}

static void test_parametric_travels(void **state)
{
	(void)state;
	char *with = run_folder(root, "with", "[\"rt_*\"]");
	char *without = run_folder(root, "without", NULL);

	check(with, false, true);
	check(with, true, true);
	check(without, false, false);
	free(with);
	free(without);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parametric_travels),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
