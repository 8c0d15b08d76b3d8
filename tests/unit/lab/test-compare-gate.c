/* test-compare-gate.c - verdicts a CI gates on: lab compare --fail-on and its
 * exit status on a run folder written here, the TAP and JUnit formats, the
 * summary line with the primary first, and an equivalent row that says the
 * change it found (analysis/compare/compare_fail_on.c, compare_summary.c,
 * compare_tap.c, compare_junit.c, compare_fmt.c; lab/builtin-compare.c).
 *
 * The fixture run: stock against binder-kcalloc, six trials each, the
 * primary oom_kills planted worse (a kill in every kcalloc trial, none on
 * stock: Fisher p = 2/924), sendVec's 4 B round trip 0.5% slower with a
 * spread of 0.03%, in three trials a side only (the least permutation p of
 * 3 against 3 is 2/20, never significant, while the Welch interval is far
 * from 0 and inside the default 2% margin: equivalent, and changed),
 * throughput with a spread of 8% on both sides (not detected). Every
 * verdict here is fixed by the numbers (exact tests, every split of the
 * permutation test, no sampling): no false failure. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* open_memstream */
#endif
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "analysis/compare/compare.h"
#include "analysis/compare/compare_fail_on.h"
#include "analysis/compare/compare_fmt.h"
#include "analysis/compare/compare_summary.h"
#include "analysis/metrics/metric_catalog.h"
#include "lab/builtin.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-compare-gate.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

#define TRIALS 6
static const double kills_stock[TRIALS] = { 0, 0, 0, 0, 0, 0 };
static const double kills_kcalloc[TRIALS] = { 1, 2, 1, 1, 3, 1 };
/* kills in 3 of 6: Fisher p = 0.18, the primary not detected, the gate closed */
static const double kills_kcalloc_three[TRIALS] = { 1, 0, 1, 0, 3, 0 };
static const double sendvec_stock[TRIALS] = { 25000, 25010, 24990, 25005, 24995, 25000 };
static const double sendvec_kcalloc[TRIALS] = { 25125, 25135, 25115, 25130, 25120, 25125 };
static const double tput_stock[TRIALS] = { 40000, 46000, 38000, 47000, 41000, 44000 };
static const double tput_kcalloc[TRIALS] = { 45000, 39000, 47000, 40000, 43000, 38500 };

#define SENDVEC "binder-sendvec.sendvec_ns_per_rt.size=4"
#define TPUT "binder-throughput.throughput_iterations_per_s"

static void put_trial(const char *run, const char *label, int i, double kills, double sendvec,
		      double tput)
{
	char rel[128], *text;

	char sendvec_line[160] = "";

	/* sendVec in the first three trials of each side only */
	if (i < 3)
		snprintf(sendvec_line, sizeof(sendvec_line), "  {\"name\": \"" SENDVEC "\", \"value\": %g, "
			 "\"unit\": \"ns\", \"source\": \"out.log\"},\n", sendvec);
	snprintf(rel, sizeof(rel), "%s/%03d/trial.json", label, i);
	text = xasprintf("{\"outcome\": {\"outcome\": \"ok\", \"exit_status\": 0},\n"
			 " \"environment\": {\"variant\": \"%s\"},\n"
			 " \"metrics\": [\n"
			 "  {\"name\": \"oom_kills\", \"value\": %g, \"unit\": \"count\", \"source\": \"kmsg\"},\n"
			 "%s"
			 "  {\"name\": \"" TPUT "\", \"value\": %g, \"unit\": \"1/s\", \"source\": \"out.log\"}]}\n",
			 label, kills, sendvec_line, tput);
	scratch_put(run, rel, text);
	free(text);
}

/* ROOT/NAME: the fixture run (above), its primary oom_kills, KILLS the
 * kcalloc trials' kills. */
static char *make_run_kills(const char *name, const double *kills)
{
	char *run = xasprintf("%s/%s", root, name);

	scratch_put(run, "run.json",
		    "{\"run_id\": \"gate\", \"experiment\": \"gate\", \"profile\": \"phone-512m\",\n"
		    " \"baseline\": \"stock\", \"trials_per_group\": 6,\n"
		    " \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\", \"hash\": \"aa\"},\n"
		    "            {\"label\": \"binder-kcalloc\", \"variant\": \"binder-kcalloc\", \"hash\": \"bb\"}],\n"
		    " \"metrics\": [\"" SENDVEC "\", \"" TPUT "\", \"oom_kills\"],\n"
		    " \"primary\": \"oom_kills\"}\n");
	for (int i = 0; i < TRIALS; i++) {
		put_trial(run, "stock", i, kills_stock[i], sendvec_stock[i], tput_stock[i]);
		put_trial(run, "binder-kcalloc", i, kills[i], sendvec_kcalloc[i], tput_kcalloc[i]);
	}
	return run;
}

static char *make_run(const char *name)
{
	return make_run_kills(name, kills_kcalloc);
}

/* lab compare RUN --format FORMAT --fail-on WORDS: its output and exit status. */
static int compare(const char *run, const char *format, const char *words, char **out)
{
	struct strlist runs = STRLIST_INIT, globs = STRLIST_INIT;
	compare_verdict_mask mask = 0;
	struct strbuf err = STRBUF_INIT;
	size_t len;
	FILE *f = open_memstream(out, &len);

	assert_non_null(f);
	if (words)
		assert_int_equal(compare_fail_on_parse(words, &mask, &err), 0);
	strlist_push(&runs, run);
	int rc = compare_runs(&runs, NULL, &globs, format, 1, false, mask, f);
	fclose(f);
	strlist_clear(&runs);
	strbuf_release(&err);
	return rc;
}

static void test_fail_on_parse(void **state)
{
	compare_verdict_mask mask;
	struct strbuf err = STRBUF_INIT, words = STRBUF_INIT;

	(void)state;
	assert_int_equal(compare_fail_on_parse("worse", &mask, &err), 0);
	assert_int_equal(mask, 1u << VERDICT_WORSE);
	assert_int_equal(compare_fail_on_parse("worse,differs", &mask, &err), 0);
	assert_int_equal(mask, (1u << VERDICT_WORSE) | (1u << VERDICT_DIFFERS));
	/* the blank of "not detected" as '-', or as it is; blanks around a word */
	assert_int_equal(compare_fail_on_parse("not-detected, inconclusive", &mask, &err), 0);
	assert_int_equal(mask, (1u << VERDICT_NOT_DETECTED) | (1u << VERDICT_INCONCLUSIVE));
	assert_int_equal(compare_fail_on_parse("not detected", &mask, &err), 0);
	assert_int_equal(mask, 1u << VERDICT_NOT_DETECTED);
	compare_fail_on_words(&words, (1u << VERDICT_NOT_DETECTED) | (1u << VERDICT_BETTER));
	assert_string_equal(words.buf, "better,not-detected");
	/* an unknown word, an empty one, a prefix: refused, the words named */
	assert_int_equal(compare_fail_on_parse("wrose", &mask, &err), -1);
	assert_string_equal(err.buf, "'wrose' is not a verdict (better, worse, differs, equivalent, "
				     "not-detected, inconclusive, commas between)");
	strbuf_reset(&err);
	assert_int_equal(compare_fail_on_parse("worse,", &mask, &err), -1);
	assert_non_null(strstr(err.buf, "'' is not a verdict"));
	strbuf_reset(&err);
	assert_int_equal(compare_fail_on_parse("wor", &mask, &err), -1);
	strbuf_reset(&err);
	assert_int_equal(compare_fail_on_parse("", &mask, &err), -1);
	strbuf_release(&err);
	strbuf_release(&words);
}

/* The planted worse fails --fail-on worse (exit 3); nothing differs, and an
 * equivalent row fails only when asked. */
static void test_exit_status(void **state)
{
	char *run = make_run("exit"), *out;

	(void)state;
	assert_int_equal(compare(run, "text", NULL, &out), 0);
	free(out);
	assert_int_equal(compare(run, "text", "worse", &out), COMPARE_EXIT_FAIL_ON);
	free(out);
	assert_int_equal(compare(run, "text", "differs", &out), 0);
	free(out);
	assert_int_equal(compare(run, "text", "better,differs,inconclusive", &out), 0);
	free(out);
	assert_int_equal(compare(run, "json", "equivalent", &out), COMPARE_EXIT_FAIL_ON);
	free(out);
	assert_int_equal(compare(run, "csv", "not-detected", &out), COMPARE_EXIT_FAIL_ON);
	free(out);
	free(run);
}

/* The text: the summary line under the header, the primary's block first,
 * the equivalent row's change on its line. */
static void test_text_summary(void **state)
{
	char *run = make_run("text"), *out;

	(void)state;
	assert_int_equal(compare(run, "text", NULL, &out), 0);
	print_message("%s", out);
	/* in 80 columns: cut after a "; ", else at a blank */
	assert_non_null(strstr(out, "\nbaseline stock: 3 metrics, 3 comparisons, 3 tests\n"
				    "binder-kcalloc: worse on oom_kills (6/6 against 0/6, p-adj 0.002);\n"
				    "  equivalent on " SENDVEC " (+0.5% inside the 2%\n"
				    "  margin, 0 outside its uncorrected 95% interval); 1 row not decided\n"));
	/* the primary's block comes before the others, though run.json lists it last */
	const char *primary = strstr(out, "\noom_kills\n"), *other = strstr(out, "\n" SENDVEC "\n");
	assert_non_null(primary);
	assert_non_null(other);
	assert_true(primary < other);
	assert_non_null(strstr(out, "equivalent (+0.5% inside the 2% margin, 0 outside its uncorrected 95% interval)"));
	free(out);

	/* JSON says it too */
	assert_int_equal(compare(run, "json", NULL, &out), 0);
	json_t *doc = json_loads(out, 0, NULL), *row;
	size_t i, changed = 0;
	assert_non_null(doc);
	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		bool is = json_is_true(json_object_get(row, "equivalent_excludes_zero"));
		assert_true(json_is_boolean(json_object_get(row, "equivalent_excludes_zero")));
		if (!is)
			continue;
		changed++;
		assert_string_equal(json_string_value(json_object_get(row, "metric")), SENDVEC);
		assert_string_equal(json_string_value(json_object_get(row, "verdict")), "equivalent");
		assert_string_equal(json_string_value(json_object_get(row, "claim")),
				    "equivalent (+0.5% inside the 2% margin, 0 outside its uncorrected 95% interval)");
		assert_true(json_number_value(json_object_get(row, "ci_lo")) > 0);
	}
	assert_int_equal(changed, 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(doc, "summary"), 0)),
			    "binder-kcalloc: worse on oom_kills (6/6 against 0/6, p-adj 0.002); "
			    "equivalent on " SENDVEC " (+0.5% inside the 2% margin, 0 outside its uncorrected 95% interval); 1 row "
			    "not decided");
	json_decref(doc);
	free(out);
	free(run);
}

/* A primary not decided is said first all the same: the line does not
 * open on another metric's verdict as if the primary's were settled. */
static void test_summary_primary_undecided(void **state)
{
	char *run = make_run_kills("undecided", kills_kcalloc_three), *out;

	(void)state;
	assert_int_equal(compare(run, "json", NULL, &out), 0);
	json_t *doc = json_loads(out, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "summary")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(doc, "summary"), 0)),
			    "binder-kcalloc: not detected on oom_kills (could miss +-86.01pp); "
			    "equivalent on " SENDVEC " (+0.5% inside the 2% margin, 0 outside its uncorrected 95% interval); "
			    "1 other row not decided");
	json_decref(doc);
	free(out);
	free(run);
}

/* An equivalent row whose interval holds zero is a plain equivalent. */
static void test_equivalent_unchanged(void **state)
{
	static const double b[] = { 25000, 25100, 24950, 25050, 25020, 24980 };
	static const double v[] = { 25060, 25010, 25120, 24990, 25080, 25040 };
	struct compare_group g[] = { { .label = "stock", .values = b, .n = 6 },
				     { .label = "binder-kcalloc", .values = v, .n = 6 } };
	struct compare_metric m = { .groups = g, .n_groups = 2, .margin = { .value = NAN } };
	struct compare_options o;
	struct compare_table t;
	char buf[160];

	(void)state;
	metric_catalog_resolve(SENDVEC, NULL, &m.def);
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.rows[0].verdict, VERDICT_EQUIVALENT);
	assert_true(t.rows[0].ci_lo < 0 && t.rows[0].ci_hi > 0);
	assert_false(t.rows[0].changed_inside_margin);
	assert_string_equal(compare_fmt_verdict(buf, sizeof(buf), &t.rows[0]), "equivalent (+-2%)");
	compare_table_free(&t);
}

/* TAP version 13: the plan, a point per row in order, "not ok" for the
 * rows --fail-on names and only those. */
static void test_tap(void **state)
{
	char *run = make_run("tap"), *out;

	(void)state;
	for (int gated = 0; gated < 2; gated++) {
		assert_int_equal(compare(run, "tap", gated ? "worse" : NULL, &out),
				 gated ? COMPARE_EXIT_FAIL_ON : 0);
		print_message("%s", out);
		char *save = NULL, *line = strtok_r(out, "\n", &save);
		unsigned next = 1, not_ok = 0;
		assert_string_equal(line, "TAP version 13");
		line = strtok_r(NULL, "\n", &save);
		assert_string_equal(line, "1..3");
		while ((line = strtok_r(NULL, "\n", &save))) {
			if (line[0] == '#')
				continue;
			bool ok = !strncmp(line, "ok ", 3);
			assert_true(ok || !strncmp(line, "not ok ", 7));
			char *rest = line + (ok ? 3 : 7), *end;
			assert_int_equal(strtoul(rest, &end, 10), next++);
			assert_true(!strncmp(end, " - binder-kcalloc ", 18));
			not_ok += !ok;
			/* the primary comes first, and is the one that fails */
			if (next == 2)
				assert_string_equal(end, " - binder-kcalloc oom_kills: worse; diff +100pp "
							 "[+44.8,+100], p-adj 0.002");
			if (!ok)
				assert_non_null(strstr(line, "oom_kills: worse"));
		}
		assert_int_equal(next, 4);
		assert_int_equal(not_ok, gated ? 1 : 0);
		free(out);
	}
	free(run);
}

/* Three kernels: the compact overview, a line per metric with the kernels as
 * columns; also at the head of the text format, which two kernels do not get. */
static void test_compact(void **state)
{
	char *run = make_run("compact"), *out;

	(void)state;
	/* a third group: binder-kmem-cache, stock's numbers exactly */
	char *json_path = xasprintf("%s/run.json", run), *json = read_file(json_path, NULL);
	char *at = strstr(json, "]");
	assert_non_null(at);
	char *three = xasprintf("%.*s,\n {\"label\": \"binder-kmem-cache\", \"variant\": "
				"\"binder-kmem-cache\", \"hash\": \"cc\"}%s",
				(int)(at - json), json, at);
	scratch_put(run, "run.json", three);
	for (int i = 0; i < TRIALS; i++)
		put_trial(run, "binder-kmem-cache", i, kills_stock[i], sendvec_stock[i], tput_stock[i]);
	assert_int_equal(compare(run, "compact", NULL, &out), 0);
	print_message("%s", out);
	char *save = NULL, *line = strtok_r(out, "\n", &save);
	/* the header: the metric column, the baseline, the variants in the run's order */
	assert_non_null(line);
	assert_true(starts_with(line, "metric "));
	char *b = strstr(line, " stock"), *k = strstr(line, " binder-kcalloc"),
	     *m = strstr(line, " binder-kmem-cache");
	assert_true(b && k && m && b < k && k < m);
	size_t lines = 0;
	bool kills = false;
	while ((line = strtok_r(NULL, "\n", &save))) {
		lines++;
		if (!starts_with(line, "oom_kills "))
			continue;
		kills = true;
		/* stock's share, kcalloc's with its difference and verdict, kmem-cache's */
		char *s0 = strstr(line, " 0/6 "), *s1 = strstr(line, " 6/6 +100pp worse"),
		     *s2 = strstr(line, " 0/6 +0pp ");
		assert_true(s0 && s1 && s2 && s0 < s1 && s1 < s2);
	}
	assert_true(kills);
	assert_int_equal(lines, 3);
	free(out);
	assert_int_equal(compare(run, "text", NULL, &out), 0);
	assert_non_null(strstr(out, "\nmetric "));
	free(out);
	/* two kernels: the text format as it was, no overview */
	char *two = make_run("compact-two");
	assert_int_equal(compare(two, "text", NULL, &out), 0);
	assert_null(strstr(out, "\nmetric "));
	free(out);
	free(two);
	free(three);
	free(json);
	free(json_path);
	free(run);
}

/* Every '<' opens a tag that closes, every '&' starts one of the entities
 * the writer uses, no control character but LF: a checker of what the
 * writer must get right, not a parser. Returns the number of <testcase>. */
static size_t check_xml(const char *xml)
{
	size_t cases = 0, depth = 0;

	for (const char *p = xml; *p; p++) {
		assert_true(*p == '\n' || (unsigned char)*p >= 0x20);
		if (*p == '&') {
			static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;",
								"&apos;", "&#9;", "&#10;", "&#13;" };
			bool known = false;
			for (size_t i = 0; i < sizeof(entities) / sizeof(entities[0]); i++)
				known |= !strncmp(p, entities[i], strlen(entities[i]));
			assert_true(known);
		} else if (*p == '<') {
			const char *end = strchr(p, '>');
			assert_non_null(end);
			/* no '<' inside a tag: attribute values escaped theirs */
			assert_true(memchr(p + 1, '<', (size_t)(end - p - 1)) == NULL);
			if (p[1] == '/')
				depth--;
			else if (p[1] != '?' && end[-1] != '/')
				depth++;
			cases += !strncmp(p, "<testcase ", 10);
			p = end;
		} else {
			assert_true(*p != '>');
		}
	}
	assert_int_equal(depth, 0);
	return cases;
}

static void test_junit(void **state)
{
	char *run = make_run("junit"), *out;

	(void)state;
	assert_int_equal(compare(run, "junit", "worse,equivalent", &out), COMPARE_EXIT_FAIL_ON);
	print_message("%s", out);
	assert_int_equal(check_xml(out), 3);
	assert_non_null(strstr(out, "<testsuite name=\"baseline stock\" tests=\"3\" failures=\"2\""));
	assert_non_null(strstr(out, "<testcase classname=\"binder-kcalloc\" name=\"oom_kills\">\n"
				    "      <failure type=\"worse\" message=\"worse; diff +100pp "
				    "[+44.8,+100], p-adj 0.002\"/>\n"
				    "      <system-out>worse; diff +100pp [+44.8,+100], p-adj 0.002"
				    "</system-out>"));
	assert_non_null(strstr(out, "<failure type=\"equivalent\" message=\"equivalent (+0.5% "
				    "inside the 2% margin, 0 outside its uncorrected 95% interval)"));
	/* the not-detected row has no failure */
	const char *tput = strstr(out, "name=\"" TPUT "\">\n");
	assert_non_null(tput);
	assert_true(!strncmp(strchr(tput, '\n') + 1, "      <system-out>", 17));
	free(out);
	free(run);
}

/* Names with the characters TAP and XML give a meaning to, and control
 * characters, come out escaped. */
static void test_escaping(void **state)
{
	static const double b[] = { 1, 2, 3, 4, 5, 6 }, v[] = { 1, 2, 3, 4, 5, 7 };
	struct compare_group g[] = { { .label = "stock", .values = b, .n = 6 },
				     { .label = "a<b>&\"c\"'d'\\f\tg", .values = v, .n = 6 } };
	struct compare_metric m = { .groups = g, .n_groups = 2, .margin = { .value = NAN } };
	struct compare_options o;
	struct compare_table t;
	char *buf = NULL;
	size_t len;

	(void)state;
	metric_catalog_resolve("x#y<z>\n", "ms", &m.def);
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(compare_format_junit(f, &t, ~0u), 0);
	fclose(f);
	print_message("%s", buf);
	assert_int_equal(check_xml(buf), 1);
	assert_non_null(strstr(buf, "classname=\"a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\\f&#9;g\""));
	assert_non_null(strstr(buf, "name=\"x#y&lt;z&gt;&#10;\""));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(compare_format_tap(f, &t, 0), 0);
	fclose(f);
	print_message("%s", buf);
	assert_non_null(strstr(buf, "\nok 1 - a<b>&\"c\"'d'\\\\f?g x\\#y<z>?: "));
	free(buf);
	compare_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fail_on_parse),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_text_summary),
		cmocka_unit_test(test_summary_primary_undecided),
		cmocka_unit_test(test_equivalent_unchanged),
		cmocka_unit_test(test_tap),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_compact),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
