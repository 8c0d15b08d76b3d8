/* stats.c - descriptive statistics on unsorted samples (via GSL). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

/* GSL's order statistics need sorted data; callers' arrays stay untouched. */
static double *sorted_copy(const double *x, size_t n)
{
	double *copy = malloc(n * sizeof(*copy));

	if (!copy)
		return NULL;
	memcpy(copy, x, n * sizeof(*copy));
	gsl_sort(copy, 1, n);
	return copy;
}

double stats_mean(const double *x, size_t n)
{
	return n ? gsl_stats_mean(x, 1, n) : NAN;
}

double stats_sd(const double *x, size_t n)
{
	return n >= 2 ? gsl_stats_sd(x, 1, n) : NAN;
}

double stats_quantile(const double *x, size_t n, double q)
{
	double *s, value;

	if (n == 0 || !(q >= 0.0 && q <= 1.0))
		return NAN;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	value = gsl_stats_quantile_from_sorted_data(s, 1, n, q);
	free(s);
	return value;
}

double stats_median(const double *x, size_t n)
{
	double *s, value;

	if (n == 0)
		return NAN;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	value = gsl_stats_median_from_sorted_data(s, 1, n);
	free(s);
	return value;
}

double stats_iqr(const double *x, size_t n)
{
	double *s, value;

	if (n == 0)
		return NAN;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	value = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.75) -
		gsl_stats_quantile_from_sorted_data(s, 1, n, 0.25);
	free(s);
	return value;
}

double stats_geomean(const double *x, size_t n)
{
	double sum = 0.0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0.0))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / (double)n);
}

double stats_share_nonzero(const double *x, size_t n)
{
	size_t yes = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		yes += x[i] != 0.0;
	return (double)yes / (double)n;
}

double stats_centre(const double *x, size_t n, enum stats_centre centre)
{
	return centre == STATS_MEDIAN ? stats_median(x, n) : stats_mean(x, n);
}
