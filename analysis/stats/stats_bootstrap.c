/* stats_bootstrap.c - seeded percentile bootstrap CI of a difference. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

double stats_centre(const double *x, size_t n, enum stats_centre centre)
{
	return centre == STATS_MEDIAN ? stats_median(x, n) : stats_mean(x, n);
}

static double scaled_diff(double ca, double cb, enum stats_diff_scale scale)
{
	if (scale == STATS_DIFF_ABSOLUTE)
		return cb - ca;
	return ca == 0.0 ? NAN : 100.0 * (cb - ca) / fabs(ca);
}

double stats_diff(const double *a, size_t na, const double *b, size_t nb,
		  enum stats_centre centre, enum stats_diff_scale scale)
{
	if (na == 0 || nb == 0)
		return NAN;
	return scaled_diff(stats_centre(a, na, centre), stats_centre(b, nb, centre),
			   scale);
}

/* Centre of a scratch buffer; sorts it in place to avoid a copy per
 * resample. */
static double scratch_centre(double *x, size_t n, enum stats_centre centre)
{
	if (centre == STATS_MEAN)
		return gsl_stats_mean(x, 1, n);
	gsl_sort(x, 1, n);
	return gsl_stats_median_from_sorted_data(x, 1, n);
}

static void resample(gsl_rng *rng, const double *x, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = x[gsl_rng_uniform_int(rng, n)];
}

/* Fills DIFFS with one difference per resample; STATS_EUNDEF if a percent
 * difference had a zero baseline centre. */
static int resampled_diffs(gsl_rng *rng, const double *a, size_t na,
			   const double *b, size_t nb,
			   const struct stats_bootstrap *how, double *diffs)
{
	double *ra = malloc(na * sizeof(*ra)), *rb = malloc(nb * sizeof(*rb));
	int rc = ra && rb ? 0 : STATS_ENOMEM;

	for (size_t i = 0; rc == 0 && i < how->iterations; i++) {
		double ca, cb;

		resample(rng, a, na, ra);
		resample(rng, b, nb, rb);
		ca = scratch_centre(ra, na, how->centre);
		cb = scratch_centre(rb, nb, how->centre);
		diffs[i] = scaled_diff(ca, cb, how->scale);
		if (isnan(diffs[i]))
			rc = STATS_EUNDEF;
	}
	free(ra);
	free(rb);
	return rc;
}

int stats_bootstrap_diff_ci(const double *a, size_t na, const double *b, size_t nb,
			    const struct stats_bootstrap *how, double *lo, double *hi)
{
	double *diffs;
	gsl_rng *rng;
	int rc;

	if (na == 0 || nb == 0 || how->iterations == 0 ||
	    !(how->level > 0.0 && how->level < 1.0))
		return STATS_EINVAL;
	diffs = malloc(how->iterations * sizeof(*diffs));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	rc = diffs && rng ? 0 : STATS_ENOMEM;
	if (rc == 0) {
		gsl_rng_set(rng, how->seed);
		rc = resampled_diffs(rng, a, na, b, nb, how, diffs);
	}
	if (rc == 0) {
		double tail = (1.0 - how->level) / 2.0;

		gsl_sort(diffs, 1, how->iterations);
		*lo = gsl_stats_quantile_from_sorted_data(diffs, 1, how->iterations, tail);
		*hi = gsl_stats_quantile_from_sorted_data(diffs, 1, how->iterations,
							  1.0 - tail);
	}
	if (rng)
		gsl_rng_free(rng);
	free(diffs);
	return rc;
}
