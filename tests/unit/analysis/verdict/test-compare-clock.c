/* test-compare-clock.c - the comparison engine and the guest clock
 * (analysis/verdict/compare_family.c): every format names the clock the
 * groups ran on, and groups of different clocks are refused with one line.
 *
 * Each test writes a small run folder (docs/FORMATS.md): run.json and two
 * groups of three ok trials with one metric, each trial.json with the
 * clock given to it (or none, as recorded before the lab had clocks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "analysis/verdict/compare_family.h"

#define ICOUNT "\"clock\": {\"name\": \"icount\", \"settings\": \"shift=0,sleep=off,align=off\", " \
	       "\"meaning\": \"guest time counts instructions\"}"
#define ICOUNT_SHIFT3 "\"clock\": {\"name\": \"icount\", \"settings\": \"shift=3,sleep=off,align=off\"}"
#define REALTIME "\"clock\": {\"name\": \"realtime\", \"settings\": \"\"}"
#define NO_CLOCK NULL

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/oomlab-test-compare-clock.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	remove_tree(*state);
	free(*state);
	return 0;
}

static void write_text(const char *path, const char *text)
{
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	free(dir);
	assert_int_equal(write_file_str(path, text), 0);
}

/* A run NAME under PARENT: groups stock and new, three trials each, with
 * the clock objects given (NULL: none recorded). */
static char *make_run(const char *parent, const char *name, const char *stock_clock,
		      const char *new_clock)
{
	char *dir = xasprintf("%s/%s", parent, name);
	char *path = xasprintf("%s/run.json", dir);
	write_text(path, "{\"run_id\": \"r\", \"experiment\": \"e\", \"profile\": \"phone-512m\","
			 " \"baseline\": \"stock\", \"metrics\": [\"rt_ns\"],"
			 " \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\"},"
			 " {\"label\": \"new\", \"variant\": \"new\"}]}\n");
	free(path);
	static const double values[2][3] = { { 100, 101, 99 }, { 110, 111, 109 } };
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < 3; i++) {
			const char *clock = g ? new_clock : stock_clock;
			char *text = xasprintf(
				"{\"environment\": {\"variant\": \"v\"%s%s},"
				" \"outcome\": {\"outcome\": \"ok\"},"
				" \"metrics\": [{\"name\": \"rt_ns\", \"value\": %g, \"unit\": \"ns\"}]}\n",
				clock ? ", " : "", clock ? clock : "", values[g][i]);
			path = xasprintf("%s/%s/%03d/trial.json", dir, g ? "new" : "stock", i);
			write_text(path, text);
			free(path);
			free(text);
		}
	return dir;
}

/* Builds the family of the run; returns compare_family_build's code. */
static int build(const char *run, struct run_data *rd, struct compare_family *family,
		 struct strbuf *err)
{
	struct compare_family_spec spec = { .seed = 1 };
	memset(rd, 0, sizeof(*rd));
	assert_int_equal(run_data_add(rd, run, err), 0);
	return compare_family_build(rd, &spec, family, err);
}

/* What FORMAT writes for the table, as a string. */
static char *formatted(const struct compare_table *t, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (!strcmp(format, "text"))
		assert_int_equal(compare_format_text(f, t, false), 0);
	else if (!strcmp(format, "markdown"))
		assert_int_equal(compare_format_markdown(f, t), 0);
	else if (!strcmp(format, "csv"))
		assert_int_equal(compare_format_csv(f, t), 0);
	else
		assert_int_equal(compare_format_json(f, t), 0);
	fclose(f);
	return buf;
}

static void test_one_clock_is_named_in_every_format(void **state)
{
	char *run = make_run(*state, "icount", ICOUNT, ICOUNT);
	struct run_data rd;
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(build(run, &rd, &family, &err), 0);
	assert_string_equal(family.table.clock.name, "icount");
	assert_string_equal(family.table.clock.settings, "shift=0,sleep=off,align=off");
	assert_string_equal(family.table.clock.meaning, "guest time counts instructions");

	char *text = formatted(&family.table, "text");
	assert_non_null(strstr(text, "\nclock of every group: icount (shift=0,sleep=off,align=off)\n"
				     "  guest time counts instructions\n"));
	free(text);
	char *md = formatted(&family.table, "markdown");
	assert_non_null(strstr(md, "Clock of every group: icount (shift=0,sleep=off,align=off): "
				   "guest time counts instructions\n"));
	free(md);
	char *csv = formatted(&family.table, "csv");
	char *nl = strstr(csv, "\r\n");
	assert_non_null(nl);
	*nl = '\0';
	assert_true(ends_with(csv, ",why,clock"));
	/* quoted: the settings hold commas */
	assert_true(ends_with(nl + 2, ",\"icount (shift=0,sleep=off,align=off)\"\r\n"));
	free(csv);
	char *js = formatted(&family.table, "json");
	json_t *doc = json_loads(js, 0, NULL);
	assert_non_null(doc);
	json_t *clock = json_object_get(doc, "clock");
	assert_string_equal(json_string_value(json_object_get(clock, "name")), "icount");
	assert_string_equal(json_string_value(json_object_get(clock, "settings")),
			    "shift=0,sleep=off,align=off");
	json_decref(doc);
	free(js);

	compare_family_free(&family);
	run_data_free(&rd);
	strbuf_release(&err);
	free(run);
}

/* A trial.json from before clocks ran on realtime: it compares with realtime. */
static void test_a_record_without_clock_is_realtime(void **state)
{
	char *run = make_run(*state, "old", NO_CLOCK, REALTIME);
	struct run_data rd;
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(build(run, &rd, &family, &err), 0);
	assert_string_equal(family.table.clock.name, "realtime");
	assert_string_equal(family.table.clock.settings, "");
	char *text = formatted(&family.table, "text");
	assert_non_null(strstr(text, "\nclock of every group: realtime\n"));
	free(text);
	compare_family_free(&family);
	run_data_free(&rd);
	strbuf_release(&err);
	free(run);
}

static void expect_refused(const char *run, const char *needle)
{
	struct run_data rd;
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(build(run, &rd, &family, &err), COMPARE_FAMILY_MIXED_CLOCKS);
	if (!strstr(err.buf, needle))
		fail_msg("error '%s' lacks '%s'", err.buf, needle);
	assert_null(strchr(err.buf, '\n'));
	run_data_free(&rd);
	strbuf_release(&err);
}

static void test_mixed_clocks_are_refused(void **state)
{
	char *run = make_run(*state, "mixed", ICOUNT, NO_CLOCK);
	expect_refused(run, "the groups ran on different clocks (stock on icount "
			    "(shift=0,sleep=off,align=off), new on realtime)");
	free(run);
	/* one clock under other settings is another clock */
	run = make_run(*state, "shift", ICOUNT, ICOUNT_SHIFT3);
	expect_refused(run, "new on icount (shift=3,sleep=off,align=off)");
	free(run);
}

/* Trials of two platforms (an x86_64 run and an arm64/16k one) are never one table. */
static void test_two_platforms_are_refused(void **state)
{
	char *a = make_run(*state, "x86", REALTIME, REALTIME);
	char *b = make_run(*state, "arm", REALTIME ", \"arch\": \"arm64\", \"page_size\": 16384",
			   REALTIME ", \"arch\": \"arm64\", \"page_size\": 16384");
	struct run_data rd = { 0 };
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	struct compare_family_spec spec = { .seed = 1 };
	/* one arm64 run alone is a table */
	assert_int_equal(build(b, &rd, &family, &err), 0);
	compare_family_free(&family);
	run_data_free(&rd);
	memset(&rd, 0, sizeof(rd));
	assert_int_equal(run_data_add(&rd, a, &err), 0);
	assert_int_equal(run_data_add(&rd, b, &err), 0);
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), -1);
	assert_string_equal(err.buf, "the trials ran on different platforms (x86_64 with 4096-byte "
				     "pages and arm64 with 16384-byte pages): compare runs of one arch "
				     "and page size");
	run_data_free(&rd);
	strbuf_release(&err);
	free(a);
	free(b);
}

/* When every metric asked for took one value in every trial (no kill on
 * either side), they are the table, not an error: the run's answer is that
 * nothing varied (a reproducer killed at the same size in every trial). */
static void test_a_constant_metric_asked_for_says_so(void **state)
{
	char *run = make_run(*state, "const", REALTIME, REALTIME);
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < 3; i++) {
			char *path = xasprintf("%s/%s/%03d/trial.json", run, g ? "new" : "stock", i);
			char *text = xasprintf("{\"environment\": {\"variant\": \"v\", " REALTIME "},"
					       " \"outcome\": {\"outcome\": \"ok\"}, \"metrics\": ["
					       "{\"name\": \"rt_ns\", \"value\": %d, \"unit\": \"ns\"},"
					       "{\"name\": \"kills\", \"value\": 0, \"unit\": \"count\"}]}\n",
					       100 + 10 * g + i);
			write_text(path, text);
			free(text);
			free(path);
		}
	struct strlist globs = STRLIST_INIT;
	strlist_push(&globs, "kills");
	struct compare_family_spec spec = { .seed = 1, .globs = &globs };
	struct run_data rd = { 0 };
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(run_data_add(&rd, run, &err), 0);
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), 0);
	assert_int_equal(family.table.n_metrics, 1);
	assert_int_equal(family.hidden, 0);
	assert_string_equal(family.table.metrics[0].name, "kills");
	compare_family_free(&family);
	/* beside a metric that varies, it is left out and counted */
	strlist_push(&globs, "rt_ns");
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), 0);
	assert_int_equal(family.table.n_metrics, 1);
	assert_int_equal(family.hidden, 1);
	compare_family_free(&family);
	strlist_clear(&globs);
	strlist_push(&globs, "kills");
	spec.all = true;
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), 0);
	assert_int_equal(family.table.n_metrics, 1);
	compare_family_free(&family);
	strlist_clear(&globs);
	strlist_push(&globs, "no_such_metric");
	spec.all = false;
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), -1);
	assert_string_equal(err.buf, "no metric matches");
	run_data_free(&rd);
	strlist_clear(&globs);
	strbuf_release(&err);
	free(run);
}

/* Two runs of one experiment on two clocks, compared together: refused,
 * and a group that has trials of both is named with both. */
static void test_runs_of_two_clocks_are_refused(void **state)
{
	char *a = make_run(*state, "a", ICOUNT, ICOUNT);
	char *b = make_run(*state, "b", REALTIME, ICOUNT);
	struct run_data rd = { 0 };
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;
	struct compare_family_spec spec = { .seed = 1 };
	assert_int_equal(run_data_add(&rd, a, &err), 0);
	assert_int_equal(run_data_add(&rd, b, &err), 0);
	assert_int_equal(compare_family_build(&rd, &spec, &family, &err), COMPARE_FAMILY_MIXED_CLOCKS);
	assert_non_null(strstr(err.buf, "stock on icount (shift=0,sleep=off,align=off) and realtime, "
					"new on icount (shift=0,sleep=off,align=off))"));
	run_data_free(&rd);
	strbuf_release(&err);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_clock_is_named_in_every_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_record_without_clock_is_realtime, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_platforms_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_constant_metric_asked_for_says_so, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mixed_clocks_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_of_two_clocks_are_refused, setup, teardown),
	};
	return cmocka_run_group_tests_name("compare-clock", tests, NULL, NULL);
}
