/* stats.h - the statistics behind `lab compare`.
 *
 * The unit of every test here is the trial: each input value is one
 * trial's figure (one boot), never an event inside a boot. Distributions and
 * special functions come from GSL; nothing of that kind is written here.
 * Functions that can fail return 0 on success and a negative STATS_E* code
 * otherwise; descriptive functions return NAN when the value is undefined
 * (the median of nothing, the sd of one value).
 *
 *   descriptive      stats.c              median, quantile, mean, sd, IQR
 *   location test    stats_permutation.c  permutation test of Welch's t
 *                    stats_welch_test.c   Welch's t against Student's t (parametric)
 *   share test       stats_fisher.c       Fisher's exact test (2x2)
 *   intervals        stats_interval.c     Welch, Fieller (ratio), Newcombe
 *   many tests       stats_adjust.c       Holm-Bonferroni
 *   power            stats_power.c        minimum detectable effects
 *   repeated looks   stats_sequential.c   group-sequential boundaries
 *   designs          stats_design.c       can a design decide anything at all
 *   two levels       stats_levels.c       boots and restores within a boot
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
/* exp(mean(log x)); NAN unless every value is > 0. */
double stats_geomean(const double *x, size_t n);
/* Share of values that are != 0 (outcomes) or > 0 (events). */
double stats_share_nonzero(const double *x, size_t n);

enum stats_centre { STATS_MEDIAN, STATS_MEAN };
double stats_centre(const double *x, size_t n, enum stats_centre centre);

/* ---- Welch's t (stats_interval.c) ----
 * The difference of means B minus A, its standard error
 * sqrt(var_a/na + var_b/nb) and the Welch-Satterthwaite degrees of freedom.
 * Both groups need at least 2 values. With no spread in either group the
 * df is na + nb - 2 (the se is 0 then, and any interval a point). */
struct stats_welch {
	double diff, se, df;
	double mean_a, mean_b;
	double var_mean_a, var_mean_b;	/* var/n: the variance of each mean */
};
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *w);
/* Welch's t of B minus A: diff / se; 0 when both are 0, +-inf when only
 * the se is 0. */
double stats_welch_t(const struct stats_welch *w);
/* The Q quantile of Student's t with DF degrees of freedom (GSL). */
double stats_t_quantile(double q, double df);

/* ---- intervals (stats_interval.c); LEVEL is e.g. 0.95 ----
 * welch:    mean(b) - mean(a) +- t_{(1+level)/2, df} * se.
 * fieller:  the ratio mean(b) / mean(a) of two independent means (Fieller's
 *           theorem, t quantile with the Welch df at the estimate).
 *           STATS_EUNDEF when mean(a) is not clearly away from 0 at LEVEL:
 *           the interval is then unbounded and only an absolute difference
 *           means anything.
 * newcombe: the difference of two shares xb/nb - xa/na (Newcombe's hybrid
 *           score interval, method 10 of his 1998 paper, from Wilson
 *           intervals); defined for 0 and n events too. */
void stats_welch_ci(const struct stats_welch *w, double level, double *lo, double *hi);
int stats_fieller_ci(const struct stats_welch *w, size_t na, size_t nb, double level,
		     double *lo, double *hi);
void stats_wilson_ci(unsigned x, unsigned n, double level, double *lo, double *hi);
void stats_newcombe_ci(unsigned xa, unsigned na, unsigned xb, unsigned nb, double level,
		       double *lo, double *hi);

/* ---- permutation test (stats_permutation.c) ----
 * Two-sided p-value of Welch's t (B minus A) under the permutation
 * distribution: every way of splitting the pooled values into groups of na
 * and nb is equally likely when both groups come from one distribution.
 * All C(na+nb, na) splits are enumerated when there are at most MAX_EXACT;
 * otherwise RESAMPLES random splits (GSL's MT19937 seeded with SEED) give
 * p = (1 + hits) / (1 + resamples), which keeps the test valid. The test
 * asks nothing of the distribution (counts with any dispersion, zeros,
 * skewed times): its size is at most alpha by construction.
 * *t is the observed statistic, *exact says whether all splits were seen. */
struct stats_permutation {
	unsigned long seed;
	size_t max_exact;	/* e.g. 20000 */
	size_t resamples;	/* e.g. 20000 */
};
int stats_permutation_test(const double *a, size_t na, const double *b, size_t nb,
			   const struct stats_permutation *how, double *t, double *p,
			   bool *exact);
/* The smallest p-value the test can give for these group sizes, the step of
 * its p-values: 2 (a split and its mirror, NA == NB) or 1 of all the splits
 * when it enumerates them, else 1 of 1 + resamples; 1 below 2 a side. */
double stats_permutation_min_p(size_t na, size_t nb, const struct stats_permutation *how);
/* The largest p-value at or below LEVEL that the test can give for these
 * group sizes (its p-values are multiples of one split's share): the level
 * it really tests at. 0 when no p-value reaches LEVEL. */
double stats_permutation_attainable(size_t na, size_t nb, const struct stats_permutation *how,
				   double level);

/* ---- the parametric test (stats_welch_test.c) ----
 * Two-sided p-value of Welch's t (W, B minus A) from Student's t
 * distribution with W's Welch-Satterthwaite degrees of freedom:
 * 2 Q_t(|t|, df) (GSL's gsl_cdf_tdist_Q). Valid when each group's values
 * are close to normal (Welch 1947); it has no floor: any p in (0, 1] can
 * come out, whatever the group sizes. t = 0 gives 1; groups with no spread
 * that differ give 0. STATS_EINVAL without degrees of freedom. */
int stats_welch_test(const struct stats_welch *w, double *p);

/* ---- Fisher's exact test (stats_fisher.c) ----
 * Table   | yes | no
 *   grp 1 |  a  |  b
 *   grp 2 |  c  |  d
 * Two-sided p: the sum of the probabilities of all tables with the same
 * margins that are no more likely than the observed one (as R and SciPy). */
int stats_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d,
		       double *p_two_sided);
/* The smallest two-sided p Fisher's test can give with NA and NB trials. */
double stats_fisher_min_p(unsigned na, unsigned nb);

/* ---- Holm-Bonferroni (stats_adjust.c) ----
 * Adjusts the N p-values in place (step-down, monotone, capped at 1).
 * NAN entries are left alone and are not counted as tests. */
void stats_holm_adjust(double *p, size_t n);

/* ---- power (stats_power.c) ----
 * t:     the smallest true difference a two-sided level-ALPHA test detects
 *        with probability POWER, given the standard error SE of the
 *        difference and DF, in the unit of SE: lambda * se, where lambda is
 *        c + z_power sqrt(1 + c^2 / (2 df)) with c = t_{1-alpha/2,df} (the
 *        normal approximation to the noncentral t). The calibration tests
 *        in tests/unit check that the permutation test reaches the power at
 *        this difference.
 * share: the smallest change of a share from P0 (baseline trials NA,
 *        variant trials NB) that Fisher's test at ALPHA finds with POWER,
 *        computed exactly from the binomial distributions; the larger of
 *        the two directions that have room, in share units (0..1).
 * Both return INFINITY when no difference can reach POWER (too few trials
 * for ALPHA), NAN on bad input. */
double stats_mde_t(double se, double df, double alpha, double power);
/* ratio: the smallest relative increase of mean_b over MEAN_A the same
 * test detects, read on the log scale: exp(lambda * se_log) - 1 with
 * lambda = stats_mde_t(1, DF, ALPHA, POWER) and se_log = sqrt(va + vb) /
 * |mean_a| (va, vb the variances of the two means, measured), the delta
 * method's standard error of log(mean_b / mean_a) at no difference. It
 * holds when the spread grows with the mean (a constant coefficient of
 * variation), and errs to the safe side when it grows more slowly (counts
 * whose variance follows the mean) or not at all. A fraction; symmetric on
 * the log scale, so a decrease of 1 - 1/(1 + d) is found as well. */
double stats_mde_ratio(double mean_a, double var_mean_a, double var_mean_b, double df,
		       double alpha, double power);
double stats_mde_share(unsigned na, unsigned nb, double p0, double alpha, double power);

/* ---- repeated looks (stats_sequential.c) ----
 * A group-sequential design with Lan-DeMets alpha spending of the
 * O'Brien-Fleming type, alpha/2 on each side spent as
 * 2 - 2 Phi(z_{1-alpha/4} / sqrt(t)) (the form of R's ldbounds and gsDesign),
 * over looks at information fractions t_k = n_k / n_max. The boundary of
 * each look is computed exactly for the Brownian motion of the z-statistic
 * (the recursive numerical integration of Armitage, McPherson and Rowe,
 * 1969; Jennison and Turnbull 2000, chapter 19), so the chance of any
 * crossing under no difference is ALPHA whatever the number of looks.
 *
 * stats_sequential_level: the nominal two-sided level of the look at N
 * trials a side when the looks are at N_FIRST, N_FIRST + 1, ..., N_MAX: a
 * p-value below it crosses the boundary. N >= N_MAX gives the last look's
 * level; N_MAX <= N_FIRST (a single look) gives ALPHA. NAN on bad input. */
double stats_obf_spent(double alpha, double t);
double stats_sequential_level(double alpha, size_t n, size_t n_first, size_t n_max);

/* ---- designs (stats_design.c) ----
 * Before a run: whether N trials a side can give any row a p-value below
 * the first Holm level over ROWS tests (alpha / ROWS; with a sequential
 * design, looks from SEQ_FIRST to N, the boundary of that level at the
 * last look, the most lenient one). The tests' smallest p for n against n
 * is 2 / C(2n, n): Fisher's most extreme table and its mirror, and the
 * permutation test while it enumerates (at most PERM.max_exact splits);
 * past that the permutation test's is 1 / (1 + PERM.resamples) and
 * Fisher's stays 2 / C(2n, n); the smaller is the design's. Fewer than
 * MIN_TRIALS a side test nothing. If the smallest p does not reach the
 * level, no row can be better, worse or differs (equivalence still can).
 * A parametric row (stats_welch_test) has no floor on its p: with any of
 * them (PARAMETRIC of the ROWS) the design can decide at MIN_TRIALS a side,
 * and when every row is parametric the smallest p is 0. */
struct stats_design {
	size_t n;		/* trials a side; a sequential run's most */
	size_t rows;		/* tests in the first Holm family */
	size_t parametric;	/* of them, rows with a p from Student's t */
	double alpha;
	size_t seq_first;	/* the first look of a sequential design; 0: one look */
	size_t min_trials;	/* fewer a side: no test (compare_options.min_trials) */
	struct stats_permutation perm;
};
struct stats_design_answer {
	double min_p;		/* the smallest p the tests can give at n a side */
	double level;		/* the first Holm level it must be below */
	bool can_decide;
	size_t smallest_n;	/* the fewest trials a side that could; 0: none up to 1000 */
};
/* Returns a->can_decide. */
bool stats_design_check(const struct stats_design *d, struct stats_design_answer *a);
/* The smallest p any of the tests can give at N against N trials. */
double stats_design_min_p(size_t n, const struct stats_permutation *how);

/* ---- two levels: boots, and restores within a boot (stats_levels.c) ----
 * Restores of one saved boot (lab boot --restores) share its memory layout:
 * they are draws within a boot, not independent trials. The boot stays the
 * unit of every test: a boot's figure is the mean of its restores
 * (stats_boot_means), which the tests above take as one trial's. The one-way
 * random-effects model splits the variance: within a boot (the restores'
 * pooled variance, T1^2) and the boots' own component (T2^2, the ANOVA
 * estimate (MSB - MSW) / n0, at least 0). A design of B boots of R restores
 * each has a grand mean of variance T2^2 / B + T1^2 / (B R) and costs
 * B (c_boot + R c_restore); the R that gives the least variance for the
 * cost is sqrt((c_boot / c_restore) (T1^2 / T2^2)), the two-level case of
 * Kalibera and Jones' rule (ISMM 2013) (stats_levels_restores). */
struct stats_levels {
	size_t boots, trials;
	double grand_mean;
	double within_var;	/* T1^2: restores within a boot */
	double between_var;	/* T2^2: the boots' own component */
	double f, p;		/* ANOVA's F of boots against restores, and its p */
	double df_between, df_within;
};
/* The means of the values X of each boot (BOOT[i] names X[i]'s boot), in
 * the order the boots first appear, into MEANS and their restores into
 * COUNTS (N entries each, at most); returns the number of boots (0 when
 * memory runs out). */
size_t stats_boot_means(const double *x, const unsigned *boot, size_t n, double *means,
			size_t *counts);
/* The split of X's variance; STATS_EINVAL for fewer than two boots or no
 * boot with two restores. */
int stats_levels(const double *x, const unsigned *boot, size_t n, struct stats_levels *out);
/* Restores a boot for the least variance of the grand mean at its cost: at
 * least 1, at most CAP (CAP when the boots add no variance of their own). */
unsigned stats_levels_restores(double within_var, double between_var, double boot_cost,
			       double restore_cost, unsigned cap);

#endif
