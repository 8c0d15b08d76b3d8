/* test-run-data-rounds.c - run_data_keep_rounds: a sequential look's view
 * of a run folder, its first N rounds (lab bisect reads each look so).
 *
 * The run: groups good and bad, trial folders 000..003 of good and 000..002
 * of bad with rt_ns 100 + index (bad: 200 + index); bad's 001 did not boot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/run/run-data.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-run-data-rounds.XXXXXX";

SCRATCH_ROOT_FIXTURES(root)

static char *run_folder(void)
{
	char *dir = xasprintf("%s/run", root);
	scratch_put(dir, "run.json",
		    "{\"run_id\": \"r\", \"experiment\": \"e\", \"profile\": \"p\", \"baseline\": \"good\","
		    " \"metrics\": [\"rt_ns\"], \"groups\": [{\"label\": \"good\", \"variant\": \"good\"},"
		    " {\"label\": \"bad\", \"variant\": \"bad\"}]}\n");
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < (g ? 3 : 4); i++) {
			bool booted = !(g == 1 && i == 1);
			char *text = booted ? xasprintf("{\"outcome\": {\"outcome\": \"ok\"}, \"metrics\": "
							"[{\"name\": \"rt_ns\", \"value\": %d, \"unit\": \"ns\"}]}\n",
							(g ? 200 : 100) + i)
					    : xstrdup("{\"outcome\": {\"outcome\": \"boot-failure\"}}\n");
			char *path = xasprintf("%s/%03d/trial.json", g ? "bad" : "good", i);
			scratch_put(dir, path, text);
			free(path);
			free(text);
		}
	return dir;
}

/* The values of LABEL after keeping ROUNDS rounds, in a fresh load. */
static double sum_of(const char *run, unsigned rounds, const char *label, size_t *n, size_t *other)
{
	struct run_data rd = { .quiet = true };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(run_data_add(&rd, run, &err), 0);
	run_data_keep_rounds(&rd, rounds);
	double *v = run_data_values(&rd, "rt_ns", label, n, other, NULL), sum = 0;
	for (size_t i = 0; i < *n; i++)
		sum += v[i];
	free(v);
	run_data_free(&rd);
	return sum;
}

static void the_first_rounds_are_kept(void **state)
{
	(void)state;
	char *run = run_folder();
	size_t n, other;
	/* good: 100 + 101 + 102 of rounds 0..2, not 103 */
	assert_true(sum_of(run, 3, "good", &n, &other) == 303);
	assert_int_equal(n, 3);
	assert_int_equal(other, 0);
	/* bad: 200 and 202; its 001 ended otherwise */
	assert_true(sum_of(run, 3, "bad", &n, &other) == 402);
	assert_int_equal(n, 2);
	assert_int_equal(other, 1);
	/* two rounds: good 100 + 101; bad 200 and the boot failure */
	assert_true(sum_of(run, 2, "good", &n, &other) == 201);
	assert_int_equal(n, 2);
	assert_true(sum_of(run, 2, "bad", &n, &other) == 200);
	assert_int_equal(other, 1);
	/* more rounds than the run has: all of it */
	assert_true(sum_of(run, 10, "good", &n, &other) == 406);
	assert_int_equal(n, 4);
	/* none */
	sum_of(run, 0, "good", &n, &other);
	assert_int_equal(n + other, 0);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_first_rounds_are_kept),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
