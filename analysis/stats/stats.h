/* stats.h - the statistics behind `lab compare`.
 *
 * Distributions and special functions come from GSL; nothing of that kind is
 * written here. Functions that can fail return 0 on success and a negative
 * STATS_E* code otherwise; descriptive functions return NAN when the value is
 * undefined (e.g. the median of nothing, the sd of one value).
 *
 *   descriptive      stats.c            median, quantile, mean, sd, IQR
 *   rank test        stats_rank.c       Mann-Whitney U
 *   count tests      stats_rate.c       Poisson rate comparison
 *                    stats_fisher.c     Fisher's exact test (2x2)
 *   interval         stats_bootstrap.c  seeded bootstrap CI of a difference
 *   many tests       stats_adjust.c     Holm-Bonferroni
 *   power            stats_power.c      minimum detectable effect
 */
#ifndef OOMLAB_STATS_H
#define OOMLAB_STATS_H

#include <stdbool.h>
#include <stddef.h>

enum {
	STATS_EINVAL = -1,	/* bad arguments (too few values, ...) */
	STATS_ENOMEM = -2,
	STATS_EUNDEF = -3,	/* the statistic is undefined for these data */
};

/* ---- descriptive (stats.c); the inputs are not modified ---- */

double stats_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1 denominator); NAN for n < 2. */
double stats_sd(const double *x, size_t n);
double stats_median(const double *x, size_t n);
/* Quantile Q in [0,1] by linear interpolation between order statistics
 * (GSL's definition; Hyndman-Fan type 7, the R default). */
double stats_quantile(const double *x, size_t n, double q);
/* Interquartile range, quantile(0.75) - quantile(0.25). */
double stats_iqr(const double *x, size_t n);
/* Pooled standard deviation of two samples; NAN if na + nb < 3. */
double stats_pooled_sd(const double *a, size_t na, const double *b, size_t nb);

/* ---- Mann-Whitney U (stats_rank.c) ----
 * U counts the pairs (a_i, b_j) with a_i > b_j, ties counting one half.
 * The two-sided p-value is exact (from the null distribution of U, all
 * rankings equally likely) when there are no ties and na + nb <=
 * STATS_MWU_EXACT_MAX_N; otherwise it is the normal approximation with tie
 * correction and continuity correction. When every value is the same the
 * ranks carry no information and p = 1.
 * Returns 0, or STATS_EINVAL when a group is empty. *exact may be NULL. */
#define STATS_MWU_EXACT_MAX_N 50
int stats_mann_whitney_u(const double *a, size_t na, const double *b, size_t nb,
			 double *u, double *p_two_sided, bool *exact);

/* ---- Poisson rate comparison (stats_rate.c) ----
 * Group a saw SUM_A events in N_A trials, b SUM_B in N_B. Under equal rates,
 * given the total k = SUM_A + SUM_B, SUM_A is Binomial(k, N_A / (N_A + N_B));
 * p is the two-sided conditional binomial test, twice the smaller tail
 * (capped at 1). k = 0 gives p = 1. */
int stats_poisson_rate_test(unsigned long sum_a, size_t n_a,
			    unsigned long sum_b, size_t n_b, double *p_two_sided);

/* ---- Fisher's exact test (stats_fisher.c) ----
 * Table   | ok  | not ok
 *   grp 1 |  a  |  b
 *   grp 2 |  c  |  d
 * Two-sided p: the sum of the probabilities of all tables with the same
 * margins that are no more likely than the observed one (as R and SciPy). */
int stats_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d,
		       double *p_two_sided);

/* ---- bootstrap (stats_bootstrap.c) ---- */
enum stats_centre { STATS_MEDIAN, STATS_MEAN };
enum stats_diff_scale {
	STATS_DIFF_PERCENT,	/* 100 * (centre(b) - centre(a)) / centre(a) */
	STATS_DIFF_ABSOLUTE,	/* centre(b) - centre(a) */
};

double stats_centre(const double *x, size_t n, enum stats_centre centre);
/* The point difference of B (variant) against A (baseline); NAN when the
 * scale is percent and centre(a) is 0. */
double stats_diff(const double *a, size_t na, const double *b, size_t nb,
		  enum stats_centre centre, enum stats_diff_scale scale);

struct stats_bootstrap {
	unsigned long seed;	/* same seed and data -> same interval */
	size_t iterations;	/* resamples, e.g. 2000 */
	double level;		/* e.g. 0.95 */
	enum stats_centre centre;
	enum stats_diff_scale scale;
};

/* Percentile bootstrap CI of stats_diff(): both groups are resampled with
 * replacement (GSL's MT19937 seeded with .seed). Returns STATS_EUNDEF when
 * the scale is percent and some resample has a baseline centre of 0, as the
 * percent would then be undefined: use the absolute scale instead. */
int stats_bootstrap_diff_ci(const double *a, size_t na, const double *b, size_t nb,
			    const struct stats_bootstrap *how, double *lo, double *hi);

/* ---- Holm-Bonferroni (stats_adjust.c) ----
 * Adjusts the N p-values in place (step-down, monotone, capped at 1).
 * NAN entries are left alone and are not counted as tests. */
void stats_holm_adjust(double *p, size_t n);

/* ---- power (stats_power.c) ----
 * Smallest true difference in means that a two-sided test at ALPHA would
 * detect with probability POWER, given the pooled sd and the group sizes:
 * (z_{1-alpha/2} + z_{power}) * sd * sqrt(1/na + 1/nb).
 * A normal approximation (it ignores the t distribution's heavier tails and
 * that rank tests are slightly less efficient), in the unit of SD.
 * NAN when sd is not finite or a group is empty. */
double stats_min_detectable_effect(double sd, size_t na, size_t nb,
				   double alpha, double power);

#endif
