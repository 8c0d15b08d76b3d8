/* test-compare.c - unit tests for analysis/compare*.c and analysis/metric.c
 *
 * Metric names are the ones the lab emits (trial_metrics.c, the workloads'
 * out.log, the experiments' headline lists). Reference values were
 * computed independently with python3 3.11 and its standard library only;
 * the snippets are in the comments. Shared helpers there:
 *
 *   def welch(a, b): ...          (as in test-stats.c)
 *   def perm(a, b): every split of a + b into groups of len(a) and len(b),
 *       the share whose |welch t| is at least the observed one
 *   def tq(q, df): Student's t quantile: Simpson's rule on the t density
 *       from 0 (20000 steps), then bisection; it gives 2.228138851986313
 *       for tq(0.975, 10) and 0.8790578285505952 for tq(0.8, 10), as the
 *       published tables do
 *   z8 = NormalDist().inv_cdf(0.8)
 *
 * Output formats are checked by parsing them: JSON with jansson, CSV by the
 * RFC 4180 grammar, Markdown by its column count, text by its widths.
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

#include <jansson.h>

#include "analysis/compare/compare.h"
#include "analysis/compare/compare_row.h"
#include "analysis/metrics/metric_catalog.h"
#include "analysis/compare/compare_fmt.h"

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
	struct compare_metric m = { .groups = groups, .n_groups = n,
				    .margin = { .value = NAN } };

	metric_catalog_resolve(name, NULL, &m.def);
	return m;
}

/* One metric, baseline "stock" first, variant "binder-kcalloc" second. */
static void build_pair(struct compare_table *t, const char *name,
		       const double *base, size_t nb, const double *var, size_t nv)
{
	struct compare_group g[] = { group("stock", base, nb),
				     group("binder-kcalloc", var, nv) };
	struct compare_metric m = metric(name, g, 2);
	struct compare_options o;

	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, t), 0);
	assert_int_equal(t->n_rows, 1);
}

/* sendVec 4 B round trips in ns: the icount clock's spread (about 1%) */
static const double sendvec[] = { 24300, 25000, 25300, 24800, 25100, 24600 };
/* the same, 5.3% slower */
static const double sendvec_slow[] = { 25900, 26400, 26000, 26800, 26200, 25700 };
static const double sendvec_fast[] = { 23000, 23600, 23900, 23500, 23700, 23200 };
/* throughput in iterations/s, with no real change */
static const double tput[] = { 42400, 43900, 43100, 42800, 43500, 42200 };
static const double tput_same[] = { 41800, 43000, 42500, 43300, 42000, 42900 };
/* compaction stalls per trial on a fragmented phone-512m (the verdict
 * issue's example; per-trial counts vary far more than Poisson) */
static const double stalls_stock[] = { 18, 5, 131, 84, 102, 115 };
static const double stalls_kcalloc[] = { 27, 15, 23, 9, 19, 11 };

/* ---- verdicts and their directions ---- */

static void expect_verdict(const char *name, const double *base, const double *var,
			   enum compare_verdict want)
{
	struct compare_table t;

	build_pair(&t, name, base, 6, var, 6);
	print_message("%s: diff %+.2f p_adj %.3g -> %s\n", name, t.rows[0].diff,
		      t.rows[0].p_adj, compare_verdict_word(t.rows[0].verdict));
	assert_string_equal(compare_verdict_word(t.rows[0].verdict), compare_verdict_word(want));
	compare_table_free(&t);
}

static void test_directions(void **state)
{
	(void)state;
	/* lower is better */
	expect_verdict("binder-sendvec.sendvec_ns_per_rt.size=4", sendvec, sendvec_slow,
		       VERDICT_WORSE);
	expect_verdict("binder-sendvec.sendvec_ns_per_rt.size=4", sendvec, sendvec_fast,
		       VERDICT_BETTER);
	/* higher is better */
	expect_verdict("binder-throughput.throughput_iterations_per_s", sendvec, sendvec_slow,
		       VERDICT_BETTER);
	expect_verdict("spawn.spawn_per_s", sendvec, sendvec_fast, VERDICT_WORSE);
	/* the reaper's delay is the variable under test: neither is better */
	expect_verdict("reaper_wake_delay_ms", sendvec, sendvec_slow, VERDICT_DIFFERS);
}

/* ---- the trial is the unit ----
 *   perm(stalls_stock, stalls_kcalloc) = 0.05194805194805195 (924 splits)
 *   ratio of means 26/113.5... : 100 * (17.333/75.833 - 1) = -77.14285714285715
 * The pooled Poisson test this replaced gave p = 2.6e-53 for these six
 * trials a side and called kcalloc "better". */
static void test_counts_per_trial(void **state)
{
	struct compare_table t;

	(void)state;
	build_pair(&t, "workload_compaction_stalls_vmstat", stalls_stock, 6, stalls_kcalloc, 6);
	assert_int_equal(t.rows[0].method, COMPARE_MEANS);
	assert_int_equal(t.rows[0].scale, SCALE_PERCENT);
	assert_true(t.rows[0].exact);
	assert_close(t.rows[0].p, 0.05194805194805195, 1e-12);
	assert_close(t.rows[0].diff, -77.14285714285715, 1e-9);
	assert_int_equal(t.rows[0].verdict, VERDICT_NOT_DETECTED);
	compare_table_free(&t);
}

/* Identical groups: p = 1; equivalent where the interval is narrow
 * enough. The throughputs vary by about 1.4%:
 *   d, se, df = welch(L(tput), L(tput)); q = tq(0.95, df)   (df = 10)
 *   100 * expm1(-+q * se) = -1.5666938785452191, 1.591629845910193
 * inside +-2%, not inside +-1%. */
static void test_identical(void **state)
{
	struct compare_group g[] = { group("stock", tput, 6), group("binder-kcalloc", tput, 6) };
	struct compare_metric m = metric("binder-throughput.throughput_iterations_per_s", g, 2);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_close(t.rows[0].diff, 0.0, 1e-12);
	assert_close(t.rows[0].p, 1.0, 0);
	assert_close(t.rows[0].eq_lo, -1.5666938785452191, 1e-6);
	assert_close(t.rows[0].eq_hi, 1.591629845910193, 1e-6);
	assert_int_equal(t.rows[0].verdict, VERDICT_EQUIVALENT);
	compare_table_free(&t);
	o.margin.value = 1.0;
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.rows[0].verdict, VERDICT_NOT_DETECTED);
	compare_table_free(&t);
}

static void test_too_few_trials(void **state)
{
	struct compare_table t;

	(void)state;
	build_pair(&t, "binder-sendvec.sendvec_ns_per_rt.size=4", sendvec, 6, sendvec_slow, 2);
	assert_int_equal(t.rows[0].verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(t.rows[0].why, "too few trials");
	assert_true(isnan(t.rows[0].p) && isnan(t.rows[0].p_adj));
	assert_true(isfinite(t.rows[0].diff));	/* the lean of the data still shows */
	assert_int_equal(t.n_tests, 0);
	compare_table_free(&t);
	/* 3 against 3 can test, but no split is rarer than 2 in 20: nothing
	 * could reach p < 0.05, so not even a large change is detectable */
	build_pair(&t, "binder-sendvec.sendvec_ns_per_rt.size=4", sendvec, 3, sendvec_slow, 3);
	assert_close(t.rows[0].p, 0.1, 1e-12);
	assert_true(isinf(t.rows[0].mde));
	assert_int_equal(t.rows[0].verdict, VERDICT_INCONCLUSIVE);
	compare_table_free(&t);
}

/* ---- shares: outcomes and rare events ----
 * fisher(3, 7, 10, 0) = 0.0030959752321981426 (snippet in test-stats.c);
 * fisher(3, 3, 0, 6) = 0.18181818181818182 (openers killed in 3 of 6
 * kcalloc trials, none of 6 on stock). */
static void test_shares(void **state)
{
	static const double all_ok[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const double three_ok[] = { 1, 0, 0, 1, 0, 0, 1, 0, 0, 0 };
	static const double none[] = { 0, 0, 0, 0, 0, 0 };
	static const double killed[] = { 1, 0, 2, 0, 1, 0 };
	struct compare_table t;

	(void)state;
	build_pair(&t, "trial_ok", all_ok, 10, three_ok, 10);
	assert_int_equal(t.rows[0].method, COMPARE_SHARES);
	assert_int_equal(t.rows[0].scale, SCALE_POINTS);
	assert_close(t.rows[0].p, 0.0030959752321981426, 1e-12);
	assert_close(t.rows[0].diff, -70.0, 1e-9);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	assert_int_equal(t.rows[0].var.yes, 3);
	compare_table_free(&t);

	build_pair(&t, "binder-mmap.mmap_openers_killed", none, 6, killed, 6);
	assert_int_equal(t.rows[0].method, COMPARE_SHARES);
	assert_close(t.rows[0].p, 0.18181818181818182, 1e-12);
	assert_close(t.rows[0].diff, 50.0, 1e-9);
	/* six trials a side can only see kills that happen in nearly all of
	 * them: stats_mde_share(6, 6, 0, 0.05, 0.8), large */
	assert_true(t.rows[0].mde > 60.0 && isfinite(t.rows[0].mde));
	assert_int_equal(t.rows[0].verdict, VERDICT_NOT_DETECTED);
	compare_table_free(&t);

	/* a WARN_ON_ONCE hit in every trial of the variant, never on stock: the
	 * share 6/6 against 0/6, Fisher's p = 2/924 (the two most extreme of
	 * the C(12,6) splits), worse */
	static const double warned[] = { 1, 1, 1, 1, 1, 1 };
	build_pair(&t, "kernel_warnings", none, 6, warned, 6);
	assert_int_equal(t.rows[0].method, COMPARE_SHARES);
	assert_close(t.rows[0].p, 2.0 / 924.0, 1e-12);
	assert_close(t.rows[0].diff, 100.0, 1e-9);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	compare_table_free(&t);
	build_pair(&t, "kernel_warnings.kind=sleep-in-atomic", none, 6, warned, 6);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	compare_table_free(&t);
}

/* ---- zero baselines ---- */
static const double zeros[] = { 0, 0, 0, 0, 0, 0 };
static const double stalls_some[] = { 1, 2, 1, 2, 1, 2 };

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

static void assert_no_nan(const char *s)
{
	for (const char *p = s; *p; p++) {
		bool word_start = p == s || !((p[-1] >= 'a' && p[-1] <= 'z') ||
					      (p[-1] >= 'A' && p[-1] <= 'Z'));

		if (word_start && strncasecmp(p, "nan", 3) == 0) {
			print_error("nan in output at: %.20s\n", p);
			fail();
		}
	}
}

/* A count whose baseline is 0: the difference is in the unit (1.5 stalls
 * per trial more), never an infinite percent. */
static void test_zero_baseline(void **state)
{
	static const char *const formats[] = { "text", "markdown", "json", "csv" };
	struct compare_table t;

	(void)state;
	build_pair(&t, "direct_compaction_stall_count", zeros, 6, stalls_some, 6);
	assert_int_equal(t.rows[0].scale, SCALE_UNIT);
	assert_close(t.rows[0].diff, 1.5, 1e-12);
	assert_true(t.rows[0].ci_lo > 0.0 && t.rows[0].ci_hi < 3.0);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	for (size_t i = 0; i < N(formats); i++) {
		char *out = format(&t, formats[i]);

		assert_no_nan(out);
		free(out);
	}
	compare_table_free(&t);
}

/* Both sides all zero: p = 1, and a relative margin has no meaning on a
 * baseline of 0, so no equivalence is claimed and the row says why. */
static void test_zero_vs_zero(void **state)
{
	struct compare_table t;

	(void)state;
	build_pair(&t, "direct_compaction_stall_count", zeros, 6, zeros, 6);
	assert_int_equal(t.rows[0].scale, SCALE_UNIT);
	assert_close(t.rows[0].diff, 0.0, 0);
	assert_close(t.rows[0].p, 1.0, 0);
	assert_int_equal(t.rows[0].verdict, VERDICT_NOT_DETECTED);
	assert_non_null(strstr(t.rows[0].why, "margin in the unit"));
	compare_table_free(&t);
}

/* ---- Holm over one table ----
 *   L = logs; perm(L(sendvec), L(sendvec_slow)) = 0.0021645021645021645
 *   perm(L(tput), L(tput_same))                = 0.2878787878787879
 * Holm with m = 2 (the n = 2 row is no test): 2 * 0.0021645 =
 * 0.004329004329004329, then max(that, 0.28788) = 0.2878787878787879.
 */
static void test_holm_over_table(void **state)
{
	struct compare_group g1[] = { group("stock", sendvec, 6), group("binder-kcalloc", sendvec_slow, 6),
				      group("short", sendvec_slow, 2) };
	struct compare_group g2[] = { group("stock", tput, 6), group("binder-kcalloc", tput_same, 6) };
	struct compare_metric m[] = {
		metric("binder-sendvec.sendvec_ns_per_rt.size=4", g1, 3),
		metric("binder-throughput.throughput_iterations_per_s", g2, 2),
	};
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(m, 2, &o, &t), 0);
	assert_int_equal(t.n_rows, 3);
	assert_int_equal(t.n_tests, 2);
	assert_string_equal(t.rows[1].var.variant, "short");
	assert_close(t.rows[0].p, 0.0021645021645021645, 1e-12);
	assert_close(t.rows[2].p, 0.2878787878787879, 1e-12);
	assert_close(t.rows[0].p_adj, 0.004329004329004329, 1e-12);
	assert_close(t.rows[2].p_adj, 0.2878787878787879, 1e-12);
	assert_true(isnan(t.rows[1].p_adj));
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	assert_int_equal(t.rows[1].verdict, VERDICT_INCONCLUSIVE);
	assert_int_equal(t.rows[2].verdict, VERDICT_NOT_DETECTED);
	compare_table_free(&t);
}

/* ---- the minimum detectable effect ----
 * log means, the sendVec pair in a family of two (Holm's first level
 * 0.025; 6 against 6 can reach p-values in steps of 2/924, so 0.0238):
 *   d, se, df = welch(L(sendvec), L(sendvec_slow)); df = 9.993393452964986
 *   lev = floor(0.025 / (2/924)) * (2/924) = 0.023809523809523808
 *   c = tq(1 - lev/2, df); lam = c + z8 * sqrt(1 + c*c / (2*df))
 *   100 * expm1(lam * se) = 3.158947428668301
 * means, the compaction stalls alone (level floor(0.05/(2/924))*(2/924)):
 *   100 * expm1(lam * sqrt(va + vb) / abs(ma)), va, vb the variances of
 *   the means (the log ratio's standard error): 179.86713181113322 (%)
 */
static void test_mde(void **state)
{
	struct compare_group g1[] = { group("stock", sendvec, 6), group("binder-kcalloc", sendvec_slow, 6) };
	struct compare_group g2[] = { group("stock", tput, 6), group("binder-kcalloc", tput_same, 6) };
	struct compare_metric m[] = {
		metric("binder-sendvec.sendvec_ns_per_rt.size=4", g1, 2),
		metric("binder-throughput.throughput_iterations_per_s", g2, 2),
	};
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(m, 2, &o, &t), 0);
	assert_close(t.rows[0].df, 9.993393452964986, 1e-9);
	assert_close(t.rows[0].mde, 3.158947428668301, 1e-6);
	compare_table_free(&t);

	build_pair(&t, "workload_compaction_stalls_vmstat", stalls_stock, 6, stalls_kcalloc, 6);
	assert_close(t.rows[0].mde, 179.86713181113322, 1e-6);
	compare_table_free(&t);
}

/* ---- parametric rows ----
 * Welch's t against Student's t (p = 1 - 2 int_0^|t| f, Simpson on the t
 * density, 200,000 steps; as in test-stats.c):
 *   3 vs 3 sendVec, on the logs: d, se, df = welch(L(sendvec[:3]),
 *     L(sendvec_slow[:3])) = 0.04851564864368818, 0.013309837899666596,
 *     2.9018434722871174; t 3.64509688317868, p 0.037626762103814326
 *     (the permutation test's smallest at 3 vs 3 is 0.1)
 *     MDE at 0.05 itself: c = tq(0.975, df) = 3.244220371477458,
 *     100 * expm1((c + z8 sqrt(1 + c^2 / (2 df))) se) = 6.392982563514559
 *   the stall counts, on the values: welch(stalls_stock, stalls_kcalloc) =
 *     -58.5, 21.551617624257865, 5.177678366085913; p 0.040555818506959995
 */
static void assert_lines_fit(const char *text, size_t columns);

static void test_parametric(void **state)
{
	struct compare_group g1[] = { group("stock", sendvec, 3), group("binder-kcalloc", sendvec_slow, 3) };
	struct compare_group g2[] = { group("stock", stalls_stock, 6), group("binder-kcalloc", stalls_kcalloc, 6) };
	const double kills_b[] = { 0, 0, 0 }, kills_v[] = { 1, 1, 1 };
	struct compare_group g3[] = { group("stock", kills_b, 3), group("binder-kcalloc", kills_v, 3) };
	struct compare_metric m[] = {
		metric("binder-sendvec.sendvec_ns_per_rt.size=4", g1, 2),
		metric("workload_compaction_stalls_vmstat", g2, 2),
		metric("oom_kills", g3, 2),
	};
	struct compare_options o;
	struct compare_table t;
	char *text, *json;
	json_t *doc;

	(void)state;
	compare_options_default(&o);
	/* without the key: the permutation test, and 3 vs 3 cannot decide */
	assert_int_equal(compare_table_build(m, 1, &o, &t), 0);
	assert_false(t.rows[0].parametric);
	assert_close(t.rows[0].p, 0.1, 1e-12);
	assert_true(isinf(t.rows[0].mde));
	assert_string_equal(compare_test_name(t.metrics[0].method, t.metrics[0].parametric),
			    "permutation t (logs)");
	text = format(&t, "text");
	assert_null(strstr(text, "Student"));
	free(text);
	compare_table_free(&t);

	for (size_t i = 0; i < N(m); i++)
		m[i].parametric = true;
	assert_int_equal(compare_table_build(m, 1, &o, &t), 0);
	assert_true(t.rows[0].parametric);
	assert_false(t.rows[0].exact);
	assert_close(t.rows[0].p, 0.037626762103814326, 1e-9);
	assert_close(t.rows[0].mde, 6.392982563514559, 1e-6);
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);	/* decided at 3 vs 3 */
	compare_table_free(&t);

	assert_int_equal(compare_table_build(m, N(m), &o, &t), 0);
	assert_close(t.rows[1].p, 0.040555818506959995, 1e-9);
	assert_true(t.rows[1].parametric);
	/* shares are never parametric: Fisher's 3 of 3 against 0 of 3 */
	assert_false(t.rows[2].parametric);
	assert_false(t.metrics[2].parametric);
	assert_close(t.rows[2].p, 0.1, 1e-12);
	text = format(&t, "text");
	assert_non_null(strstr(text, "time, Welch t (logs)"));
	assert_non_null(strstr(text, "count, Welch t"));
	assert_non_null(strstr(text, "events, Fisher exact"));
	assert_non_null(strstr(text, "Student's t with the Welch-Satterthwaite df"));
	assert_null(strstr(text, "permutation test of Welch"));	/* no permutation row */
	assert_lines_fit(text, 80);
	free(text);
	json = format(&t, "json");
	doc = json_loads(json, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(doc, "rows"), 0), "test")), "Welch t (logs)");
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(doc, "rows"), 1), "test")), "Welch t");
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(doc, "metrics"), 2), "test")), "Fisher exact");
	json_decref(doc);
	free(json);
	compare_table_free(&t);
}

/* ---- equivalence ----
 * Two tight groups (0.1% spread):
 *   d, se, df = welch(L(bt), L(vt)); q = tq(0.95, df)
 *   diff 100 * expm1(d) = 0.13328394971694033
 *   90% interval 100 * expm1(d -+ q * se) = -0.07741981242012264, 0.3444320165876818
 * inside +-2% (the default margin), not inside +-0.3%.
 */
static const double tight_b[] = { 25000, 25100, 24950, 25050, 25020, 24980 };
static const double tight_v[] = { 25060, 25010, 25120, 24990, 25080, 25040 };

static void test_equivalence(void **state)
{
	struct compare_group g[] = { group("stock", tight_b, 6), group("binder-kcalloc", tight_v, 6) };
	struct compare_metric m = metric("binder-sendvec.sendvec_ns_per_rt.size=4", g, 2);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_close(t.rows[0].diff, 0.13328394971694033, 1e-9);
	assert_close(t.rows[0].eq_lo, -0.07741981242012264, 1e-6);
	assert_close(t.rows[0].eq_hi, 0.3444320165876818, 1e-6);
	assert_close(t.rows[0].margin, 2.0, 0);
	assert_int_equal(t.rows[0].verdict, VERDICT_EQUIVALENT);
	assert_true(compare_verdict_decided(t.rows[0].verdict));
	compare_table_free(&t);

	/* a margin of the metric's own: 0.3% is narrower than the interval */
	m.margin = (struct compare_margin){ .value = 0.3, .relative = true };
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.rows[0].verdict, VERDICT_NOT_DETECTED);
	compare_table_free(&t);

	/* a margin in the unit (ns) is read against the baseline's centre:
	 * 500 ns of about 25017 ns is 2% */
	m.margin = (struct compare_margin){ .value = 500, .relative = false };
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_close(t.rows[0].margin, 100.0 * 500 / t.rows[0].base.centre, 1e-12);
	assert_int_equal(t.rows[0].verdict, VERDICT_EQUIVALENT);
	compare_table_free(&t);
}

static void test_margin_parse(void **state)
{
	struct compare_margin m;

	(void)state;
	assert_int_equal(compare_margin_parse("2%", &m), 0);
	assert_true(m.relative && m.value == 2.0);
	assert_int_equal(compare_margin_parse(" 0.5 ", &m), 0);
	assert_true(!m.relative && m.value == 0.5);
	assert_int_equal(compare_margin_parse("10pp", &m), 0);
	assert_true(!m.relative && m.value == 10.0);
	assert_int_equal(compare_margin_parse("5 %", &m), 0);
	assert_true(m.relative && m.value == 5.0);
	assert_int_equal(compare_margin_parse("two", &m), -EINVAL);
	assert_int_equal(compare_margin_parse("2%%", &m), -EINVAL);
	assert_int_equal(compare_margin_parse("-1%", &m), -EINVAL);
	assert_int_equal(compare_margin_parse("3ms", &m), -EINVAL);
	assert_int_equal(compare_margin_parse("", &m), -EINVAL);
}

/* ---- a sequential look ----
 * The sendVec pair at 6 trials a side of at most 20: the look's boundary
 * is far stricter than 0.05 (stats_sequential_level(0.05, 6, 3, 20) is
 * about 3e-4), so the p of 2/924 that a fixed design calls "worse" does not
 * cross yet, and p_adj (scaled to the boundary) is above alpha. */
static void test_sequential_look(void **state)
{
	struct compare_group g[] = { group("stock", sendvec, 6), group("binder-kcalloc", sendvec_slow, 6) };
	struct compare_metric m = metric("binder-sendvec.sendvec_ns_per_rt.size=4", g, 2);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	o.seq_max = 20;
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.look_n, 6);
	assert_close(t.rows[0].p, 0.0021645021645021645, 1e-12);
	assert_close(t.rows[0].p_adj, fmin(1.0, 0.05 * t.rows[0].p /
				      stats_sequential_level(0.05, 6, 3, 20)), 1e-12);
	assert_true(t.rows[0].p_adj > 0.05);
	assert_int_not_equal(t.rows[0].verdict, VERDICT_WORSE);
	compare_table_free(&t);
	o.seq_max = 2;	/* no room for looks after the first trials: refused */
	assert_int_equal(compare_table_build(&m, 1, &o, &t), -EINVAL);
}

/* ---- A/A noise floor ---- */
static void test_aa_noise(void **state)
{
	static const double twin[] = { 24500, 25200, 24900, 25150, 24700, 24850 };
	static const double near[] = { 24400, 25100, 25200, 24900, 25000, 24700 };
	struct compare_group g[] = { group("stock", sendvec, 6), group("stock#2", twin, 6),
				     group("binder-kcalloc", near, 6),
				     group("binder-kmem-cache", sendvec_slow, 6) };
	struct compare_metric m = metric("binder-sendvec.sendvec_ns_per_rt.size=4", g, 4);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_string_equal(t.baseline, "stock");
	assert_int_equal(t.n_rows, 2);	/* stock#2 is no row of its own */
	assert_true(t.has_noise);
	assert_string_equal(t.rows[0].var.variant, "binder-kcalloc");
	assert_true(isfinite(t.rows[0].noise) && t.rows[0].noise > 0.0);
	assert_true(t.rows[0].within_noise);
	assert_false(t.rows[1].within_noise);	/* +5.3% */
	assert_close(t.rows[0].noise, t.rows[1].noise, 0);	/* the same A/A pair */
	compare_table_free(&t);

	/* without A/A groups there is no noise floor */
	m.groups = &g[1];	/* stock#2 (variant stock) and binder-kcalloc */
	m.n_groups = 2;
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_string_equal(t.baseline, "stock");
	assert_true(isnan(t.rows[0].noise));
	assert_false(t.has_noise);
	compare_table_free(&t);
}

static void test_baseline_option(void **state)
{
	struct compare_group g[] = { group("stock", sendvec, 6), group("binder-kcalloc", sendvec_slow, 6) };
	struct compare_metric m = metric("binder-sendvec.sendvec_ns_per_rt.size=4", g, 2);
	struct compare_options o;
	struct compare_table t;

	(void)state;
	compare_options_default(&o);
	o.baseline = "binder-kcalloc";
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.n_rows, 1);
	assert_string_equal(t.rows[0].var.variant, "stock");
	assert_int_equal(t.rows[0].verdict, VERDICT_BETTER);
	compare_table_free(&t);
}

/* Debug companions: binder-kcalloc+debug is compared with stock+debug (one
 * change a row), stock+debug with stock. The debug builds here are 5.3%
 * slower than the plain ones; binder-kcalloc+debug is as fast as stock+debug. */
static void test_companion_baselines(void **state)
{
	struct compare_group g[] = { group("stock", sendvec, 6), group("binder-kcalloc", sendvec, 6),
				     group("stock+debug", sendvec_slow, 6),
				     group("binder-kcalloc+debug", sendvec_slow, 6) };
	struct compare_metric m = metric("binder-sendvec.sendvec_ns_per_rt.size=4", g, 4);
	struct compare_options o;
	struct compare_table t;
	char name[128];

	(void)state;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.n_rows, 3);
	assert_string_equal(t.rows[0].var.variant, "binder-kcalloc");
	assert_string_equal(t.rows[0].base.variant, "stock");
	assert_string_equal(t.rows[1].var.variant, "stock+debug");
	assert_string_equal(t.rows[1].base.variant, "stock");
	assert_int_equal(t.rows[1].verdict, VERDICT_WORSE);
	assert_string_equal(t.rows[2].var.variant, "binder-kcalloc+debug");
	assert_string_equal(t.rows[2].base.variant, "stock+debug");
	assert_close(t.rows[2].base.centre, t.rows[1].var.centre, 1e-12);
	assert_close(t.rows[2].diff, 0.0, 1e-9);
	assert_int_not_equal(t.rows[2].verdict, VERDICT_WORSE);
	assert_string_equal(compare_fmt_row_variant(name, sizeof(name), &t, &t.rows[2]),
			    "binder-kcalloc+debug (vs stock+debug)");
	assert_string_equal(compare_fmt_row_variant(name, sizeof(name), &t, &t.rows[1]), "stock+debug");
	char *text = format(&t, "text");
	assert_non_null(strstr(text, "binder-kcalloc+debug (vs stock+debug)"));
	free(text);
	compare_table_free(&t);

	/* without the baseline's companion, a debug build goes against the baseline */
	struct compare_metric two = metric("binder-sendvec.sendvec_ns_per_rt.size=4", (struct compare_group[]){
		group("stock", sendvec, 6), group("binder-kcalloc+debug", sendvec_slow, 6) }, 2);
	assert_int_equal(compare_table_build(&two, 1, &o, &t), 0);
	assert_string_equal(t.rows[0].base.variant, "stock");
	assert_int_equal(t.rows[0].verdict, VERDICT_WORSE);
	compare_table_free(&t);
}

static void test_rejects_bad_input(void **state)
{
	static const double bad[] = { 1, NAN, 3 };
	struct compare_group g[] = { group("stock", sendvec, 6), group("binder-kcalloc", bad, 3) };
	struct compare_metric m = metric("binder-sendvec.sendvec_ns_per_rt.size=4", g, 2);
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

/* The awkward cases: two variants that share a long prefix, the longest
 * metric names the lab emits, a zero baseline, n = 1, huge and tiny
 * values, A/A groups, and strings that need escaping. */
struct awkward {
	struct compare_group g1[4], g2[3], g3[2], g4[2], g5[2];
	struct compare_metric m[5];
	struct compare_table t;
};

static const double huge_a[] = { 123456789, 234567891, 345678912, 156789123 };
static const double huge_b[] = { 987654321, 876543219, 765432198, 654321987 };
static const double tiny_a[] = { 0.000012, 0.000015, 0.000011, 0.000014 };
static const double tiny_b[] = { 0.000022, 0.000025, 0.000021, 0.000024 };

#define LONG_A "planted-extra-cost-per-transaction-for-the-tests"
#define LONG_B "planted-extra-cost-per-transaction-for-the-tests-twice"
#define LONG_METRIC "binder-sendvec.sendvec_cpu_ns_per_rt.size=65536"
#define LONGER_METRIC "binder-objects.slab_efficiency.object=binder_ref_death"

static void build_awkward(struct awkward *w)
{
	struct compare_options o;

	w->g1[0] = group("stock", sendvec, 6);
	w->g1[1] = group("stock#2", sendvec_fast, 6);
	w->g1[2] = group(LONG_A, sendvec_slow, 6);
	w->g1[3] = group(LONG_B, sendvec_slow, 1);
	w->g1[2].n_other = 123;
	w->g2[0] = group("stock", zeros, 6);
	w->g2[1] = group(LONG_A, stalls_some, 6);
	w->g2[2] = group(LONG_B, stalls_some, 1);
	w->g3[0] = group("stock", huge_a, 4);
	w->g3[1] = group(LONG_B, huge_b, 4);
	w->g4[0] = group("stock", tiny_a, 4);
	w->g4[1] = group("weird \"name\"|x", tiny_b, 4);
	w->g5[0] = group("stock", tput, 6);
	w->g5[1] = group(LONG_A, tput_same, 6);
	w->m[0] = metric(LONG_METRIC, w->g1, 4);
	w->m[1] = metric("binder-mmap.mmap_openers_killed", w->g2, 3);
	w->m[2] = metric("slab_binder_bytes", w->g3, 2);
	w->m[3] = metric("odd \"metric\"\\ with\ttab,comma\nnewline", w->g4, 2);
	w->m[4] = metric(LONGER_METRIC, w->g5, 2);
	compare_options_default(&o);
	assert_int_equal(compare_table_build(w->m, 5, &o, &w->t), 0);
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

/* Every line fits COLUMNS, except a line that is a name on its own (no
 * blank after its indent). */
static void assert_lines_fit(const char *text, size_t columns)
{
	const char *line = text;
	size_t lines = 0;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line), indent = 0;

		while (indent < len && line[indent] == ' ')
			indent++;
		if (visible_width(line, len) > columns && memchr(line + indent, ' ', len - indent)) {
			print_error("line of %zu columns: %.*s\n",
				    visible_width(line, len), (int)len, line);
			fail();
		}
		lines++;
		line += len + (end ? 1 : 0);
	}
	assert_true(lines > 10);
}

/* Names are never cut: each appears whole, and no '~' cut mark is left. */
static void test_text_names_whole(void **state)
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
	assert_non_null(strstr(text, "\n  " LONG_A "\n"));
	assert_non_null(strstr(text, "\n  " LONG_B "\n"));
	assert_non_null(strstr(text, LONG_METRIC "\n"));
	assert_non_null(strstr(text, LONGER_METRIC "\n"));
	assert_null(strstr(text, "planted-~"));
	/* the verdict words, the MDE, the legend */
	assert_non_null(strstr(text, "worse"));
	assert_non_null(strstr(text, "inconclusive"));
	assert_non_null(strstr(text, "could miss +-"));
	assert_non_null(strstr(text, "Holm"));
	assert_non_null(strstr(text, "equivalent: the 90% interval"));
	assert_non_null(strstr(text, "not detected: neither"));
	assert_non_null(strstr(text, "6+123"));
	assert_null(strstr(text, "no difference"));
	free(text);
	free(colour);
	compare_table_free(&w.t);
}

/* Short names keep one line per row, in a column as wide as the longest. */
static void test_text_short_names(void **state)
{
	struct compare_table t;
	char *text;

	(void)state;
	build_pair(&t, "binder-sendvec.sendvec_ns_per_rt.size=4", sendvec, 6, sendvec_slow, 6);
	text = format(&t, "text");
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "\n  binder-kcalloc "));
	assert_non_null(strstr(text, "worse"));
	free(text);
	compare_table_free(&t);
}

/* ---- serial gatekeeping: a primary metric first ----
 * The primary oom_kills: kills in 5 of 6 kcalloc trials, none of 6 on
 * stock: fisher(0, 6, 5, 1) = 12/792 = 0.015151515151515152 (the two
 * tables as unlikely: 0 or 5 of the 5 kills on stock, C(6,5)/C(12,5) =
 * 6/792 each). Holm over its one row: p_adj = 0.0151515 < 0.05, the gate
 * opens. The others, Holm over 2 as in test_holm_over_table: 0.004329 and
 * 0.28788, each at least the primary's 0.0151515: 0.0151515 (worse) and
 * 0.28788 (not detected). Plain Holm over the 3 would give the kill row
 * 2 * 0.0151515 = 0.030303.
 * Closed: kills in 3 of 6, fisher(0, 6, 3, 3) = 0.18181818181818182 (the
 * primary not detected); the sendVec row max(0.1818, 0.004329) = 0.1818,
 * not tested (inconclusive), where plain Holm over 3 calls it worse
 * (3 * 0.0021645 = 0.0064935). A primary row with no test (2 trials)
 * keeps the gate closed and the others' p_adj at 1. */
static void build_gated(struct compare_table *t, const double *kills, size_t n_kills,
			const char *primary)
{
	static const double none[] = { 0, 0, 0, 0, 0, 0 };
	struct compare_group g0[] = { group("stock", none, 6), group("binder-kcalloc", kills, n_kills) };
	struct compare_group g1[] = { group("stock", sendvec, 6), group("binder-kcalloc", sendvec_slow, 6) };
	struct compare_group g2[] = { group("stock", tput, 6), group("binder-kcalloc", tput_same, 6) };
	struct compare_metric m[] = {
		metric("binder-sendvec.sendvec_ns_per_rt.size=4", g1, 2),
		metric("oom_kills", g0, 2),
		metric("binder-throughput.throughput_iterations_per_s", g2, 2),
	};
	struct compare_options o;

	compare_options_default(&o);
	o.primary = primary;
	assert_int_equal(compare_table_build(m, 3, &o, t), 0);
	assert_int_equal(t->n_rows, 3);
	/* listed second, the primary's metric and row come first in the table */
	size_t k = primary ? 0 : 1;
	assert_string_equal(t->metrics[k].name, "oom_kills");
	assert_int_equal(t->rows[k].metric, k);
	assert_string_equal(t->metrics[t->rows[1 - k].metric].name,
			    "binder-sendvec.sendvec_ns_per_rt.size=4");
	assert_string_equal(t->metrics[t->rows[2].metric].name,
			    "binder-throughput.throughput_iterations_per_s");
}

/* Rows of build_gated()'s tables: the kills, sendVec and throughput rows
 * (the kills first with a primary). */
#define KILLS(t) (&(t).rows[(t).primary ? 0 : 1])
#define SENDVEC(t) (&(t).rows[(t).primary ? 1 : 0])
#define TPUT(t) (&(t).rows[2])

static void test_gatekeeping(void **state)
{
	static const double five[] = { 1, 2, 1, 0, 1, 3 }, three[] = { 1, 0, 2, 0, 1, 0 };
	char primary[] = "oom_kills";	/* the table keeps its own copy */
	struct compare_table t, plain, two;
	char *text, *json;

	(void)state;
	build_gated(&t, five, 6, primary);
	primary[0] = 'X';
	assert_string_equal(t.primary, "oom_kills");
	assert_true(t.gate_open);
	assert_int_equal(t.n_primary_tests, 1);
	assert_int_equal(t.n_tests, 3);
	assert_close(KILLS(t)->p, 0.015151515151515152, 1e-12);
	assert_close(KILLS(t)->p_adj, 0.015151515151515152, 1e-12);
	assert_int_equal(KILLS(t)->verdict, VERDICT_WORSE);
	assert_close(SENDVEC(t)->p_adj, 0.015151515151515152, 1e-12);
	assert_int_equal(SENDVEC(t)->verdict, VERDICT_WORSE);
	assert_close(TPUT(t)->p_adj, 0.2878787878787879, 1e-12);
	assert_int_equal(TPUT(t)->verdict, VERDICT_NOT_DETECTED);
	/* the MDE levels: the primary alone at alpha, the others as a family of 2 */
	build_pair(&two, "oom_kills", (const double[]){ 0, 0, 0, 0, 0, 0 }, 6, five, 6);
	assert_close(KILLS(t)->mde, two.rows[0].mde, 1e-12);
	compare_table_free(&two);
	text = format(&t, "text");
	assert_lines_fit(text, 80);
	assert_non_null(strstr(text, "p-adj: primary oom_kills first at alpha 0.05 (Holm over its 1 row)"));
	assert_non_null(strstr(text, "  Holm over the other 2 tests when it is decided"));
	assert_null(strstr(text, "gate closed"));
	free(text);
	json = format(&t, "json");
	assert_non_null(strstr(json, "\"gatekeeping\":{"));
	assert_non_null(strstr(json, "\"gate_open\":true"));
	free(json);
	compare_table_free(&t);

	/* the same table without a primary: one Holm family of 3, as before */
	build_gated(&plain, five, 6, NULL);
	assert_null(plain.primary);
	assert_close(KILLS(plain)->p_adj, 2 * 0.015151515151515152, 1e-12);
	assert_close(SENDVEC(plain)->p_adj, 3 * 0.0021645021645021645, 1e-12);
	json = format(&plain, "json");
	assert_null(strstr(json, "gatekeeping"));
	free(json);
	compare_table_free(&plain);

	build_gated(&t, three, 6, "oom_kills");
	assert_false(t.gate_open);
	assert_close(KILLS(t)->p_adj, 0.18181818181818182, 1e-12);
	assert_int_equal(KILLS(t)->verdict, VERDICT_NOT_DETECTED);
	assert_close(SENDVEC(t)->p_adj, 0.18181818181818182, 1e-12);
	assert_int_equal(SENDVEC(t)->verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(SENDVEC(t)->why, "not tested: the primary was not significant");
	assert_close(TPUT(t)->p_adj, 0.2878787878787879, 1e-12);
	assert_int_equal(TPUT(t)->verdict, VERDICT_INCONCLUSIVE);
	text = format(&t, "markdown");
	assert_non_null(strstr(text, "gate closed: the primary was not decided, so the other rows "
				     "are not tested"));
	free(text);
	compare_table_free(&t);
	build_gated(&plain, three, 6, NULL);
	assert_int_equal(SENDVEC(plain)->verdict, VERDICT_WORSE);
	compare_table_free(&plain);

	/* a primary row with no test: the gate stays closed, the others at 1 */
	build_gated(&t, five, 2, "oom_kills");
	assert_false(t.gate_open);
	assert_int_equal(t.n_primary_tests, 0);
	assert_int_equal(t.n_tests, 2);
	assert_close(SENDVEC(t)->p_adj, 1.0, 1e-12);
	assert_close(TPUT(t)->p_adj, 1.0, 1e-12);
	assert_int_equal(SENDVEC(t)->verdict, VERDICT_INCONCLUSIVE);
	compare_table_free(&t);
}

static void test_json_output(void **state)
{
	struct awkward w;
	json_error_t err;
	json_t *doc, *rows, *row;
	char *json;
	size_t i;

	(void)state;
	build_awkward(&w);
	json = format(&w.t, "json");
	doc = json_loads(json, 0, &err);
	if (!doc)
		print_error("json: %s at %d\n", err.text, err.position);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "baseline")), "stock");
	rows = json_object_get(doc, "rows");
	assert_int_equal(json_array_size(rows), w.t.n_rows);
	json_array_foreach(rows, i, row) {
		const struct compare_row *r = &w.t.rows[i];

		assert_string_equal(json_string_value(json_object_get(row, "verdict")),
				    compare_verdict_word(r->verdict));
		assert_string_equal(json_string_value(json_object_get(row, "variant")), r->var.variant);
		assert_string_equal(json_string_value(json_object_get(row, "method")),
				    compare_method_key(r->method));
		assert_string_equal(json_string_value(json_object_get(row, "test")),
				    compare_method_test(r->method));
		assert_string_equal(json_string_value(json_object_get(row, "scale")),
				    compare_scale_key(r->scale));
		if (isfinite(r->p_adj))
			assert_close(json_number_value(json_object_get(row, "p_adj")), r->p_adj, 1e-9);
		else
			assert_true(json_is_null(json_object_get(row, "p_adj")));
		if (isfinite(r->mde))
			assert_close(json_number_value(json_object_get(row, "mde")), r->mde, 1e-9);
		assert_true(json_is_boolean(json_object_get(row, "detectable")));
		assert_non_null(json_object_get(row, "margin"));
		assert_non_null(json_object_get(row, "eq_lo"));
	}
	/* the escaped metric name survives the round trip */
	assert_string_equal(json_string_value(json_object_get(json_array_get(
				    json_object_get(doc, "metrics"), 3), "name")),
			    "odd \"metric\"\\ with\ttab,comma\nnewline");
	assert_non_null(json_object_get(json_object_get(doc, "options"), "margin"));
	json_decref(doc);
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
	assert_int_equal(csv_records(csv, 37), 1 + w.t.n_rows);
	assert_non_null(strstr(csv, "\"odd \"\"metric\"\"\\ with\ttab,comma\nnewline\""));
	assert_non_null(strstr(csv, ",\"weird \"\"name\"\"|x\","));
	assert_non_null(strstr(csv, ",verdict,why,clock\r\n"));
	assert_non_null(strstr(csv, ",not detected,") || strstr(csv, ",worse,"));
	assert_no_nan(csv);
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
	assert_int_equal(want, 14);	/* 13 columns */
	/* header, rule, one baseline line per metric, one per row */
	assert_int_equal(table_lines, 2 + w.t.n_metrics + w.t.n_rows);
	assert_non_null(strstr(md, "weird \"name\"\\|x"));
	assert_non_null(strstr(md, LONG_B));
	free(md);
	compare_table_free(&w.t);
}

/* ---- metric definitions: the names the lab emits ---- */
static void test_metric_table(void **state)
{
	struct metric_def d;

	(void)state;
	metric_catalog_resolve("binder-sendvec.sendvec_ns_per_rt.size=4096", "ns", &d);
	assert_string_equal(d.name, "binder-sendvec.sendvec_ns_per_rt.size=4096");
	assert_int_equal(d.kind, METRIC_TIME);
	assert_int_equal(d.better, BETTER_LOWER);
	metric_catalog_resolve("oom_kills", NULL, &d);
	assert_int_equal(d.kind, METRIC_EVENTS);
	assert_int_equal(d.better, BETTER_LOWER);
	metric_catalog_resolve("binder-mmap.mmap_openers_killed", NULL, &d);
	assert_int_equal(d.kind, METRIC_EVENTS);
	metric_catalog_resolve("kernel_warnings", NULL, &d);
	assert_int_equal(d.kind, METRIC_EVENTS);
	assert_int_equal(d.better, BETTER_LOWER);
	metric_catalog_resolve("kernel_warnings.kind=lockdep", NULL, &d);
	assert_int_equal(d.kind, METRIC_EVENTS);
	assert_int_equal(d.better, BETTER_LOWER);
	metric_catalog_resolve("workload_compaction_stalls_vmstat", NULL, &d);
	assert_int_equal(d.kind, METRIC_COUNT);
	metric_catalog_resolve("direct_compaction_stall_count", NULL, &d);
	assert_int_equal(d.kind, METRIC_COUNT);
	metric_catalog_resolve("binder-mmap.mmap_ok", NULL, &d);
	assert_int_equal(d.kind, METRIC_COUNT);
	assert_int_equal(d.better, BETTER_HIGHER);
	metric_catalog_resolve("spawn.spawn_per_s", NULL, &d);
	assert_int_equal(d.better, BETTER_HIGHER);
	metric_catalog_resolve("reaper_wake_delay_ms", NULL, &d);
	assert_int_equal(d.better, BETTER_NEITHER);
	metric_catalog_resolve("trial_ok", "ratio", &d);
	assert_int_equal(d.kind, METRIC_OUTCOME);
	assert_null(metric_lookup("oom_total"));
	metric_catalog_resolve("binder-mmap.mmap_latency_p99_ns", "ns", &d);
	assert_int_equal(d.kind, METRIC_TIME);
	assert_string_equal(d.unit, "ns");
	metric_catalog_resolve("slab_binder_node_efficiency", "ratio", &d);
	assert_int_equal(d.better, BETTER_HIGHER);
	/* unknown: neither better, kind from the unit, else from the name */
	metric_catalog_resolve("foo", "iter/s", &d);
	assert_int_equal(d.kind, METRIC_THROUGHPUT);
	assert_int_equal(d.better, BETTER_NEITHER);
	metric_catalog_resolve("bar_bytes", NULL, &d);
	assert_int_equal(d.kind, METRIC_SIZE);
	assert_true(metric_name_matches("oom_*", "oom_kills_global"));
	assert_false(metric_name_matches("oom_*", "binder_latency_p99_ms"));
	assert_true(metric_name_matches(NULL, "anything"));
}

/* The method follows the kind, and the pooled values for the log scale. */
static void test_method_choice(void **state)
{
	static const double with_zero[] = { 0, 12, 30, 7, 9, 11 };
	struct compare_group g[] = { group("stock", sendvec, 6), group("binder-kcalloc", with_zero, 6) };
	struct compare_metric m = metric("alloc_stall_time_total_ms", g, 2);

	(void)state;
	assert_int_equal(compare_method_for(&m), COMPARE_MEANS);	/* a 0 has no log */
	g[1].values = sendvec_slow;
	assert_int_equal(compare_method_for(&m), COMPARE_LOG_MEANS);
	m = metric("oom_kills", g, 2);
	assert_int_equal(compare_method_for(&m), COMPARE_SHARES);
	m = metric("workload_compaction_stalls_vmstat", g, 2);
	assert_int_equal(compare_method_for(&m), COMPARE_MEANS);
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
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_parametric),
		cmocka_unit_test(test_counts_per_trial),
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_too_few_trials),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_zero_baseline),
		cmocka_unit_test(test_zero_vs_zero),
		cmocka_unit_test(test_holm_over_table),
		cmocka_unit_test(test_gatekeeping),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_equivalence),
		cmocka_unit_test(test_margin_parse),
		cmocka_unit_test(test_sequential_look),
		cmocka_unit_test(test_aa_noise),
		cmocka_unit_test(test_baseline_option),
		cmocka_unit_test(test_companion_baselines),
		cmocka_unit_test(test_rejects_bad_input),
		cmocka_unit_test(test_text_names_whole),
		cmocka_unit_test(test_text_short_names),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_csv_output),
		cmocka_unit_test(test_markdown_output),
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_method_choice),
		cmocka_unit_test(test_group_variant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
