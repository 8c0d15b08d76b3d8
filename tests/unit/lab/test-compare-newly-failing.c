/* test-compare-newly-failing.c - lab compare on a run of selftest cases (the
 * table lab run closes with: both call compare_runs) says the newly failing
 * cases first (issue 34; analysis/compare/compare_order.h), from a run
 * folder written here.
 *
 * The fixture run: stock+test against mine+test, six trials each; in the
 * order the run's metrics come in without it (by name: run-data.c),
 * oom_kills (one kill on mine+test: Fisher p = 1, not detected), a flaky
 * case (5/6 against 6/6, p = 1), a case mine+test newly passes (6/6 against
 * 0/6) and one it newly fails (0/6 against 6/6), each p = 2/924 = 0.00216,
 * Holm over 4 tests: p-adj 4 x 0.00216 = 0.0087 < 0.05. Every verdict is
 * fixed by the numbers (Fisher's test is exact): no false failure. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* open_memstream */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lab/builtin.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-compare-newly-failing.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

#define TRIALS 6
#define FLAKY "selftest.cgroup.test_memcontrol.test_memcg_min"
#define PASSING "selftest.cgroup.test_memcontrol.test_memcg_sock"
#define FAILING "selftest.mm.mrelease_test.mrelease_test"

/* Per side: oom_kills, FLAKY, PASSING, FAILING in each trial. */
static const double stock[4][TRIALS] = { { 0, 0, 0, 0, 0, 0 }, { 1, 1, 1, 1, 1, 1 },
					 { 0, 0, 0, 0, 0, 0 }, { 1, 1, 1, 1, 1, 1 } };
static const double mine[4][TRIALS] = { { 0, 0, 1, 0, 0, 0 }, { 1, 1, 1, 0, 1, 1 },
					{ 1, 1, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0, 0 } };

static void put_trial(const char *run, const char *label, int i, const double v[4][TRIALS])
{
	char rel[128];
	char *text = xasprintf(
		"{\"outcome\": {\"outcome\": \"ok\", \"exit_status\": 0},\n"
		" \"environment\": {\"variant\": \"%s\"},\n"
		" \"metrics\": [\n"
		"  {\"name\": \"oom_kills\", \"value\": %g, \"unit\": \"count\", \"source\": \"kmsg\"},\n"
		"  {\"name\": \"" FLAKY "\", \"value\": %g, \"unit\": \"\", \"source\": \"out.log\"},\n"
		"  {\"name\": \"" PASSING "\", \"value\": %g, \"unit\": \"\", \"source\": \"out.log\"},\n"
		"  {\"name\": \"" FAILING "\", \"value\": %g, \"unit\": \"\", \"source\": \"out.log\"}]}\n",
		label, v[0][i], v[1][i], v[2][i], v[3][i]);

	snprintf(rel, sizeof(rel), "%s/%03d/trial.json", label, i);
	scratch_put(run, rel, text);
	free(text);
}

static char *make_run(void)
{
	char *run = xasprintf("%s/run", root);

	scratch_put(run, "run.json",
		    "{\"run_id\": \"cases\", \"experiment\": \"selftest\", \"profile\": \"phone-512m\",\n"
		    " \"baseline\": \"stock+test\", \"trials_per_group\": 6,\n"
		    " \"groups\": [{\"label\": \"stock+test\", \"variant\": \"stock+test\", \"hash\": \"aa\"},\n"
		    "            {\"label\": \"mine+test\", \"variant\": \"mine+test\", \"hash\": \"bb\"}],\n"
		    " \"metrics\": [\"oom_kills\", \"" FLAKY "\", \"" PASSING "\", \"" FAILING "\"]}\n");
	for (int i = 0; i < TRIALS; i++) {
		put_trial(run, "stock+test", i, stock);
		put_trial(run, "mine+test", i, mine);
	}
	return run;
}

/* lab compare RUN --format FORMAT: its output. */
static char *compare(const char *run, const char *format)
{
	struct strlist runs = STRLIST_INIT, globs = STRLIST_INIT;
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	strlist_push(&runs, run);
	assert_int_equal(compare_runs(&runs, NULL, &globs, format, 1, false, 0, f), 0);
	fclose(f);
	strlist_clear(&runs);
	return out;
}

/* Where the line that is exactly LINE starts in OUT; a failure when none. */
static const char *line_at(const char *out, const char *line)
{
	size_t len = strlen(line);

	for (const char *l = out; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, line, len) && (l[len] == '\n' || !l[len]))
			return l;
	fail_msg("no line '%s' in:\n%s", line, out);
	return NULL;
}

static void test_text(void **state)
{
	char *run = make_run(), *out = compare(run, "text");
	const char *blocks[] = { FAILING, PASSING, "oom_kills", FLAKY };

	(void)state;
	print_message("%s", out);
	/* the summary line, as the text wraps it at 80 columns (its words in
	 * one line: test_tap) */
	line_at(out, "mine+test: newly failing (1 case): worse on");
	line_at(out, "  " FAILING " (0/6 against 6/6, p-adj 0.009);");
	line_at(out, "  newly passing (1 case): better on");
	line_at(out, "  " PASSING " (6/6 against 0/6, p-adj");
	line_at(out, "  0.009); 2 rows not decided");
	/* the blocks: the newly failing case first, then the newly passing one,
	 * then the others in the run's order */
	for (size_t i = 1; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		if (line_at(out, blocks[i]) < line_at(out, blocks[i - 1]))
			fail_msg("the block of %s comes before %s's:\n%s", blocks[i], blocks[i - 1], out);
	free(out);
	free(run);
}

static void test_tap(void **state)
{
	char *run = make_run(), *out = compare(run, "tap");

	(void)state;
	print_message("%s", out);
	line_at(out, "# mine+test: newly failing (1 case): worse on " FAILING " (0/6 against 6/6, "
		     "p-adj 0.009); newly passing (1 case): better on " PASSING " (6/6 against 0/6, "
		     "p-adj 0.009); 2 rows not decided");
	assert_non_null(strstr(out, "\nok 1 - mine+test " FAILING ": worse;"));
	assert_non_null(strstr(out, "\nok 2 - mine+test " PASSING ": better;"));
	assert_non_null(strstr(out, "\nok 3 - mine+test oom_kills: not detected"));
	assert_non_null(strstr(out, "\nok 4 - mine+test " FLAKY ": not detected"));
	free(out);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_tap),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
