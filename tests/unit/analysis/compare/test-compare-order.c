/* test-compare-order.c - the table tells the kernel selftests' newly
 * failing cases first (issue 34): a case worse for a variant before the
 * cases newly passing (better), those before every other row, the primary
 * metric's rows before all; in every format, and in each variant's summary
 * line by that variant's own verdicts (analysis/compare/compare_order.h).
 *
 * The verdicts are checked too, so that an order that comes out right
 * only because the data did not give the verdicts meant is a failure.
 * Every verdict here is certain, not a chance (no false-failure rate to
 * state): the values are fixed, Fisher's test is exact, the time metric's
 * permutation test is exact (all 924 splits of 6 + 6; mine's groups do not
 * overlap, v2's equal stock's) and its seed fixed.
 *   Fisher, 6/6 against 0/6: p = 2 / C(12,6) = 0.00216
 *   Fisher, 10/20 against 0/20 (or 20/20): p = 2 C(20,10) / C(40,10) = 0.000436
 * Holm over 16 tests: the two 20-trial rows first (p-adj 16 x 0.000436 =
 * 0.007), then the p = 0.00216 rows from step 2, p-adj 14 x 0.00216 =
 * 0.030 < 0.05; every other row has p = 1.
 * (python3: from math import comb; 2/comb(12,6); 2*comb(20,10)/comb(40,10)) */
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
#include "analysis/metrics/metric_catalog.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))

static const double pass6[] = { 1, 1, 1, 1, 1, 1 };
static const double fail6[] = { 0, 0, 0, 0, 0, 0 };
static const double flaky6[] = { 1, 1, 0, 1, 1, 1 };	/* 5/6: not 6/6's difference */
static const double pass20[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const double fail20[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
static const double half20[] = { 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0 };
/* sendVec round trips in ns (test-compare.c's), and 5.3% slower */
static const double sendvec[] = { 24300, 25000, 25300, 24800, 25100, 24600 };
static const double sendvec_slow[] = { 25900, 26400, 26000, 26800, 26200, 25700 };

#define SENDVEC "binder-sendvec.sendvec_ns_per_rt.size=4"
#define COMPLETED "selftest.cgroup.test_memcontrol.completed"
#define KMEM "selftest.cgroup.test_kmem.test_kmem_basic"
#define MIN "selftest.cgroup.test_memcontrol.test_memcg_min"
#define SOCK "selftest.cgroup.test_memcontrol.test_memcg_sock"
#define GROUP "selftest.cgroup.test_memcontrol.test_memcg_oom_group_score_events"
#define PEAK "selftest.cgroup.test_memcontrol.test_memcg_current_peak"
#define MRELEASE "selftest.mm.mrelease_test.mrelease_test"

/* One metric's groups: the baseline "stock", then "mine" and "v2". */
struct input {
	const char *name;
	const double *stock, *mine, *v2;
	size_t n;
	enum compare_verdict want_mine, want_v2;
};

/* In the input's order; the table's must be another. */
static const struct input inputs[] = {
	/* not a case: worse, and stays among the others; v2 has stock's values */
	{ SENDVEC, sendvec, sendvec_slow, sendvec, 6, VERDICT_WORSE, VERDICT_EQUIVALENT },
	/* a selftest's figure, not a case: worse, stays too */
	{ COMPLETED, pass6, fail6, pass6, 6, VERDICT_WORSE, VERDICT_NOT_DETECTED },
	/* newly failing for mine, newly passing for v2 */
	{ KMEM, half20, fail20, pass20, 20, VERDICT_WORSE, VERDICT_BETTER },
	/* flaky on mine (not detected), newly failing for v2 */
	{ MIN, pass6, flaky6, fail6, 6, VERDICT_NOT_DETECTED, VERDICT_WORSE },
	/* newly passing for both */
	{ SOCK, fail6, pass6, pass6, 6, VERDICT_BETTER, VERDICT_BETTER },
	{ GROUP, pass6, fail6, pass6, 6, VERDICT_WORSE, VERDICT_NOT_DETECTED },
	{ PEAK, pass6, pass6, pass6, 6, VERDICT_NOT_DETECTED, VERDICT_NOT_DETECTED },
	{ MRELEASE, pass6, fail6, pass6, 6, VERDICT_WORSE, VERDICT_NOT_DETECTED },
};

/* The table's order: the metrics failing for some variant, then those
 * passing, then the rest, each in the input's order. */
static const char *const table_order[] = { KMEM, MIN, GROUP, MRELEASE, SOCK,
					   SENDVEC, COMPLETED, PEAK };

static void build(struct compare_table *t, const char *primary)
{
	struct compare_group groups[N(inputs)][3];
	struct compare_metric metrics[N(inputs)];
	struct compare_options o;

	for (size_t i = 0; i < N(inputs); i++) {
		const struct input *in = &inputs[i];

		groups[i][0] = (struct compare_group){ .label = "stock", .values = in->stock, .n = in->n };
		groups[i][1] = (struct compare_group){ .label = "mine", .values = in->mine, .n = in->n };
		groups[i][2] = (struct compare_group){ .label = "v2", .values = in->v2, .n = in->n };
		metrics[i] = (struct compare_metric){ .groups = groups[i], .n_groups = 3,
						      .margin = { .value = NAN } };
		metric_catalog_resolve(in->name, NULL, &metrics[i].def);
	}
	compare_options_default(&o);
	o.primary = primary;
	assert_int_equal(compare_table_build(metrics, N(inputs), &o, t), 0);
}

static const struct input *input_of(const char *name)
{
	for (size_t i = 0; i < N(inputs); i++)
		if (!strcmp(inputs[i].name, name))
			return &inputs[i];
	fail_msg("no input %s", name);
	return NULL;
}

/* Every row has the verdict its input meant: the data say what the order
 * is checked against. */
static void expect_verdicts(const struct compare_table *t)
{
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct compare_row *r = &t->rows[i];
		const struct input *in = input_of(t->metrics[r->metric].name);
		enum compare_verdict want = !strcmp(r->var.variant, "mine") ? in->want_mine
									    : in->want_v2;

		print_message("%s %s: %s, p-adj %.4g\n", r->var.variant, t->metrics[r->metric].name,
			      compare_verdict_word(r->verdict), r->p_adj);
		assert_string_equal(compare_verdict_word(r->verdict), compare_verdict_word(want));
	}
}

static char *text_of(const struct compare_table *t, const char *how)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (!strcmp(how, "text"))
		assert_int_equal(compare_format_text(f, t, false), 0);
	else if (!strcmp(how, "markdown"))
		assert_int_equal(compare_format_markdown(f, t), 0);
	else if (!strcmp(how, "tap"))
		assert_int_equal(compare_format_tap(f, t, 0), 0);
	else if (!strcmp(how, "compact"))
		assert_int_equal(compare_format_compact(f, t), 0);
	else
		assert_int_equal(compare_format_json(f, t), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The line of OUT that starts with PREFIX, or NULL. */
static const char *line_starting(const char *out, const char *prefix)
{
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix)))
			return l;
	return NULL;
}

/* Where each metric's first line, as FMT makes it from the name, is in
 * OUT: they must come in the order NAMES gives. */
static void expect_lines_in_order(const char *out, const char *fmt, const char *const *names,
				  size_t n, const char *what)
{
	const char *last = NULL;

	for (size_t i = 0; i < n; i++) {
		char prefix[256];
		const char *at;

		snprintf(prefix, sizeof(prefix), fmt, names[i]);
		at = line_starting(out, prefix);
		if (!at || (last && at < last))
			fail_msg("%s: '%s' %s; the output:\n%s", what, prefix,
				 at ? "comes before the metric that should precede it" : "is missing", out);
		last = at;
	}
}

/* The table, and every format from it, in the order: newly failing first. */
static void test_table_order(void **state)
{
	struct compare_table t;
	char *out;
	json_t *doc, *rows;
	json_error_t err;

	(void)state;
	build(&t, NULL);
	expect_verdicts(&t);

	out = text_of(&t, "text");	/* each block opens with the name alone */
	expect_lines_in_order(out, "%s\n", table_order, N(table_order), "text blocks");
	free(out);
	out = text_of(&t, "markdown");	/* each block opens with the baseline's row */
	{
		char escaped[N(table_order)][256];
		const char *names[N(table_order)];

		for (size_t m = 0; m < N(table_order); m++) {	/* '_' as Markdown has it: '\_' */
			size_t k = 0;

			for (const char *c = table_order[m]; *c; c++) {
				if (*c == '_')
					escaped[m][k++] = '\\';
				escaped[m][k++] = *c;
			}
			escaped[m][k] = '\0';
			names[m] = escaped[m];
		}
		expect_lines_in_order(out, "| %s | stock |", names, N(names), "markdown");
	}
	free(out);
	out = text_of(&t, "compact");
	expect_lines_in_order(out, "%s ", table_order, N(table_order), "compact");
	free(out);

	out = text_of(&t, "json");
	doc = json_loads(out, 0, &err);
	assert_non_null(doc);
	rows = json_object_get(doc, "rows");
	assert_int_equal(json_array_size(rows), 2 * N(table_order));
	for (size_t i = 0; i < json_array_size(rows); i++)
		assert_string_equal(json_string_value(json_object_get(json_array_get(rows, i), "metric")),
				    table_order[i / 2]);
	json_decref(doc);
	free(out);

	/* what they print from: a metric's rows together, in the table's
	 * metric order, the variants in theirs */
	assert_int_equal(t.n_metrics, N(table_order));
	for (size_t m = 0; m < t.n_metrics; m++)
		assert_string_equal(t.metrics[m].name, table_order[m]);
	for (size_t i = 0; i < t.n_rows; i++) {
		assert_int_equal(t.rows[i].metric, i / 2);
		assert_string_equal(t.rows[i].var.variant, i % 2 ? "v2" : "mine");
	}
	compare_table_free(&t);
}

/* The summary line of OUT that starts with PREFIX, its continuations
 * (lines the text format wrapped at 80 columns, indented by two) joined
 * with a blank. Malloc'd; fails when there is none. */
static char *summary_line(const char *out, const char *prefix)
{
	const char *at = line_starting(out, prefix);
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!at)
		fail_msg("no line starting '%s' in:\n%s", prefix, out);
	fprintf(f, "%.*s", (int)strcspn(at, "\n"), at);
	for (at = strchr(at, '\n'); at && !strncmp(at + 1, "  ", 2); at = strchr(at + 1, '\n'))
		fprintf(f, " %.*s", (int)strcspn(at + 3, "\n"), at + 3);
	fclose(f);
	return line;
}

/* LINE says "WORD on NAME (" after the text AFTER (NULL: anywhere). */
static void expect_said(const char *line, const char *word, const char *name, const char *after)
{
	char said[256];
	const char *at, *before;

	snprintf(said, sizeof(said), "%s on %s (", word, name);
	at = strstr(line, said);
	before = after ? strstr(line, after) : line;
	if (!at || !before || at < before)
		fail_msg("'%s' %s '%s' in: %s", said, at ? "not after" : "missing; wanted after",
			 after ? after : "(start)", line);
}

static void expect_start(const char *line, const char *start)
{
	if (strncmp(line, start, strlen(start)))
		fail_msg("the line does not start '%s': %s", start, line);
}

/* Each variant's summary line: its own newly failing cases first, under a
 * heading with their count, then its newly passing ones, then the rest. */
static void test_summary_order(void **state)
{
	struct compare_table t;
	char *out, *mine, *v2;

	(void)state;
	build(&t, NULL);
	out = text_of(&t, "text");
	print_message("%s", out);
	mine = summary_line(out, "mine:");
	v2 = summary_line(out, "v2:");

	expect_start(mine, "mine: newly failing (3 cases): worse on " KMEM " (");
	expect_said(mine, "worse", GROUP, KMEM);
	expect_said(mine, "worse", MRELEASE, GROUP);
	expect_said(mine, "newly passing (1 case): better", SOCK, MRELEASE);
	expect_said(mine, "worse", SENDVEC, SOCK);
	expect_said(mine, "worse", COMPLETED, SENDVEC);
	assert_null(strstr(mine, "on " MIN " ("));	/* not detected: counted, not said */
	assert_non_null(strstr(mine, "; 2 rows not decided"));

	/* KMEM, the table's first metric, is newly passing for v2: after MIN */
	expect_start(v2, "v2: newly failing (1 case): worse on " MIN " (");
	expect_said(v2, "newly passing (2 cases): better", KMEM, MIN);
	expect_said(v2, "better", SOCK, KMEM);
	expect_said(v2, "equivalent", SENDVEC, SOCK);
	assert_non_null(strstr(v2, "; 4 rows not decided"));

	free(mine);
	free(v2);
	free(out);
	compare_table_free(&t);
}

/* A primary metric keeps its place: first in the table and in each line,
 * before the newly failing cases, though last of them in the input. With
 * both its rows significant the gate is open and the others are judged as
 * without it (compare.h; Holm over 14 tests, p-adj at most 0.026). */
static void test_primary_first(void **state)
{
	static const char *const order[] = { SOCK, KMEM, MIN, GROUP, MRELEASE,
					     SENDVEC, COMPLETED, PEAK };
	struct compare_table t;
	char *out, *mine, *v2;

	(void)state;
	build(&t, SOCK);
	expect_verdicts(&t);
	assert_true(t.gate_open);
	for (size_t m = 0; m < t.n_metrics; m++)
		assert_string_equal(t.metrics[m].name, order[m]);
	out = text_of(&t, "text");
	expect_lines_in_order(out, "%s\n", order, N(order), "text blocks");
	mine = summary_line(out, "mine:");
	v2 = summary_line(out, "v2:");
	print_message("%s\n%s\n", mine, v2);
	expect_start(mine, "mine: better on " SOCK " (");
	expect_said(mine, "; newly failing (3 cases): worse", KMEM, SOCK);
	expect_start(v2, "v2: better on " SOCK " (");
	expect_said(v2, "; newly failing (1 case): worse", MIN, SOCK);
	expect_said(v2, "; newly passing (1 case): better", KMEM, MIN);
	free(mine);
	free(v2);
	free(out);
	compare_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_order),
		cmocka_unit_test(test_summary_order),
		cmocka_unit_test(test_primary_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
