/* stats_sequential.c - boundaries for looking at the data after every round.
 *
 * Under no difference the z-statistic at information fraction t behaves
 * as S(t) / sqrt(t) for a standard Brownian motion S. Look k crosses when
 * |S(t_k)| >= b_k; the b_k are chosen one after the other so that the
 * chance of crossing first at look k is alpha(t_k) - alpha(t_{k-1}). That
 * chance needs the density of S(t_{k-1}) over the paths that crossed no
 * earlier boundary, which is carried from look to look on a grid
 * (Simpson's rule) by convolving with the Gaussian increment.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>

#include "stats.h"

#define MAX_BOUNDARY_Z 12.0	/* "never crosses": level about 4e-33 */
#define GRID_MAX 2001

double stats_obf_spent(double alpha, double t)
{
	if (!(alpha > 0.0 && alpha < 1.0) || isnan(t))
		return NAN;
	if (t <= 0.0)
		return 0.0;
	if (t >= 1.0)
		return alpha;
	/* alpha / 2 on each side, each spent as 2 - 2 Phi(z_{1 - alpha/4} / sqrt(t)) */
	return 4.0 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Pinv(1.0 - alpha / 4.0) / sqrt(t));
}

/* The continuation density of S at the last look, on an odd number of
 * points spanning (-b, b). */
struct density {
	size_t n;
	double b, h;		/* half-width and spacing */
	double f[GRID_MAX];
};

static double simpson_weight(size_t i, size_t n)
{
	if (i == 0 || i == n - 1)
		return 1.0 / 3.0;
	return i % 2 ? 4.0 / 3.0 : 2.0 / 3.0;
}

static size_t grid_points(double b, double sigma)
{
	/* at least eight points per standard deviation of the increment */
	size_t n = (size_t)ceil(2.0 * b / (sigma / 8.0)) + 1;

	if (n < 201)
		n = 201;
	if (n > GRID_MAX)
		n = GRID_MAX;
	return n | 1;
}

/* The chance that S, continuing from DENS, ends beyond +-B after a
 * Gaussian step of sd SIGMA. */
static double crossing(const struct density *d, double b, double sigma)
{
	double sum = 0.0;

	for (size_t i = 0; i < d->n; i++) {
		double u = -d->b + (double)i * d->h;

		sum += simpson_weight(i, d->n) * d->f[i] *
		       (gsl_cdf_ugaussian_Q((b - u) / sigma) + gsl_cdf_ugaussian_Q((b + u) / sigma));
	}
	return sum * d->h;
}

static void advance(struct density *d, double b, double sigma)
{
	struct density *next = malloc(sizeof(*next));

	if (!next) {	/* fail safe: later looks then never cross */
		memset(d->f, 0, sizeof(d->f));
		return;
	}
	next->b = b;
	next->n = grid_points(b, sigma);
	next->h = 2.0 * b / (double)(next->n - 1);
	for (size_t j = 0; j < next->n; j++) {
		double s = -b + (double)j * next->h, sum = 0.0;

		for (size_t i = 0; i < d->n; i++) {
			double u = -d->b + (double)i * d->h, z = (s - u) / sigma;

			sum += simpson_weight(i, d->n) * d->f[i] * exp(-0.5 * z * z);
		}
		next->f[j] = sum * d->h / (sigma * sqrt(2.0 * M_PI));
	}
	*d = *next;
	free(next);
}

/* The boundary (on the scale of S) whose crossing chance is TARGET. */
static double solve_boundary(const struct density *d, double sigma, double t, double target)
{
	double lo = 0.0, hi = MAX_BOUNDARY_Z * sqrt(t);

	if (target <= 0.0 || crossing(d, hi, sigma) >= target)
		return hi;
	for (int i = 0; i < 80; i++) {
		double mid = 0.5 * (lo + hi);

		if (crossing(d, mid, sigma) > target)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* Nominal two-sided levels of looks 0..K-1 at t_k = (n_first + k) / n_max. */
static void design_levels(double alpha, size_t n_first, size_t n_max, size_t k_max,
			  double *levels)
{
	struct density *d = malloc(sizeof(*d));
	double t_prev = 0.0, spent_prev = 0.0;

	if (!d) {
		for (size_t k = 0; k < k_max; k++)
			levels[k] = 0.0;
		return;
	}
	for (size_t k = 0; k < k_max; k++) {
		double t = fmin(1.0, (double)(n_first + k) / (double)n_max);
		double spent = stats_obf_spent(alpha, t), b, z;

		if (k == 0) {
			/* the first look needs no history: S(t_1) is N(0, t_1) */
			z = spent > 0.0 ? gsl_cdf_ugaussian_Qinv(spent / 2.0) : MAX_BOUNDARY_Z;
			z = fmin(z, MAX_BOUNDARY_Z);
			b = z * sqrt(t);
			d->b = b;
			d->n = grid_points(b, sqrt(t) / 4.0);
			d->h = 2.0 * b / (double)(d->n - 1);
			for (size_t i = 0; i < d->n; i++) {
				double s = -b + (double)i * d->h;

				d->f[i] = exp(-0.5 * s * s / t) / sqrt(2.0 * M_PI * t);
			}
		} else {
			double sigma = sqrt(t - t_prev);

			b = solve_boundary(d, sigma, t, spent - spent_prev);
			z = b / sqrt(t);
			if (k + 1 < k_max)
				advance(d, b, sigma);
		}
		levels[k] = 2.0 * gsl_cdf_ugaussian_Q(z);
		t_prev = t;
		spent_prev = spent;
	}
	free(d);
}

/* Designs are the same for every row of a table and every look of a run:
 * a few are kept. */
struct design {
	double alpha;
	size_t n_first, n_max;
	double *levels;		/* n_max - n_first + 1 */
};

static struct design cache[16];
static size_t cache_next;

static const double *design_for(double alpha, size_t n_first, size_t n_max)
{
	size_t k_max = n_max - n_first + 1;
	struct design *slot;

	for (size_t i = 0; i < sizeof(cache) / sizeof(cache[0]); i++)
		if (cache[i].levels && cache[i].alpha == alpha && cache[i].n_first == n_first &&
		    cache[i].n_max == n_max)
			return cache[i].levels;
	slot = &cache[cache_next];
	cache_next = (cache_next + 1) % (sizeof(cache) / sizeof(cache[0]));
	free(slot->levels);
	slot->levels = malloc(k_max * sizeof(*slot->levels));
	if (!slot->levels)
		return NULL;
	slot->alpha = alpha;
	slot->n_first = n_first;
	slot->n_max = n_max;
	design_levels(alpha, n_first, n_max, k_max, slot->levels);
	return slot->levels;
}

double stats_sequential_level(double alpha, size_t n, size_t n_first, size_t n_max)
{
	const double *levels;

	if (!(alpha > 0.0 && alpha < 1.0) || n_first == 0)
		return NAN;
	if (n_max <= n_first)
		return alpha;
	if (n < n_first)
		return 0.0;
	if (n > n_max)
		n = n_max;
	levels = design_for(alpha, n_first, n_max);
	return levels ? levels[n - n_first] : 0.0;
}
