/* test-stats.c - unit tests for analysis/stats*.c
 *
 * Reference values were computed independently of GSL and of this code, with
 * python3 3.11 and its standard library only (math, itertools, statistics),
 * except where a comment names a published table. The snippet for each
 * value is in the comment above its test. Shared helper used below:
 *
 *   def welch(a, b):
 *       ma, mb = st.mean(a), st.mean(b)
 *       va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
 *       se = math.sqrt(va + vb)
 *       df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
 *       return mb - ma, se, df
 *
 * The calibration of the whole comparison (error rates, power, the
 * sequential rule) is in test-calibration.c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "analysis/stats/stats.h"

/* cmocka 1.1.5 only compares floats; p-values need doubles. TOL is absolute
 * for |expected| <= 1 and relative above. */
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

/* ---- descriptive ----
 * x = [3, 1, 4, 1, 5, 9, 2, 6]
 * statistics.mean(x) = 3.875; statistics.stdev(x) = 2.748376143938713
 * statistics.median(x) = 3.5
 * statistics.quantiles(x, n=4, method='inclusive') = [1.75, 3.5, 5.25]
 *   ('inclusive' is type 7, GSL's definition) -> IQR 3.5
 * statistics.quantiles(x, n=10, method='inclusive')[5] = 4.2 (q = 0.6)
 */
static const double desc_x[] = { 3, 1, 4, 1, 5, 9, 2, 6 };

static void test_descriptive(void **state)
{
	(void)state;
	assert_close(stats_mean(desc_x, N(desc_x)), 3.875, 1e-12);
	assert_close(stats_sd(desc_x, N(desc_x)), 2.748376143938713, 1e-12);
	assert_close(stats_median(desc_x, N(desc_x)), 3.5, 1e-12);
	assert_close(stats_quantile(desc_x, N(desc_x), 0.25), 1.75, 1e-12);
	assert_close(stats_quantile(desc_x, N(desc_x), 0.6), 4.2, 1e-12);
	assert_close(stats_iqr(desc_x, N(desc_x)), 3.5, 1e-12);
	/* the input must not have been sorted in place */
	assert_true(desc_x[0] == 3 && desc_x[1] == 1 && desc_x[5] == 9);
}

static void test_descriptive_undefined(void **state)
{
	double one = 7.0;

	(void)state;
	assert_true(isnan(stats_median(&one, 0)));
	assert_true(isnan(stats_mean(&one, 0)));
	assert_true(isnan(stats_sd(&one, 1)));
	assert_true(isnan(stats_quantile(desc_x, N(desc_x), 1.5)));
	assert_close(stats_median(&one, 1), 7.0, 0);
}

/* geomean([1, 10, 100]) = 10; the share of values != 0 in [0, 3, 0, 1] = 0.5 */
static void test_geomean_share(void **state)
{
	const double x[] = { 1, 10, 100 }, y[] = { 0, 3, 0, 1 }, z[] = { 2, 0, 4 };

	(void)state;
	assert_close(stats_geomean(x, 3), 10.0, 1e-12);
	assert_true(isnan(stats_geomean(z, 3)));	/* a 0 has no log */
	assert_close(stats_share_nonzero(y, 4), 0.5, 0);
	assert_true(isnan(stats_share_nonzero(y, 0)));
}

/* ---- Welch and the t quantile ----
 *   welch([11,12,13,14,15], [16,17,18,19,20]) = (5, 1.0, 8.0)
 *   welch([3.1,2.9,3.4,3.8,2.7,3.0], [4.0,4.4,3.9,5.1])
 *       = (1.2, 0.31622776601683783, 5.083788363773301)
 * t quantiles from a published t table (NIST/SEMATECH e-Handbook of
 * Statistical Methods, 1.3.6.7.2): t(0.975, 8) = 2.306, t(0.975, 10) =
 * 2.228, t(0.8, 10) = 0.879.
 */
static const double wa[] = { 11, 12, 13, 14, 15 }, wb[] = { 16, 17, 18, 19, 20 };

static void test_welch(void **state)
{
	const double a[] = { 3.1, 2.9, 3.4, 3.8, 2.7, 3.0 }, b[] = { 4.0, 4.4, 3.9, 5.1 };
	struct stats_welch w;
	double lo, hi;

	(void)state;
	assert_int_equal(stats_welch(wa, 5, wb, 5, &w), 0);
	assert_close(w.diff, 5.0, 1e-12);
	assert_close(w.se, 1.0, 1e-12);
	assert_close(w.df, 8.0, 1e-12);
	assert_close(stats_welch_t(&w), 5.0, 1e-12);
	stats_welch_ci(&w, 0.95, &lo, &hi);
	assert_close(lo, 5.0 - 2.306, 1e-3);
	assert_close(hi, 5.0 + 2.306, 1e-3);
	assert_int_equal(stats_welch(a, 6, b, 4, &w), 0);
	assert_close(w.diff, 1.2, 1e-12);
	assert_close(w.se, 0.31622776601683783, 1e-12);
	assert_close(w.df, 5.083788363773301, 1e-12);
	assert_int_equal(stats_welch(a, 1, b, 4, &w), STATS_EINVAL);
	assert_close(stats_t_quantile(0.975, 10), 2.228, 1e-3);
	assert_close(stats_t_quantile(0.8, 10), 0.879, 1e-3);
}

/* No spread at all: t is 0 for equal groups and infinite for different ones. */
static void test_welch_no_spread(void **state)
{
	const double a[] = { 150, 150, 150 }, b[] = { 120, 120, 120 };
	struct stats_welch w;

	(void)state;
	assert_int_equal(stats_welch(a, 3, a, 3, &w), 0);
	assert_close(stats_welch_t(&w), 0.0, 0);
	assert_int_equal(stats_welch(a, 3, b, 3, &w), 0);
	assert_true(isinf(stats_welch_t(&w)) && stats_welch_t(&w) < 0);
}

/* ---- Fieller ----
 * The ratio of a constant variant (18, five times) over wa (mean 13, the
 * variance of its mean 0.5): the Satterthwaite df at the estimate is then
 * exactly na - 1 = 4, and q = t(0.975, 4) = 2.776 (the table above;
 * 2.7764451051977987 to more digits):
 *   A = 13**2 - q*q*0.5; B = -2*13*18; C = 18**2
 *   roots (-B -+ sqrt(B*B - 4*A*C)) / (2*A) = 1.2029477704633234, 1.6309138874178342
 * A baseline whose mean is not clearly above 0 has no bounded interval.
 */
static void test_fieller(void **state)
{
	const double noisy[] = { -1, 2, 0.5, -0.3, 1 }, flat[] = { 18, 18, 18, 18, 18 };
	struct stats_welch w;
	double lo, hi;

	(void)state;
	stats_welch(wa, 5, flat, 5, &w);
	assert_int_equal(stats_fieller_ci(&w, 5, 5, 0.95, &lo, &hi), 0);
	assert_close(lo, 1.2029477704633234, 1e-9);
	assert_close(hi, 1.6309138874178342, 1e-9);
	stats_welch(wa, 5, wb, 5, &w);
	assert_int_equal(stats_fieller_ci(&w, 5, 5, 0.95, &lo, &hi), 0);
	assert_true(lo < 18.0 / 13.0 && 18.0 / 13.0 < hi);
	stats_welch(noisy, 5, wb, 5, &w);
	assert_int_equal(stats_fieller_ci(&w, 5, 5, 0.95, &lo, &hi), STATS_EUNDEF);
}

/* ---- Wilson and Newcombe ----
 *   z = NormalDist().inv_cdf(0.975)
 *   wilson(x, n): p = x/n; den = 1 + z*z/n; c = (p + z*z/(2*n)) / den
 *                 h = z * sqrt(p*(1-p)/n + z*z/(4*n*n)) / den; (c - h, c + h)
 *   wilson(0, 6) = (0, 0.39033428790216523)
 *   newcombe(48, 80, 56, 70) = (0.05243147240236498, 0.3338726540369059),
 *     the worked example of Newcombe (1998), Statistics in Medicine 17:873,
 *     method 10: 0.0524 to 0.3339
 *   newcombe(0, 6, 3, 6) = (5.557480092677203e-05, 0.8123836935173494)
 */
static void test_newcombe(void **state)
{
	double lo, hi;

	(void)state;
	stats_wilson_ci(0, 6, 0.95, &lo, &hi);
	assert_close(lo, 0.0, 0);
	assert_close(hi, 0.39033428790216523, 1e-9);
	stats_newcombe_ci(48, 80, 56, 70, 0.95, &lo, &hi);
	assert_close(lo, 0.05243147240236498, 1e-9);
	assert_close(hi, 0.3338726540369059, 1e-9);
	stats_newcombe_ci(0, 6, 3, 6, 0.95, &lo, &hi);
	assert_close(lo, 5.557480092677203e-05, 1e-9);
	assert_close(hi, 0.8123836935173494, 1e-9);
}

/* ---- the permutation test ----
 *   def wt(a, b): d, se, df = welch(a, b); return d / se
 *   def perm(a, b):        # every split, |t| at least the observed one
 *       x = a + b; t0 = abs(wt(a, b)); hits = tot = 0
 *       for c in itertools.combinations(range(len(x)), len(a)):
 *           A = [x[i] for i in c]; B = [x[i] for i in range(len(x)) if i not in c]
 *           tot += 1; hits += abs(wt(A, B)) >= t0 * (1 - 1e-9)
 *       return wt(a, b), hits / tot
 *   compaction stalls per trial (the verdict issue's example):
 *   perm([18,5,131,84,102,115], [27,15,23,9,19,11])
 *       = (-2.714413415267452, 0.05194805194805195)   (924 splits)
 *   perm([1.0,1.2,0.9,1.1], [1.5,1.7,1.6,1.4,1.8]) = (5.744562646538029, 1/126)
 * (the old pooled Poisson test called the first p = 2.6e-53).
 */
static void test_permutation_exact(void **state)
{
	const double a[] = { 18, 5, 131, 84, 102, 115 }, b[] = { 27, 15, 23, 9, 19, 11 };
	const double c[] = { 1.0, 1.2, 0.9, 1.1 }, d[] = { 1.5, 1.7, 1.6, 1.4, 1.8 };
	struct stats_permutation how = { .seed = 1, .max_exact = 20000, .resamples = 0 };
	double t, p;
	bool exact;

	(void)state;
	assert_int_equal(stats_permutation_test(a, 6, b, 6, &how, &t, &p, &exact), 0);
	assert_true(exact);
	assert_close(t, -2.714413415267452, 1e-9);
	assert_close(p, 0.05194805194805195, 1e-12);
	assert_int_equal(stats_permutation_test(c, 4, d, 5, &how, &t, &p, &exact), 0);
	assert_close(t, 5.744562646538029, 1e-9);
	assert_close(p, 1.0 / 126.0, 1e-12);
	/* p-values come in steps of 2/924 (a split and its mirror) and 1/126 */
	assert_close(stats_permutation_attainable(6, 6, &how, 0.05 / 6), 6.0 / 924.0, 1e-12);
	assert_close(stats_permutation_attainable(6, 6, &how, 0.002), 0.0, 0);
	assert_close(stats_permutation_attainable(4, 5, &how, 0.05), 6.0 / 126.0, 1e-12);
}

/* Sampled splits: seeded (the same p twice), close to the exact p, never
 * below 1 / (resamples + 1); identical groups give p = 1. */
static void test_permutation_sampled(void **state)
{
	const double a[] = { 18, 5, 131, 84, 102, 115 }, b[] = { 27, 15, 23, 9, 19, 11 };
	struct stats_permutation how = { .seed = 7, .max_exact = 10, .resamples = 20000 };
	double t, p1, p2;
	bool exact;

	(void)state;
	assert_int_equal(stats_permutation_test(a, 6, b, 6, &how, &t, &p1, &exact), 0);
	assert_false(exact);
	assert_int_equal(stats_permutation_test(a, 6, b, 6, &how, &t, &p2, &exact), 0);
	assert_close(p1, p2, 0);
	assert_close(p1, 0.05194805194805195, 0.006);	/* 4 sd of 20000 draws */
	assert_int_equal(stats_permutation_test(a, 6, a, 6, &how, &t, &p1, &exact), 0);
	assert_close(p1, 1.0, 0);
	assert_close(stats_permutation_attainable(6, 6, &how, 0.001), 20.0 / 20001.0, 1e-15);
	how.resamples = 0;
	assert_int_equal(stats_permutation_test(a, 6, b, 6, &how, &t, &p1, &exact), STATS_EINVAL);
}

/* Constant groups: different constants are as extreme as the design allows
 * (the observed split and its mirror: 2 of 20 for 3 against 3). */
static void test_permutation_constant(void **state)
{
	const double a[] = { 150, 150, 150 }, b[] = { 120, 120, 120 };
	struct stats_permutation how = { .seed = 1, .max_exact = 20000, .resamples = 0 };
	double t, p;
	bool exact;

	(void)state;
	assert_int_equal(stats_permutation_test(a, 3, b, 3, &how, &t, &p, &exact), 0);
	assert_true(isinf(t) && t < 0);
	assert_close(p, 0.1, 1e-12);
}

/* ---- Fisher's exact test ----
 *   def fisher(a, b, c, d):
 *       ok, nok, draws = a + c, b + d, a + b
 *       pmf = lambda k: math.comb(ok, k) * math.comb(nok, draws - k) / math.comb(ok + nok, draws)
 *       obs = pmf(a)
 *       return min(1.0, sum(pmf(k) for k in range(max(0, draws - nok), min(draws, ok) + 1)
 *                           if pmf(k) <= obs * (1 + 1e-7)))
 *   fisher(3, 1, 1, 3)  = 0.4857142857142857   (R's tea-tasting example)
 *   fisher(1, 9, 11, 3) = 0.002759456185220083
 *   fisher(10, 0, 3, 7) = 0.0030959752321981426
 *   fisher(5, 5, 5, 5)  = 1.0
 */
static void test_fisher(void **state)
{
	double p;

	(void)state;
	assert_int_equal(stats_fisher_exact(3, 1, 1, 3, &p), 0);
	assert_close(p, 0.4857142857142857, 1e-12);
	assert_int_equal(stats_fisher_exact(1, 9, 11, 3, &p), 0);
	assert_close(p, 0.002759456185220083, 1e-12);
	assert_int_equal(stats_fisher_exact(10, 0, 3, 7, &p), 0);
	assert_close(p, 0.0030959752321981426, 1e-12);
	assert_int_equal(stats_fisher_exact(5, 5, 5, 5, &p), 0);
	assert_close(p, 1.0, 1e-12);
	assert_int_equal(stats_fisher_exact(0, 0, 0, 0, &p), STATS_EINVAL);
}

/* ---- Holm-Bonferroni ----
 * p = [0.01, 0.04, 0.03, 0.005], m = 4, worked by hand:
 *   sorted 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> 0.06
 *   (running maximum), so adjusted = [0.03, 0.06, 0.06, 0.02].
 * With a NAN and a large p: [0.2, NAN, 0.001, 0.6] (m = 3):
 *   0.001*3 = 0.003, 0.2*2 = 0.4, 0.6*1 = 0.6 -> [0.4, NAN, 0.003, 0.6]
 * And [0.5, 0.6] -> 1.0, 0.6 -> max(1.0, 0.6) -> [1.0, 1.0] (capped at 1).
 */
static void test_holm(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double q[] = { 0.2, NAN, 0.001, 0.6 };
	double r[] = { 0.5, 0.6 };

	(void)state;
	stats_holm_adjust(p, 4);
	assert_close(p[0], 0.03, 1e-15);
	assert_close(p[1], 0.06, 1e-15);
	assert_close(p[2], 0.06, 1e-15);
	assert_close(p[3], 0.02, 1e-15);
	stats_holm_adjust(q, 4);
	assert_close(q[0], 0.4, 1e-15);
	assert_true(isnan(q[1]));
	assert_close(q[2], 0.003, 1e-15);
	assert_close(q[3], 0.6, 1e-15);
	stats_holm_adjust(r, 2);
	assert_close(r[0], 1.0, 0);
	assert_close(r[1], 1.0, 0);
}

/* ---- minimum detectable effects ----
 * t: with c = t(0.975, 10) = 2.228 (the table named above) and
 *   z = NormalDist().inv_cdf(0.8) = 0.8416212335729143:
 *   (c + z * math.sqrt(1 + c * c / 20)) * 2 = 6.336867223936312
 * share, by brute force over every outcome (python, the same search: a scan
 * in 1/40 of the room, then 30 halvings of the bracket):
 *   def power(na, nb, pa, pb, alpha):
 *       return sum(binom(xa, na, pa) * binom(xb, nb, pb)
 *                  for xa in range(na + 1) for xb in range(nb + 1)
 *                  if fisher(xb, nb - xb, xa, na - xa) < alpha)
 *   smallest step with power >= 0.8:
 *   6 vs 6 from 0 at alpha 0.05/6: 0.9634924840182066;
 *   12 vs 12 from 0 at 0.05: 0.4968479442643;
 *   10 vs 10 from 0.5 at 0.05: neither direction reaches 0.8 -> infinite.
 *   min over all 6 vs 6 tables of fisher(...) = 2/924.
 */
static void test_mde(void **state)
{
	(void)state;
	assert_close(stats_mde_t(2.0, 10, 0.05, 0.8), 6.336867223936312, 1e-5);
	assert_true(isnan(stats_mde_t(NAN, 10, 0.05, 0.8)));
	assert_true(isnan(stats_mde_t(1, 0, 0.05, 0.8)));
	assert_close(stats_mde_share(6, 6, 0.0, 0.05 / 6, 0.8), 0.9634924840182066, 1e-7);
	assert_close(stats_mde_share(12, 12, 0.0, 0.05, 0.8), 0.4968479442643, 1e-7);
	assert_true(isinf(stats_mde_share(10, 10, 0.5, 0.05, 0.8)));
	assert_close(stats_fisher_min_p(6, 6), 2.0 / 924.0, 1e-12);
}

/* Can a design decide anything? The smallest p at n against n is
 * 2 / C(2n, n): 3 vs 3 gives 2/20 = 0.1, 4 vs 4 2/70 = 0.0286, 5 vs 5
 * 2/252 = 0.0079, 6 vs 6 2/924 = 0.0022; past 20,000 splits (9 vs 9 has
 * 48,620) the permutation test's is 1/20001, Fisher's still 2 / C(2n, n).
 * Checked against the tests themselves: Fisher's smallest p, the
 * permutation test's step, and its p for two groups apart. */
static void test_design(void **state)
{
	const struct stats_permutation how = { .seed = 1, .max_exact = 20000, .resamples = 20000 };
	struct stats_design d = { .n = 3, .rows = 1, .alpha = 0.05, .min_trials = 3, .perm = how };
	struct stats_design_answer a;
	static const double lo[] = { 1, 2, 3, 4, 5, 6 }, hi[] = { 11, 12, 13, 14, 15, 16 };
	double t, p;
	bool exact;

	(void)state;
	for (unsigned n = 2; n <= 8; n++) {
		assert_close(stats_design_min_p(n, &how), stats_fisher_min_p(n, n), 1e-12);
		assert_close(stats_permutation_attainable(n, n, &how, 1.5 * stats_design_min_p(n, &how)),
			     stats_design_min_p(n, &how), 1e-12);
	}
	assert_int_equal(stats_permutation_test(lo, 6, hi, 6, &how, &t, &p, &exact), 0);
	assert_true(exact);
	assert_close(p, stats_design_min_p(6, &how), 1e-12);
	assert_close(stats_design_min_p(9, &how), 2.0 / 48620.0, 1e-12);
	assert_true(stats_permutation_attainable(9, 9, &how, 1e-4) > 0.0);
	assert_close(stats_design_min_p(1, &how), 1.0, 0);

	assert_false(stats_design_check(&d, &a));	/* 3 vs 3, one row: 0.1 */
	assert_close(a.min_p, 0.1, 1e-12);
	assert_close(a.level, 0.05, 0);
	assert_int_equal(a.smallest_n, 4);
	d.n = 4;
	assert_true(stats_design_check(&d, &a));	/* 0.0286 < 0.05 */
	assert_close(a.min_p, 2.0 / 70.0, 1e-12);
	d.n = 6, d.rows = 5;
	assert_true(stats_design_check(&d, &a));	/* 0.0022 < 0.01 */
	d.n = 3;
	assert_false(stats_design_check(&d, &a));
	assert_int_equal(a.smallest_n, 5);		/* 0.0079 < 0.01 */
	d.n = 5, d.rows = 12;
	assert_false(stats_design_check(&d, &a));	/* 0.0079 > 0.0042 */
	assert_close(a.level, 0.05 / 12, 1e-12);
	assert_int_equal(a.smallest_n, 6);
	d.n = 2, d.rows = 1;
	assert_false(stats_design_check(&d, &a));	/* no test below 3 a side */
	assert_int_equal(a.smallest_n, 4);

	/* sequential, looks from 3: the last look's boundary, below alpha / rows */
	d.seq_first = 3, d.n = 5, d.rows = 12;
	assert_false(stats_design_check(&d, &a));
	assert_close(a.level, stats_sequential_level(0.05 / 12, 5, 3, 5), 1e-12);
	assert_true(a.level < 0.05 / 12);
	assert_true(a.smallest_n >= 6);
	assert_true(stats_design_min_p(a.smallest_n, &how) <
		    stats_sequential_level(0.05 / 12, a.smallest_n, 3, a.smallest_n));
	assert_true(stats_design_min_p(a.smallest_n - 1, &how) >=
		    stats_sequential_level(0.05 / 12, a.smallest_n - 1, 3, a.smallest_n - 1));
	d.n = 20, d.rows = 5;
	assert_true(stats_design_check(&d, &a));

	/* parametric rows: Student's t has no floor, so 3 a side can decide
	 * any family; every row parametric: the smallest p is 0 */
	d.seq_first = 0, d.n = 3, d.rows = 12, d.parametric = 12;
	assert_true(stats_design_check(&d, &a));
	assert_close(a.min_p, 0.0, 0);
	assert_int_equal(a.smallest_n, 3);
	d.parametric = 1;	/* one of twelve: that row can */
	assert_true(stats_design_check(&d, &a));
	assert_close(a.min_p, 0.1, 1e-12);
	d.seq_first = 3, d.n = 4, d.parametric = 12;	/* looks at 3 and 4 */
	assert_true(stats_design_check(&d, &a));
	assert_int_equal(a.smallest_n, 4);
	d.seq_first = 0, d.n = 2;
	assert_false(stats_design_check(&d, &a));	/* still no test below 3 a side */
	assert_int_equal(a.smallest_n, 3);
}

/* ---- the parametric test ----
 * Two-sided p of Welch's t from Student's t, 1 - 2 int_0^|t| f(x) dx with
 * f the t density (math.lgamma, Simpson's rule with 200,000 steps, python3
 * standard library only):
 *   welch([11..15], [16..20]): t 5, df 8                  p = 0.0010528257933799523
 *   welch([3.1,2.9,3.4,3.8,2.7,3.0], [4.0,4.4,3.9,5.1]):
 *     t 3.794733192202055, df 5.083788363773301           p = 0.012308586793180143
 * and, as a check of the integration, df 2 in closed form: P(|T| > 3) =
 * 1 - 3 / sqrt(11) = 0.09546596626670911 (the integration gives the same to
 * 1e-13). The NIST table's t(0.975, 8) = 2.306 gives p 0.05 (to 1e-5). */
static void test_welch_test(void **state)
{
	const double a[] = { 3.1, 2.9, 3.4, 3.8, 2.7, 3.0 }, b[] = { 4.0, 4.4, 3.9, 5.1 };
	const double flat[] = { 2, 2, 2 }, flat2[] = { 3, 3, 3 };
	struct stats_welch w;
	double p;

	(void)state;
	stats_welch(wa, 5, wb, 5, &w);
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 0.0010528257933799523, 1e-12);
	stats_welch(wb, 5, wa, 5, &w);	/* two-sided: either order */
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 0.0010528257933799523, 1e-12);
	stats_welch(a, 6, b, 4, &w);
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 0.012308586793180143, 1e-12);
	w = (struct stats_welch){ .diff = 3.0, .se = 1.0, .df = 2.0 };
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 0.09546596626670911, 1e-12);
	w = (struct stats_welch){ .diff = 2.306, .se = 1.0, .df = 8.0 };
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 0.05, 1e-5);
	/* no floor: far apart groups of 3 give p far below 2 / C(6, 3) = 0.1 */
	w = (struct stats_welch){ .diff = 100.0, .se = 1.0, .df = 2.0 };
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_true(p < 1e-4 && p > 0.0);
	stats_welch(flat, 3, flat, 3, &w);
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 1.0, 0);
	stats_welch(flat, 3, flat2, 3, &w);
	assert_int_equal(stats_welch_test(&w, &p), 0);
	assert_close(p, 0.0, 0);
	w = (struct stats_welch){ .diff = 1.0, .se = 1.0, .df = 0.0 };
	assert_int_equal(stats_welch_test(&w, &p), STATS_EINVAL);
}

/* ---- sequential boundaries ----
 * Lan-DeMets O'Brien-Fleming-type spending, two-sided alpha 0.05, five
 * equally spaced looks: z boundaries 4.8769, 3.3569, 2.6803, 2.2898,
 * 2.0310 (the standard table, e.g. R's gsDesign with sfLDOF or ldbounds;
 * Jennison and Turnbull 2000, table 7.x). The nominal level of a look is
 * 2 (1 - Phi(z)). One look is the fixed design: alpha itself.
 */
static void test_sequential(void **state)
{
	static const double z[] = { 4.8769, 3.3569, 2.6803, 2.2898, 2.0310 };

	(void)state;
	for (size_t k = 0; k < 5; k++) {
		double level = stats_sequential_level(0.05, k + 1, 1, 5);

		assert_close(gsl_cdf_ugaussian_Qinv(level / 2.0), z[k], 2e-4);
	}
	assert_close(stats_sequential_level(0.05, 8, 8, 8), 0.05, 0);
	assert_close(stats_sequential_level(0.05, 2, 3, 20), 0.0, 0);
	assert_close(stats_obf_spent(0.05, 1.0), 0.05, 0);
	assert_close(stats_obf_spent(0.05, 0.0), 0.0, 0);
	/* every look is stricter than a fixed test, and the levels grow */
	for (size_t n = 3; n < 20; n++) {
		assert_true(stats_sequential_level(0.05, n, 3, 20) < 0.05);
		assert_true(stats_sequential_level(0.05, n, 3, 20) <
			    stats_sequential_level(0.05, n + 1, 3, 20));
	}
}

/* Two levels, by hand: three boots of three restores (1 2 3 | 4 5 6 |
 * 7 8 9): MSW = 6 / 6 = 1, MSB = 3 (9 + 0 + 9) / 2 = 27, so T1^2 = 1,
 * T2^2 = (27 - 1) / 3 and F = 27 on 2 and 6 df. Unequal and interleaved
 * (boots 5 9 5 9 5: 1 10 3 12 2): means 2 and 11, MSW = 4 / 3, MSB = 97.2,
 * n0 = (5 - 13 / 5) / 1 = 2.4. */
static void test_levels(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	const unsigned boot[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
	struct stats_levels l;
	assert_int_equal(stats_levels(x, boot, 9, &l), 0);
	assert_int_equal(l.boots, 3);
	assert_int_equal(l.trials, 9);
	assert_true(fabs(l.grand_mean - 5.0) < 1e-12);
	assert_true(fabs(l.within_var - 1.0) < 1e-12);
	assert_true(fabs(l.between_var - 26.0 / 3.0) < 1e-12);
	assert_true(fabs(l.f - 27.0) < 1e-12);
	assert_true(fabs(l.p - gsl_cdf_fdist_Q(27.0, 2, 6)) < 1e-15);

	const double y[] = { 1, 10, 3, 12, 2 };
	const unsigned boot2[] = { 5, 9, 5, 9, 5 };
	double means[5];
	size_t counts[5];
	assert_int_equal(stats_boot_means(y, boot2, 5, means, counts), 2);
	assert_true(fabs(means[0] - 2.0) < 1e-12 && fabs(means[1] - 11.0) < 1e-12);
	assert_int_equal(counts[0], 3);
	assert_int_equal(counts[1], 2);
	assert_int_equal(stats_levels(y, boot2, 5, &l), 0);
	assert_true(fabs(l.within_var - 4.0 / 3.0) < 1e-12);
	assert_true(fabs(l.between_var - (97.2 - 4.0 / 3.0) / 2.4) < 1e-9);
	assert_true(fabs(l.f - 97.2 / (4.0 / 3.0)) < 1e-9);

	/* one boot, or no boot with two restores: no split */
	assert_int_equal(stats_levels(x, (const unsigned[]){ 0, 0, 0 }, 3, &l), STATS_EINVAL);
	assert_int_equal(stats_levels(x, (const unsigned[]){ 0, 1, 2 }, 3, &l), STATS_EINVAL);

	/* restores a boot: sqrt(16 / 1 * 4 / 1) = 8; capped; no boot
	 * component: the cap; no cost for a restore: 1 */
	assert_int_equal(stats_levels_restores(4, 1, 16, 1, 100), 8);
	assert_int_equal(stats_levels_restores(4, 1, 16, 1, 5), 5);
	assert_int_equal(stats_levels_restores(4, 0, 16, 1, 12), 12);
	assert_int_equal(stats_levels_restores(1, 100, 1, 1, 12), 1);
	assert_int_equal(stats_levels_restores(4, 1, 16, 0, 12), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_descriptive_undefined),
		cmocka_unit_test(test_geomean_share),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_no_spread),
		cmocka_unit_test(test_fieller),
		cmocka_unit_test(test_newcombe),
		cmocka_unit_test(test_permutation_exact),
		cmocka_unit_test(test_permutation_sampled),
		cmocka_unit_test(test_permutation_constant),
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_design),
		cmocka_unit_test(test_welch_test),
		cmocka_unit_test(test_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
