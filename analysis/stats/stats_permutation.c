/* stats_permutation.c - the permutation test of Welch's t between trials. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "stats.h"

/* A split's |t| counts as "at least as extreme" within this relative
 * distance of the observed one, so that the observed split itself (and
 * its mirror, for equal group sizes) always counts despite rounding. */
#define SAME_T_REL 1e-9

/* Welch's t of the NB values that are not in group a against those that
 * are; group a's sum and sum of squares come from the caller. The pooled
 * values are centred, which keeps the sums of squares accurate; a sum of
 * squared deviations below 1e-12 of the pooled mean square is rounding
 * residue of a group with no spread, and counts as 0, so that splits
 * whose groups are constant get an exact 0 or infinite t. */
static double split_t(double sum_a, double sq_a, size_t na, double sum_all, double sq_all,
		      size_t nb)
{
	double sum_b = sum_all - sum_a, sq_b = sq_all - sq_a;
	double ma = sum_a / (double)na, mb = sum_b / (double)nb;
	double tiny = 1e-12 * sq_all / (double)(na + nb);
	double ssd_a = sq_a - sum_a * ma, ssd_b = sq_b - sum_b * mb;
	double va = ssd_a > tiny * (double)na ? ssd_a / (double)(na - 1) / (double)na : 0.0;
	double vb = ssd_b > tiny * (double)nb ? ssd_b / (double)(nb - 1) / (double)nb : 0.0;
	double d = mb - ma;

	if (fabs(d) * fabs(d) <= tiny)
		d = 0.0;
	if (va + vb == 0.0)
		return d == 0.0 ? 0.0 : d > 0.0 ? INFINITY : -INFINITY;
	return d / sqrt(va + vb);
}

static bool extreme(double t, double t_obs)
{
	double at = fabs(t), ao = fabs(t_obs);

	if (isinf(ao))
		return isinf(at);
	return at >= ao * (1.0 - SAME_T_REL);
}

static double n_splits(size_t na, size_t nb)
{
	return round(exp(gsl_sf_lnchoose((unsigned)(na + nb), (unsigned)na)));
}

/* Every combination of NA indices out of N, in lexicographic order. The
 * sums over the first k chosen values are kept per k, so moving an index
 * recomputes only the sums from it on (mostly the last one). */
static double exact_p(const double *x, size_t n, size_t na, double sum_all, double sq_all,
		      double t_obs)
{
	size_t idx[n], hits = 0, total = 0, from = 0;
	double sum[na + 1], sq[na + 1];

	sum[0] = sq[0] = 0.0;
	for (size_t i = 0; i < na; i++)
		idx[i] = i;
	for (;;) {
		for (size_t k = from; k < na; k++) {
			sum[k + 1] = sum[k] + x[idx[k]];
			sq[k + 1] = sq[k] + x[idx[k]] * x[idx[k]];
		}
		hits += extreme(split_t(sum[na], sq[na], na, sum_all, sq_all, n - na), t_obs);
		total++;
		/* next combination: the rightmost index that can move, moves */
		size_t i = na;
		while (i > 0 && idx[i - 1] == n - na + i - 1)
			i--;
		if (i == 0)
			break;
		idx[i - 1]++;
		for (size_t j = i; j < na; j++)
			idx[j] = idx[j - 1] + 1;
		from = i - 1;
	}
	return (double)hits / (double)total;
}

static double sampled_p(const double *x, size_t n, size_t na, double sum_all, double sq_all,
			double t_obs, const struct stats_permutation *how, int *rc)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *pool = malloc(n * sizeof(*pool));
	size_t hits = 0;

	if (!rng || !pool) {
		gsl_rng_free(rng);
		free(pool);
		*rc = STATS_ENOMEM;
		return NAN;
	}
	gsl_rng_set(rng, how->seed);
	memcpy(pool, x, n * sizeof(*pool));
	for (size_t r = 0; r < how->resamples; r++) {
		double s = 0.0, q = 0.0;

		/* a partial Fisher-Yates shuffle draws group a */
		for (size_t i = 0; i < na; i++) {
			size_t j = i + gsl_rng_uniform_int(rng, n - i);
			double tmp = pool[i];

			pool[i] = pool[j];
			pool[j] = tmp;
			s += pool[i];
			q += pool[i] * pool[i];
		}
		hits += extreme(split_t(s, q, na, sum_all, sq_all, n - na), t_obs);
	}
	gsl_rng_free(rng);
	free(pool);
	*rc = 0;
	return (1.0 + (double)hits) / (1.0 + (double)how->resamples);
}

int stats_permutation_test(const double *a, size_t na, const double *b, size_t nb,
			   const struct stats_permutation *how, double *t, double *p,
			   bool *exact)
{
	size_t n = na + nb;
	double *x, centre = 0.0, sum_all = 0.0, sq_all = 0.0, sum_a = 0.0, sq_a = 0.0;
	int rc = 0;

	if (na < 2 || nb < 2 || (how->resamples == 0 && n_splits(na, nb) > how->max_exact))
		return STATS_EINVAL;
	x = malloc(n * sizeof(*x));
	if (!x)
		return STATS_ENOMEM;
	for (size_t i = 0; i < na; i++)
		centre += a[i];
	for (size_t i = 0; i < nb; i++)
		centre += b[i];
	centre /= (double)n;
	for (size_t i = 0; i < n; i++) {
		x[i] = (i < na ? a[i] : b[i - na]) - centre;
		sum_all += x[i];
		sq_all += x[i] * x[i];
		if (i < na) {
			sum_a += x[i];
			sq_a += x[i] * x[i];
		}
	}
	*t = split_t(sum_a, sq_a, na, sum_all, sq_all, nb);
	*exact = n_splits(na, nb) <= how->max_exact;
	if (*t == 0.0)
		*p = 1.0;	/* nothing to explain: every split is as extreme */
	else if (*exact)
		*p = exact_p(x, n, na, sum_all, sq_all, *t);
	else
		*p = sampled_p(x, n, na, sum_all, sq_all, *t, how, &rc);
	free(x);
	return rc;
}

double stats_permutation_min_p(size_t na, size_t nb, const struct stats_permutation *how)
{
	double splits = n_splits(na, nb);

	if (na < 2 || nb < 2)
		return 1.0;
	if (splits <= how->max_exact)	/* a split and its mirror image tie when na == nb */
		return fmin(1.0, (na == nb ? 2.0 : 1.0) / splits);
	return 1.0 / (1.0 + (double)how->resamples);
}

double stats_permutation_attainable(size_t na, size_t nb, const struct stats_permutation *how,
				   double level)
{
	double step = stats_permutation_min_p(na, nb, how);

	if (na < 2 || nb < 2 || !(level > 0.0))
		return 0.0;
	return floor(level / step * (1.0 + 1e-12)) * step;
}
