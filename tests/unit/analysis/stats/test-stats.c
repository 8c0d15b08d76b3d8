/* test-stats.c - unit tests for analysis/stats*.c
 *
 * Reference values were computed independently of GSL and of this code, with
 * python3 3.11 and its standard library only (math.comb, itertools,
 * statistics.NormalDist, statistics.quantiles). The snippet for each value
 * is in the comment above its test. Shared helper used below:
 *
 *   def u_of(a, b):   # pairs with a_i > b_j, ties counting one half
 *       return sum((ai > bj) + 0.5 * (ai == bj) for ai in a for bj in b)
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

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

/* pooled sd of a = [1, 2, 3] (ss = 2) and b = [2, 4, 6, 8] (ss = 20):
 * math.sqrt((2 + 20) / (3 + 4 - 2)) = 2.0976176963403033 */
static void test_pooled_sd(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 2, 4, 6, 8 };

	(void)state;
	assert_close(stats_pooled_sd(a, 3, b, 4), 2.0976176963403033, 1e-12);
	assert_true(isnan(stats_pooled_sd(a, 1, b, 1)));
}

/* ---- Mann-Whitney, exact ----
 * Reference by enumerating every split of the pooled values:
 *   def mw_exact_enum(a, b):
 *       pool = a + b; u_obs = u_of(a, b); lo = hi = tot = 0
 *       for idx in itertools.combinations(range(len(pool)), len(a)):
 *           ga = [pool[i] for i in idx]
 *           gb = [pool[i] for i in range(len(pool)) if i not in idx]
 *           u = u_of(ga, gb); tot += 1; lo += u <= u_obs; hi += u >= u_obs
 *       return u_obs, min(1.0, 2 * min(lo, hi) / tot)
 * results:
 *   [1.1,2.2,3.3,4.4] vs [5.5,6.6,7.7]        -> U 0, p 0.05714285714285714
 *   [1,2,3,4,5] vs [3.5,6,7,8,9,10]           -> U 2, p 0.017316017316017316
 *   8 vs 9 values below (C(17,8) = 24310 splits) -> U 9, p 0.007897984368572603
 */
static void check_exact(const double *a, size_t na, const double *b, size_t nb,
			double want_u, double want_p)
{
	double u, p;
	bool exact = false;

	assert_int_equal(stats_mann_whitney_u(a, na, b, nb, &u, &p, &exact), 0);
	assert_true(exact);
	assert_close(u, want_u, 0);
	assert_close(p, want_p, 1e-12);
}

static void test_mwu_exact_small(void **state)
{
	const double a1[] = { 1.1, 2.2, 3.3, 4.4 }, b1[] = { 5.5, 6.6, 7.7 };
	const double a2[] = { 1, 2, 3, 4, 5 }, b2[] = { 3.5, 6, 7, 8, 9, 10 };
	const double a3[] = { 12.1, 15.3, 11.8, 14.2, 13.9, 16.0, 12.7, 13.1 };
	const double b3[] = { 14.8, 17.2, 15.9, 16.4, 18.1, 13.5, 17.7, 16.9, 15.1 };

	(void)state;
	check_exact(a1, N(a1), b1, N(b1), 0, 0.05714285714285714);
	check_exact(a2, N(a2), b2, N(b2), 2, 0.017316017316017316);
	check_exact(a3, N(a3), b3, N(b3), 9, 0.007897984368572603);
	/* swapping the groups mirrors U and keeps p */
	check_exact(b2, N(b2), a2, N(a2), 28, 0.017316017316017316);
}

/* 20 vs 20 (too many splits to enumerate): counted with the recurrence on
 * the largest pooled value, which is either in a (beating all m values of b)
 * or in b - a different route from the q-binomial product in stats_rank.c:
 *   @lru_cache(maxsize=None)
 *   def f(n, m, u):
 *       if u < 0: return 0
 *       if n == 0 or m == 0: return 1 if u == 0 else 0
 *       return f(n - 1, m, u - m) + f(n, m - 1, u)
 *   a = [i + 0.5 for i in range(0, 40, 2)]; b = [i + 0.25 for i in range(3, 43, 2)]
 *   u = u_of(a, b) = 171; tot = math.comb(40, 20)
 *   lo = sum(f(20,20,k) for k in range(0, 172)); hi = sum(f(20,20,k) for k in range(171, 401))
 *   min(1.0, 2 * min(lo, hi) / tot) = 0.4449640248402158
 */
static void test_mwu_exact_20x20(void **state)
{
	double a[20], b[20];

	(void)state;
	for (int i = 0; i < 20; i++) {
		a[i] = 2 * i + 0.5;
		b[i] = 2 * i + 3 + 0.25;
	}
	check_exact(a, 20, b, 20, 171, 0.4449640248402158);
}

/* ---- Mann-Whitney with ties: normal approximation ----
 *   def mw_normal(a, b):
 *       na, nb = len(a), len(b); n = na + nb; u = u_of(a, b)
 *       counts = collections.Counter(a + b)
 *       t = sum(c ** 3 - c for c in counts.values())
 *       var = na * nb / 12 * ((n + 1) - t / (n * (n - 1)))
 *       z = max(0.0, (abs(u - na * nb / 2) - 0.5) / math.sqrt(var))
 *       return u, min(1.0, 2 * (1 - NormalDist().cdf(z)))
 *   [1,2,2,3,3,3,4] vs [3,4,4,5,5,6,7]   -> U 3.5,  p 0.007659988586736333
 *   [i % 7 for i in range(30)] vs [i % 5 + 1.5 for i in range(30)]
 *                                        -> U 360,  p 0.1841435441475623
 */
static void test_mwu_ties(void **state)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 4 }, b[] = { 3, 4, 4, 5, 5, 6, 7 };
	double a30[30], b30[30], u, p;
	bool exact = true;

	(void)state;
	assert_int_equal(stats_mann_whitney_u(a, N(a), b, N(b), &u, &p, &exact), 0);
	assert_false(exact);
	assert_close(u, 3.5, 0);
	assert_close(p, 0.007659988586736333, 1e-9);

	for (int i = 0; i < 30; i++) {
		a30[i] = i % 7;
		b30[i] = i % 5 + 1.5;
	}
	assert_int_equal(stats_mann_whitney_u(a30, 30, b30, 30, &u, &p, NULL), 0);
	assert_close(u, 360, 0);
	assert_close(p, 0.1841435441475623, 1e-9);
}

static void test_mwu_degenerate(void **state)
{
	const double same[] = { 4, 4, 4, 4 };
	double u, p;

	(void)state;
	assert_int_equal(stats_mann_whitney_u(same, 4, same, 4, &u, &p, NULL), 0);
	assert_close(p, 1.0, 0);
	assert_int_equal(stats_mann_whitney_u(same, 0, same, 4, &u, &p, NULL),
			 STATS_EINVAL);
}

/* ---- Poisson rate test ----
 *   def binom_cdf(x, n, p):
 *       return sum(math.comb(n, k) * p**k * (1-p)**(n-k) for k in range(x + 1))
 *   def rate_test(sa, na, sb, nb):
 *       k = sa + sb; p = na / (na + nb); lower = binom_cdf(sa, k, p)
 *       upper = 1 - binom_cdf(sa - 1, k, p) if sa > 0 else 1.0
 *       return min(1.0, 2 * min(lower, upper))
 *   rate_test(2, 10, 12, 10) = 0.012939453125
 *   rate_test(3, 5, 20, 10)  = 0.052950520325646226
 *   rate_test(0, 10, 1, 10)  = 1.0
 */
static void test_poisson_rate(void **state)
{
	double p;

	(void)state;
	assert_int_equal(stats_poisson_rate_test(2, 10, 12, 10, &p), 0);
	assert_close(p, 0.012939453125, 1e-12);
	assert_int_equal(stats_poisson_rate_test(12, 10, 2, 10, &p), 0);
	assert_close(p, 0.012939453125, 1e-12);
	assert_int_equal(stats_poisson_rate_test(3, 5, 20, 10, &p), 0);
	assert_close(p, 0.052950520325646226, 1e-12);
	assert_int_equal(stats_poisson_rate_test(0, 10, 1, 10, &p), 0);
	assert_close(p, 1.0, 1e-12);
	assert_int_equal(stats_poisson_rate_test(0, 10, 0, 10, &p), 0);
	assert_close(p, 1.0, 0);
	assert_int_equal(stats_poisson_rate_test(1, 0, 1, 10, &p), STATS_EINVAL);
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

/* ---- bootstrap ----
 * No external reference (Python cannot replay GSL's MT19937 stream); the
 * tests check properties instead: reproducible for a seed, a clear +20%
 * shift bracketed and 0 excluded, zero baselines refused in percent. */
static void shifted_samples(double *a, double *b, size_t n, double factor)
{
	for (size_t i = 0; i < n; i++) {
		/* a fixed, irregular spread of about +-10% around 100 */
		a[i] = 100.0 + 10.0 * sin(1.7 * (double)i + 0.3);
		b[i] = factor * (100.0 + 10.0 * sin(2.9 * (double)i + 1.1));
	}
}

static void test_bootstrap_reproducible(void **state)
{
	double a[15], b[15], lo1, hi1, lo2, hi2, lo3, hi3;
	struct stats_bootstrap how = { .seed = 42, .iterations = 2000, .level = 0.95,
				       .centre = STATS_MEDIAN,
				       .scale = STATS_DIFF_PERCENT };

	(void)state;
	shifted_samples(a, b, 15, 1.2);
	assert_int_equal(stats_bootstrap_diff_ci(a, 15, b, 15, &how, &lo1, &hi1), 0);
	assert_int_equal(stats_bootstrap_diff_ci(a, 15, b, 15, &how, &lo2, &hi2), 0);
	assert_true(lo1 == lo2 && hi1 == hi2);
	how.seed = 43;
	assert_int_equal(stats_bootstrap_diff_ci(a, 15, b, 15, &how, &lo3, &hi3), 0);
	assert_true(lo3 != lo1 || hi3 != hi1);
}

static void test_bootstrap_brackets_shift(void **state)
{
	double a[15], b[15], lo, hi, point;
	struct stats_bootstrap how = { .seed = 7, .iterations = 2000, .level = 0.95,
				       .centre = STATS_MEDIAN,
				       .scale = STATS_DIFF_PERCENT };

	(void)state;
	shifted_samples(a, b, 15, 1.2);	/* true shift: +20% */
	assert_int_equal(stats_bootstrap_diff_ci(a, 15, b, 15, &how, &lo, &hi), 0);
	point = stats_diff(a, 15, b, 15, STATS_MEDIAN, STATS_DIFF_PERCENT);
	print_message("shift +20%%: point %.2f CI [%.2f, %.2f]\n", point, lo, hi);
	assert_true(lo < 20.0 && 20.0 < hi);
	assert_true(lo > 0.0);
	assert_true(lo <= point && point <= hi);
	assert_true(hi - lo < 30.0);	/* an interval, not the whole line */

	how.centre = STATS_MEAN;
	how.scale = STATS_DIFF_ABSOLUTE;
	assert_int_equal(stats_bootstrap_diff_ci(a, 15, b, 15, &how, &lo, &hi), 0);
	assert_true(lo > 0.0 && hi < 50.0);
}

static void test_bootstrap_zero_baseline(void **state)
{
	const double zeros[] = { 0, 0, 0, 0, 0 }, some[] = { 1, 2, 0, 3, 1 };
	double lo, hi;
	struct stats_bootstrap how = { .seed = 1, .iterations = 500, .level = 0.95,
				       .centre = STATS_MEAN,
				       .scale = STATS_DIFF_PERCENT };

	(void)state;
	assert_true(isnan(stats_diff(zeros, 5, some, 5, STATS_MEAN, STATS_DIFF_PERCENT)));
	assert_int_equal(stats_bootstrap_diff_ci(zeros, 5, some, 5, &how, &lo, &hi),
			 STATS_EUNDEF);
	how.scale = STATS_DIFF_ABSOLUTE;
	assert_int_equal(stats_bootstrap_diff_ci(zeros, 5, some, 5, &how, &lo, &hi), 0);
	assert_true(isfinite(lo) && isfinite(hi) && lo <= 1.4 && hi >= 1.4);
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

/* ---- minimum detectable effect ----
 *   z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
 *   z * 10 * math.sqrt(1/10 + 1/10) = 12.529069984918342
 *   z * 2.5 * math.sqrt(1/5 + 1/8)  = 3.9928732712667685
 */
static void test_mde(void **state)
{
	(void)state;
	assert_close(stats_min_detectable_effect(10, 10, 10, 0.05, 0.8),
		     12.529069984918342, 1e-9);
	assert_close(stats_min_detectable_effect(2.5, 5, 8, 0.05, 0.8),
		     3.9928732712667685, 1e-9);
	assert_true(isnan(stats_min_detectable_effect(NAN, 5, 8, 0.05, 0.8)));
	assert_true(isnan(stats_min_detectable_effect(1, 0, 8, 0.05, 0.8)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_descriptive_undefined),
		cmocka_unit_test(test_pooled_sd),
		cmocka_unit_test(test_mwu_exact_small),
		cmocka_unit_test(test_mwu_exact_20x20),
		cmocka_unit_test(test_mwu_ties),
		cmocka_unit_test(test_mwu_degenerate),
		cmocka_unit_test(test_poisson_rate),
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_bootstrap_reproducible),
		cmocka_unit_test(test_bootstrap_brackets_shift),
		cmocka_unit_test(test_bootstrap_zero_baseline),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_mde),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
