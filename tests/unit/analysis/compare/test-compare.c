/* test-compare.c - unit tests for analysis/compare*.c and analysis/metric.c
 *
 * Reference values were computed independently with python3 3.11 and its
 * standard library only; each snippet is in the comment above its test.
 * Output formats are checked by parsing them here: a small JSON syntax
 * checker, an RFC 4180 field counter, and column counts.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* open_memstream; the Makefile passes it too */
#endif
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "analysis/compare/compare.h"

/* cmocka 1.1.5 only compares floats; TOL is absolute for |expected| <= 1,
 * relative above. */
#define assert_close(actual, expected, tol) \
	assert_close_at((actual), (expected), (tol), #actual, __FILE__, __LINE__)

static void assert_close_at(double actual, double expected, double tol,
			    const char *expr, const char *file, int line)
{
	if (!(fabs(actual - expected) <= tol * fmax(1.0, fabs(expected)))) {
		print_error("%s = %.17g, expected %.17g (tol %g)\n",
			    expr, actual, expected, tol);
		_fail(file, line);
	}
}

#define N(x) (sizeof(x) / sizeof((x)[0]))

/* ---- building inputs ---- */

static struct compare_group group(const char *label, const double *v, size_t n)
{
	return (struct compare_group){ .label = label, .values = v, .n = n };
}

static struct compare_metric metric(const char *name,
				    const struct compare_group *groups, size_t n)
{
	struct compare_metric m = { .groups = groups, .n_groups = n };

	metric_resolve(name, NULL, &m.def);
	return m;
}

/* One metric, baseline "stock" first, variant "new" second. */
static void build_pair(struct compare_table *t, const char *name,
		       const double *base, size_t nb, const double *var, size_t nv)
{
	struct compare_group g[] = { group("stock", base, nb), group("new", var, nv) };
	struct compare_metric m = metric(name, g, 2);
	struct compare_options o;

	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, t), 0);
	assert_int_equal(t->n_rows, 1);
}

static const double times_a[] = { 120, 131, 125, 140, 118, 127, 133, 122, 129, 135 };
/* times_a + 30 give or take: a clear shift up by about 23% */
static const double times_up[] = { 150, 162, 148, 171, 155, 160, 149, 158, 166, 153 };
static const double times_down[] = { 90, 101, 95, 110, 88, 97, 103, 92, 99, 105 };

/* ---- verdicts ---- */

static void test_identical_no_difference(void **state)
{
	struct compare_table t;

	(void)state;
	build_pair(&t, "alloc_stall_time_total_ms", times_a, N(times_a), times_a, N(times_a));
	assert_int_equal(t.rows[0].verdict, VERDICT_NO_DIFFERENCE);
	assert_close(t.rows[0].diff, 0.0, 0);
	assert_true(t.rows[0].ci_lo <= 0.0 && t.rows[0].ci_hi >= 0.0);
	assert_close(t.rows[0].p, 1.0, 1e-12);
	compare_table_free(&t);
}

static void expect_verdict(const char *name, const double *var, enum compare_verdict want)
{
	struct compare_table t;

	build_pair(&t, name, times_a, N(times_a), var, 10);
	print_message("%s: diff %+.1f%% p_adj %.2g -> %s\n", name, t.rows[0].diff,
		      t.rows[0].p_adj, compare_verdict_word(t.rows[0].verdict));
	assert_string_equal(compare_verdict_word(t.rows[0].verdict),
			    compare_verdict_word(want));
	compare_table_free(&t);
}

static void test_direction_lower_is_better(void **state)
{
	(void)state;
	expect_verdict("alloc_stall_time_total_ms", times_up, VERDICT_WORSE);
	expect_verdict("alloc_stall_time_total_ms", times_down, VERDICT_BETTER);
	/* a glob entry of the known table: binder_sendvec_ns_* */
	expect_verdict("binder_sendvec_ns_4096", times_down, VERDICT_BETTER);
}

static void test_direction_higher_is_better(void **state)
{
	(void)state;
	expect_verdict("binder_throughput_iter_per_s", times_up, VERDICT_BETTER);
	expect_verdict("spawn_per_s", times_down, VERDICT_WORSE);
}

static void test_direction_neither(void **state)
{
	(void)state;
	expect_verdict("reaper_wake_delay_ms", times_up, VERDICT_DIFFERS);
	expect_verdict("some_unknown_metric_ms", times_down, VERDICT_DIFFERS);
}

static void test_too_few_trials_inconclusive(void **state)
{
	struct compare_table t;

	(void)state;
	build_pair(&t, "alloc_stall_time_total_ms", times_a, 10, times_up, 1);
	assert_int_equal(t.rows[0].verdict, VERDICT_INCONCLUSIVE);
	assert_non_null(t.rows[0].why);
	assert_true(isnan(t.rows[0].p) && isnan(t.rows[0].p_adj));
	assert_true(isfinite(t.rows[0].diff));	/* still shown */
	assert_int_equal(t.n_tests, 0);
	compare_table_free(&t);

	build_pair(&t, "alloc_stall_time_total_ms", times_a, 2, times_up, 10);
	assert_int_equal(t.rows[0].verdict, VERDICT_INCONCLUSIVE);
	compare_table_free(&t);

	build_pair(&t, "alloc_stall_time_total_ms", times_a, 3, times_up, 3);
	assert_int_not_equal(t.rows[0].verdict, VERDICT_INCONCLUSIVE);
	compare_table_free(&t);
}

/* ---- the tests a metric kind picks, against reference p-values ----
 * Poisson rate (oom_kills, baseline 2 events, variant 12, in 10 + 10
 * trials): the row tests the variant's 12 of k = 14 at share 10/20:
 *   2 * sum(math.comb(14, j) for j in (12, 13, 14)) / 2**14 = 0.012939453125
 * Fisher (trial_ok, variant 3 ok + 7 not, baseline 10 ok + 0 not):
 *   fisher(3, 7, 10, 0) (snippet in test-stats.c) = 0.0030959752321981426
 */
static void test_rate_test_for_counts(void **state)
{
	static const double base[] = { 0, 1, 0, 0, 0, 1, 0, 0, 0, 0 };
	/* 12 events; median 2 but mean 1.2: counts compare by the mean */
	static const double var[] = { 2, 2, 2, 2, 2, 2, 0, 0, 0, 0 };
	struct compare_table t;

	(void)state;
	build_pair(&t, "oom_kills", base, N(base), var, N(var));
	assert_int_equal(t.metrics[0].centre, STATS_MEAN);
	assert_int_equal(t.rows[0].test, COMPARE_TEST_RATE);
	assert_close(t.rows[0].p, 0.012939453125, 1e-12);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	/* mean 0.2 -> 1.2 events per trial. A resample of this baseline is
	 * all zeros with probability 0.8^10 = 0.11, so percent is undefined
	 * and the difference is absolute: +1 event per trial. */
	assert_true(t.rows[0].absolute);
	assert_close(t.rows[0].diff, 1.0, 1e-12);
	compare_table_free(&t);
}

static void test_fisher_for_outcomes(void **state)
{
	static const double base[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const double var[] = { 1, 0, 0, 1, 0, 0, 1, 0, 0, 0 };
	struct compare_table t;

	(void)state;
	build_pair(&t, "trial_ok", base, N(base), var, N(var));
	assert_int_equal(t.rows[0].test, COMPARE_TEST_PROPORTION);
	assert_close(t.rows[0].p, 0.0030959752321981426, 1e-12);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	assert_close(t.rows[0].diff, -70.0, 1e-9);
	compare_table_free(&t);
}

/* Non-integer "counts" cannot go to the rate test: ranks instead. */
static void test_fractional_counts_use_ranks(void **state)
{
	static const double base[] = { 0.5, 1.5, 0.25, 1 };
	struct compare_table t;

	(void)state;
	build_pair(&t, "mmap_failures", base, 4, base, 4);
	assert_int_equal(t.rows[0].test, COMPARE_TEST_RANK);
	compare_table_free(&t);
}

/* ---- zero baseline ----
 * baseline mean 0 events: percent would be inf; the difference must be
 * absolute (0 -> 1.5 events per trial = +1.5) and no inf/nan printed. */
static const double zeros[] = { 0, 0, 0, 0, 0, 0 };
static const double kills[] = { 1, 2, 1, 2, 1, 2 };

static char *format(const struct compare_table *t, const char *how)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (strcmp(how, "text") == 0)
		assert_int_equal(compare_format_text(f, t, false), 0);
	else if (strcmp(how, "colour") == 0)
		assert_int_equal(compare_format_text(f, t, true), 0);
	else if (strcmp(how, "markdown") == 0)
		assert_int_equal(compare_format_markdown(f, t), 0);
	else if (strcmp(how, "json") == 0)
		assert_int_equal(compare_format_json(f, t), 0);
	else
		assert_int_equal(compare_format_csv(f, t), 0);
	fclose(f);
	return buf;
}

static void assert_no_inf_nan(const char *s)
{
	for (const char *p = s; *p; p++) {
		bool word_start = p == s || !((p[-1] >= 'a' && p[-1] <= 'z') ||
					      (p[-1] >= 'A' && p[-1] <= 'Z'));

		if (word_start && (strncasecmp(p, "inf", 3) == 0 ||
				   strncasecmp(p, "nan", 3) == 0)) {
			print_error("inf/nan in output at: %.20s\n", p);
			fail();
		}
	}
}

static void test_zero_baseline(void **state)
{
	static const char *const formats[] = { "text", "markdown", "json", "csv" };
	struct compare_table t;

	(void)state;
	build_pair(&t, "oom_kills", zeros, N(zeros), kills, N(kills));
	assert_true(t.rows[0].absolute);
	assert_close(t.rows[0].diff, 1.5, 1e-12);
	assert_true(isfinite(t.rows[0].ci_lo) && isfinite(t.rows[0].ci_hi));
	assert_true(t.rows[0].ci_lo > 0.0 && t.rows[0].ci_hi <= 2.0);
	assert_true(isfinite(t.rows[0].mde));
	for (size_t i = 0; i < N(formats); i++) {
		char *out = format(&t, formats[i]);

		assert_no_inf_nan(out);
		free(out);
	}
	{
		char *text = format(&t, "text");

		assert_non_null(strstr(text, "+1.5abs"));
		free(text);
	}
	compare_table_free(&t);
}

/* Both sides all zero: no events is no difference, not garbage. */
static void test_zero_vs_zero(void **state)
{
	struct compare_table t;

	(void)state;
	build_pair(&t, "oom_kills", zeros, N(zeros), zeros, N(zeros));
	assert_true(t.rows[0].absolute);
	assert_close(t.rows[0].diff, 0.0, 0);
	assert_close(t.rows[0].p, 1.0, 0);
	assert_int_equal(t.rows[0].verdict, VERDICT_NO_DIFFERENCE);
	compare_table_free(&t);
}

/* ---- Holm over one table ----
 * Two rank-test rows with exact p-values from test-stats.c's enumeration:
 *   [1,2,3,4,5] vs [3.5,6,7,8,9,10]           p1 = 0.017316017316017316
 *   8 values vs 9 values (a3/b3 there)        p2 = 0.007897984368572603
 * and a third row with n = 1 that must stay out of the family (m = 2):
 *   min(1, 2 * p2) = 0.015795968737145206; max(that, 1 * p1) = p1
 */
static void test_holm_over_table(void **state)
{
	static const double a1[] = { 1, 2, 3, 4, 5 }, b1[] = { 3.5, 6, 7, 8, 9, 10 };
	static const double a3[] = { 12.1, 15.3, 11.8, 14.2, 13.9, 16.0, 12.7, 13.1 };
	static const double b3[] = { 14.8, 17.2, 15.9, 16.4, 18.1, 13.5, 17.7,
				     16.9, 15.1 };
	struct compare_group g1[] = { group("stock", a1, 5), group("new", b1, 6),
				      group("one", b1, 1) };
	struct compare_group g2[] = { group("stock", a3, 8), group("new", b3, 9) };
	struct compare_metric m[] = { metric("binder_latency_p99_ms", g1, 3),
				      metric("reclaim_stall_p99_us", g2, 2) };
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(m, 2, &o, &t), 0);
	assert_int_equal(t.n_rows, 3);
	assert_int_equal(t.n_tests, 2);
	assert_string_equal(t.rows[0].var.variant, "new");
	assert_string_equal(t.rows[1].var.variant, "one");
	assert_close(t.rows[0].p, 0.017316017316017316, 1e-12);
	assert_close(t.rows[2].p, 0.007897984368572603, 1e-12);
	assert_close(t.rows[0].p_adj, 0.017316017316017316, 1e-12);
	assert_close(t.rows[2].p_adj, 0.015795968737145206, 1e-12);
	assert_true(isnan(t.rows[1].p_adj));
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	assert_int_equal(t.rows[1].verdict, VERDICT_INCONCLUSIVE);
	assert_int_equal(t.rows[2].verdict, VERDICT_WORSE);
	compare_table_free(&t);
}

/* ---- bootstrap CI in the table ---- */
static void test_ci_seeded(void **state)
{
	struct compare_group g[] = { group("stock", times_a, 10), group("new", times_up, 10) };
	struct compare_metric m = metric("alloc_stall_time_total_ms", g, 2);
	struct compare_options o;
	struct compare_table t1, t2, t3;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t1), 0);
	assert_int_equal(compare_table_build(&m, 1, &o, &t2), 0);
	o.seed = 12345;
	assert_int_equal(compare_table_build(&m, 1, &o, &t3), 0);
	assert_true(t1.rows[0].ci_lo == t2.rows[0].ci_lo &&
		    t1.rows[0].ci_hi == t2.rows[0].ci_hi);
	assert_true(t1.rows[0].ci_lo != t3.rows[0].ci_lo ||
		    t1.rows[0].ci_hi != t3.rows[0].ci_hi);
	/* medians 128 -> 156.5: +22.27%, inside and away from 0 */
	assert_close(t1.rows[0].diff, 100.0 * (156.5 - 128.0) / 128.0, 1e-12);
	assert_true(t1.rows[0].ci_lo > 0.0);
	assert_true(t1.rows[0].ci_lo < t1.rows[0].diff && t1.rows[0].diff < t1.rows[0].ci_hi);
	compare_table_free(&t1);
	compare_table_free(&t2);
	compare_table_free(&t3);
}

/* ---- minimum detectable effect ----
 *   z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
 *   b = [10,12,14,16,18]; v = [11,13,15,17,19]  (each: sum of squares 40)
 *   sd = math.sqrt((40 + 40) / (5 + 5 - 2)) = 3.1622776601683795
 *   mde = z * sd * math.sqrt(1/5 + 1/5) = 5.603170436225936
 *   in % of the baseline median 14: 40.0226459730424
 */
static void test_mde(void **state)
{
	static const double b[] = { 10, 12, 14, 16, 18 }, v[] = { 11, 13, 15, 17, 19 };
	struct compare_table t;

	(void)state;
	build_pair(&t, "binder_latency_p99_ms", b, 5, v, 5);
	assert_false(t.rows[0].absolute);
	assert_close(t.rows[0].mde, 40.0226459730424, 1e-9);
	assert_int_equal(t.rows[0].verdict, VERDICT_NO_DIFFERENCE);
	compare_table_free(&t);
}

/* ---- A/A noise floor ---- */
static void test_aa_noise(void **state)
{
	static const double a2[] = { 124, 128, 121, 138, 126, 130, 119, 134, 127, 125 };
	static const double near[] = { 121, 129, 126, 137, 119, 128, 132, 124, 130, 131 };
	struct compare_group g[] = { group("stock", times_a, 10), group("stock#2", a2, 10),
				     group("new", near, 10), group("far", times_up, 10) };
	struct compare_metric m = metric("alloc_stall_time_total_ms", g, 4);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_string_equal(t.baseline, "stock");
	assert_int_equal(t.n_rows, 2);	/* stock#2 is no row of its own */
	assert_true(t.has_noise);
	assert_string_equal(t.rows[0].var.variant, "new");
	assert_true(isfinite(t.rows[0].noise) && t.rows[0].noise > 0.0);
	assert_true(t.rows[0].within_noise);	/* +0.4% vs several % */
	assert_false(t.rows[1].within_noise);	/* +22% */
	assert_close(t.rows[0].noise, t.rows[1].noise, 0);	/* same A/A */
	compare_table_free(&t);

	/* without A/A groups there is no noise floor */
	m.groups = &g[1];	/* stock#2 (variant stock) and new */
	m.n_groups = 2;
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_string_equal(t.baseline, "stock");
	assert_true(isnan(t.rows[0].noise));
	assert_false(t.has_noise);
	compare_table_free(&t);
}

static void test_baseline_option(void **state)
{
	struct compare_group g[] = { group("stock", times_a, 10), group("new", times_up, 10) };
	struct compare_metric m = metric("alloc_stall_time_total_ms", g, 2);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	o.baseline = "new";
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.n_rows, 1);
	assert_string_equal(t.rows[0].var.variant, "stock");
	assert_int_equal(t.rows[0].verdict, VERDICT_BETTER);
	compare_table_free(&t);
}

static void test_rejects_bad_input(void **state)
{
	static const double bad[] = { 1, NAN, 3 };
	struct compare_group g[] = { group("stock", times_a, 10), group("new", bad, 3) };
	struct compare_metric m = metric("alloc_stall_time_total_ms", g, 2);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), -EINVAL);
	assert_int_equal(t.n_rows, 0);
	compare_table_free(&t);	/* safe after failure */
	g[1].n = 1;
	o.alpha = 0;
	assert_int_equal(compare_table_build(&m, 1, &o, &t), -EINVAL);
}

/* ---- output formats ---- */

/* A table with the awkward cases: long names, a zero baseline, n = 1,
 * huge and tiny values, A/A groups, and strings that need escaping. */
struct awkward {
	struct compare_group g1[4], g2[3], g3[2], g4[2];
	struct compare_metric m[4];
	struct compare_table t;
};

static const double huge_a[] = { 123456789, 234567891, 345678912, 156789123 };
static const double huge_b[] = { 987654321, 876543219, 765432198, 654321987 };
static const double tiny_a[] = { 0.000012, 0.000015, 0.000011, 0.000014 };
static const double tiny_b[] = { 0.000022, 0.000025, 0.000021, 0.000024 };

static void build_awkward(struct awkward *w)
{
	struct compare_options o;

	w->g1[0] = group("stock", times_a, 10);
	w->g1[1] = group("stock#2", times_down, 10);
	w->g1[2] = group("a-very-long-variant-name-indeed", times_up, 10);
	w->g1[3] = group("one", times_up, 1);
	w->g1[2].n_other = 123;
	w->g2[0] = group("stock", zeros, 6);
	w->g2[1] = group("a-very-long-variant-name-indeed", kills, 6);
	w->g2[2] = group("one", kills, 1);
	w->g3[0] = group("stock", huge_a, 4);
	w->g3[1] = group("one", huge_b, 4);
	w->g4[0] = group("stock", tiny_a, 4);
	w->g4[1] = group("weird \"name\"|x", tiny_b, 4);
	w->m[0] = metric("a_metric_with_a_really_long_name_that_goes_on_and_on_ms",
			 w->g1, 4);
	w->m[1] = metric("oom_kills", w->g2, 3);
	w->m[2] = metric("slab_binder_bytes", w->g3, 2);
	w->m[3] = metric("odd \"metric\"\\ with\ttab,comma\nnewline", w->g4, 2);
	compare_options_default(&o);
	assert_int_equal(compare_table_build(w->m, 4, &o, &w->t), 0);
}

/* Visible width: ANSI colour sequences (ESC [ ... m) take no columns. */
static size_t visible_width(const char *line, size_t len)
{
	size_t width = 0;

	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\033') {
			while (i < len && line[i] != 'm')
				i++;
			continue;
		}
		width++;
	}
	return width;
}

static void assert_lines_fit(const char *text, size_t columns)
{
	const char *line = text;
	size_t lines = 0;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (visible_width(line, len) > columns) {
			print_error("line of %zu columns: %.*s\n",
				    visible_width(line, len), (int)len, line);
			fail();
		}
		lines++;
		line += len + (end ? 1 : 0);
	}
	assert_true(lines > 10);
}

static void test_text_fits_80_columns(void **state)
{
	struct awkward w;
	char *text, *colour;

	(void)state;
	build_awkward(&w);
	text = format(&w.t, "text");
	colour = format(&w.t, "colour");
	assert_lines_fit(text, 80);
	assert_lines_fit(colour, 80);
	assert_null(strchr(text, '\033'));
	assert_non_null(strchr(colour, '\033'));
	/* the verdict words and the notes are there */
	assert_non_null(strstr(text, "worse"));
	assert_non_null(strstr(text, "inconclusive"));
	assert_non_null(strstr(text, "Holm"));
	assert_non_null(strstr(text, "A/A"));
	assert_non_null(strstr(text, "10+123"));
	free(text);
	free(colour);
	compare_table_free(&w.t);
}

/* ---- a small JSON syntax checker (RFC 8259 grammar, no semantics) ---- */
struct json {
	const char *p;
};

static bool json_value(struct json *j);

static void json_ws(struct json *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool json_lit(struct json *j, const char *word)
{
	size_t len = strlen(word);

	if (strncmp(j->p, word, len) != 0)
		return false;
	j->p += len;
	return true;
}

static bool json_string(struct json *j)
{
	if (*j->p++ != '"')
		return false;
	while (*j->p != '"') {
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20)
			return false;	/* raw control characters are invalid */
		if (c != '\\')
			continue;
		c = (unsigned char)*j->p++;
		if (c == 'u') {
			for (int i = 0; i < 4; i++)
				if (!strchr("0123456789abcdefABCDEF", *j->p++) || !j->p[-1])
					return false;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return false;
		}
	}
	j->p++;
	return true;
}

static bool json_digits(struct json *j)
{
	const char *start = j->p;

	while (*j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

static bool json_number(struct json *j)
{
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return false;
	if (*j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return false;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

/* Members of an object (KEYED) or elements of an array, up to CLOSE. */
static bool json_items(struct json *j, char close, bool keyed)
{
	j->p++;
	json_ws(j);
	if (*j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		json_ws(j);
		if (keyed) {
			if (!json_string(j))
				return false;
			json_ws(j);
			if (*j->p++ != ':')
				return false;
		}
		if (!json_value(j))
			return false;
		json_ws(j);
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
	}
}

static bool json_value(struct json *j)
{
	json_ws(j);
	switch (*j->p) {
	case '{': return json_items(j, '}', true);
	case '[': return json_items(j, ']', false);
	case '"': return json_string(j);
	case 't': return json_lit(j, "true");
	case 'f': return json_lit(j, "false");
	case 'n': return json_lit(j, "null");
	default:  return json_number(j);
	}
}

static bool json_valid(const char *text)
{
	struct json j = { text };

	if (!json_value(&j))
		return false;
	json_ws(&j);
	return *j.p == '\0';
}

static void test_json_checker_itself(void **state)
{
	(void)state;
	assert_true(json_valid("{\"a\":[1,-2.5e+3,true,null,\"x\\n\\u00e9\"],\"b\":{}}"));
	assert_false(json_valid("{\"a\":nan}"));
	assert_false(json_valid("{\"a\":1,}"));
	assert_false(json_valid("{\"a\":\"raw\nnewline\"}"));
	assert_false(json_valid("{\"a\":inf}"));
	assert_false(json_valid("[01]"));	/* no leading zeros */
	assert_false(json_valid("[1] x"));
}

static void test_json_output(void **state)
{
	struct awkward w;
	char *json;

	(void)state;
	build_awkward(&w);
	json = format(&w.t, "json");
	assert_true(json_valid(json));
	assert_non_null(strstr(json, "\"baseline\":\"stock\""));
	assert_non_null(strstr(json, "\"verdict\":\"worse\""));
	assert_non_null(strstr(json, "\"diff_unit\":\"absolute\""));
	/* the escaped metric name: quote, backslash, tab, newline */
	assert_non_null(strstr(json,
		"\"odd \\\"metric\\\"\\\\ with\\ttab,comma\\nnewline\""));
	/* one row object per comparison */
	{
		size_t rows = 0;

		for (const char *p = json; (p = strstr(p, "\"verdict\":")); p++)
			rows++;
		assert_int_equal(rows, w.t.n_rows);
	}
	free(json);
	compare_table_free(&w.t);
}

/* ---- CSV: RFC 4180 ----
 * Splits records by the RFC grammar: quoted fields may hold commas, CR/LF
 * and doubled quotes; records end with CRLF. Returns the number of records
 * and fails the test on malformed input or uneven field counts. */
static size_t csv_records(const char *s, size_t want_fields)
{
	size_t records = 0, fields = 1;

	while (*s) {
		if (*s == '"') {
			for (s++; !(s[0] == '"' && s[1] != '"'); s++) {
				assert_true(*s != '\0');
				if (s[0] == '"')
					s++;	/* doubled quote */
			}
			s++;
			assert_true(*s == ',' || *s == '\r');
		} else if (*s == ',') {
			fields++;
			s++;
		} else if (*s == '\r') {
			assert_true(s[1] == '\n');
			assert_int_equal(fields, want_fields);
			records++;
			fields = 1;
			s += 2;
		} else {
			assert_true(*s != '\n');	/* bare LF outside quotes */
			s++;
		}
	}
	return records;
}

static void test_csv_output(void **state)
{
	struct awkward w;
	char *csv;

	(void)state;
	build_awkward(&w);
	csv = format(&w.t, "csv");
	assert_int_equal(csv_records(csv, 30), 1 + w.t.n_rows);
	assert_non_null(strstr(csv, "\"odd \"\"metric\"\"\\ with\ttab,comma\nnewline\""));
	assert_non_null(strstr(csv, ",\"weird \"\"name\"\"|x\","));
	assert_no_inf_nan(csv);
	free(csv);
	compare_table_free(&w.t);
}

/* Markdown: every table line has the same number of unescaped pipes. */
static size_t pipes(const char *line, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
			n++;
	return n;
}

static void test_markdown_output(void **state)
{
	struct awkward w;
	char *md, *line;
	size_t want = 0, table_lines = 0;

	(void)state;
	build_awkward(&w);
	md = format(&w.t, "markdown");
	for (line = md; *line;) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len && line[0] == '|') {
			if (!want)
				want = pipes(line, len);
			assert_int_equal(pipes(line, len), want);
			table_lines++;
		}
		line += len + (end ? 1 : 0);
	}
	assert_int_equal(want, 15);	/* 14 columns */
	/* header, rule, one baseline line per metric, one per row */
	assert_int_equal(table_lines, 2 + w.t.n_metrics + w.t.n_rows);
	assert_non_null(strstr(md, "weird \"name\"\\|x"));
	free(md);
	compare_table_free(&w.t);
}

/* ---- metric definitions ---- */
static void test_metric_table(void **state)
{
	struct metric_def d;

	(void)state;
	metric_resolve("binder_sendvec_ns_4096", NULL, &d);
	assert_string_equal(d.name, "binder_sendvec_ns_4096");
	assert_int_equal(d.kind, METRIC_TIME);
	assert_int_equal(d.better, BETTER_LOWER);
	metric_resolve("oom_kills_memcg", NULL, &d);
	assert_int_equal(d.kind, METRIC_COUNT);
	assert_int_equal(d.better, BETTER_LOWER);
	metric_resolve("spawn_per_s", NULL, &d);
	assert_int_equal(d.better, BETTER_HIGHER);
	metric_resolve("reaper_wake_delay_ms", NULL, &d);
	assert_int_equal(d.better, BETTER_NEITHER);
	assert_null(metric_lookup("oom_total"));
	/* A family glob takes the unit the trial recorded. */
	metric_resolve("binder-mmap.mmap_latency_p99_ns", "ns", &d);
	assert_int_equal(d.kind, METRIC_TIME);
	assert_int_equal(d.better, BETTER_LOWER);
	assert_string_equal(d.unit, "ns");
	metric_resolve("slab_binder_node_efficiency", "ratio", &d);
	assert_int_equal(d.better, BETTER_HIGHER);
	/* unknown: neither better, kind from the unit, else from the name */
	metric_resolve("foo", "iter/s", &d);
	assert_int_equal(d.kind, METRIC_THROUGHPUT);
	assert_int_equal(d.better, BETTER_NEITHER);
	metric_resolve("bar_bytes", NULL, &d);
	assert_int_equal(d.kind, METRIC_SIZE);
	metric_resolve("baz_us", "", &d);
	assert_int_equal(d.kind, METRIC_TIME);
	assert_true(metric_name_matches("oom_*", "oom_kills_global"));
	assert_false(metric_name_matches("oom_*", "binder_latency_p99_ms"));
	assert_true(metric_name_matches(NULL, "anything"));
}

static void test_group_variant(void **state)
{
	struct compare_group a = { .label = "stock#2" }, b = { .label = "mglru" };
	struct compare_group c = { .label = "x#1", .variant = "given" };
	char buf[16];

	(void)state;
	assert_string_equal(compare_group_variant(&a, buf, sizeof(buf)), "stock");
	assert_string_equal(compare_group_variant(&b, buf, sizeof(buf)), "mglru");
	assert_string_equal(compare_group_variant(&c, buf, sizeof(buf)), "given");
	assert_string_equal(compare_group_variant(&a, buf, 3), "st");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_no_difference),
		cmocka_unit_test(test_direction_lower_is_better),
		cmocka_unit_test(test_direction_higher_is_better),
		cmocka_unit_test(test_direction_neither),
		cmocka_unit_test(test_too_few_trials_inconclusive),
		cmocka_unit_test(test_rate_test_for_counts),
		cmocka_unit_test(test_fisher_for_outcomes),
		cmocka_unit_test(test_fractional_counts_use_ranks),
		cmocka_unit_test(test_zero_baseline),
		cmocka_unit_test(test_zero_vs_zero),
		cmocka_unit_test(test_holm_over_table),
		cmocka_unit_test(test_ci_seeded),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_aa_noise),
		cmocka_unit_test(test_baseline_option),
		cmocka_unit_test(test_rejects_bad_input),
		cmocka_unit_test(test_text_fits_80_columns),
		cmocka_unit_test(test_json_checker_itself),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_csv_output),
		cmocka_unit_test(test_markdown_output),
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_group_variant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
