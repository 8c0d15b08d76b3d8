/* stats_interval.c - Welch's t and the intervals built on it (difference,
 * ratio), and intervals for the difference of two shares. */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

double stats_t_quantile(double q, double df)
{
	if (!(q > 0.0 && q < 1.0) || !(df > 0.0))
		return NAN;
	return isinf(df) ? gsl_cdf_ugaussian_Pinv(q) : gsl_cdf_tdist_Pinv(q, df);
}

/* Mean and sum of squared deviations, two-pass for accuracy with large
 * values (iteration counts near 1e6 whose spread is small). */
static void mean_ssd(const double *x, size_t n, double *mean, double *ssd)
{
	double m = 0.0, s = 0.0;

	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	*mean = m;
	*ssd = s;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *w)
{
	double ssd_a, ssd_b, va, vb;

	if (na < 2 || nb < 2)
		return STATS_EINVAL;
	mean_ssd(a, na, &w->mean_a, &ssd_a);
	mean_ssd(b, nb, &w->mean_b, &ssd_b);
	va = ssd_a / (double)(na - 1) / (double)na;
	vb = ssd_b / (double)(nb - 1) / (double)nb;
	w->var_mean_a = va;
	w->var_mean_b = vb;
	w->diff = w->mean_b - w->mean_a;
	w->se = sqrt(va + vb);
	if (va + vb > 0.0)
		w->df = (va + vb) * (va + vb) /
			(va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	else
		w->df = (double)(na + nb - 2);
	return 0;
}

double stats_welch_t(const struct stats_welch *w)
{
	if (w->se > 0.0)
		return w->diff / w->se;
	if (w->diff == 0.0)
		return 0.0;
	return w->diff > 0.0 ? INFINITY : -INFINITY;
}

void stats_welch_ci(const struct stats_welch *w, double level, double *lo, double *hi)
{
	double q = stats_t_quantile(0.5 + level / 2.0, w->df);

	*lo = w->diff - q * w->se;
	*hi = w->diff + q * w->se;
}

/* Fieller: the ratios r with (mean_b - r mean_a)^2 <= q^2 (vb + r^2 va)
 * form the interval. That is r^2 A + r B + C <= 0 with the coefficients
 * below; A > 0 exactly when mean_a is significantly away from 0, and the
 * set is then a bounded interval between the two roots. */
int stats_fieller_ci(const struct stats_welch *w, size_t na, size_t nb, double level,
		     double *lo, double *hi)
{
	double ma = w->mean_a, mb = w->mean_b, va = w->var_mean_a, vb = w->var_mean_b;
	double r, df, q, A, B, C, disc;

	if (na < 2 || nb < 2 || ma == 0.0)
		return STATS_EUNDEF;
	r = mb / ma;
	/* Satterthwaite for vb + r^2 va, the variance of mean_b - r mean_a */
	if (vb + r * r * va > 0.0)
		df = (vb + r * r * va) * (vb + r * r * va) /
		     (vb * vb / (double)(nb - 1) + r * r * r * r * va * va / (double)(na - 1));
	else
		df = (double)(na + nb - 2);
	q = stats_t_quantile(0.5 + level / 2.0, df);
	A = ma * ma - q * q * va;
	B = -2.0 * ma * mb;
	C = mb * mb - q * q * vb;
	disc = B * B - 4.0 * A * C;
	if (!(A > 0.0) || disc < 0.0)
		return STATS_EUNDEF;
	*lo = (-B - sqrt(disc)) / (2.0 * A);
	*hi = (-B + sqrt(disc)) / (2.0 * A);
	return 0;
}

void stats_wilson_ci(unsigned x, unsigned n, double level, double *lo, double *hi)
{
	double z, p, denom, centre, half;

	if (n == 0) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	z = gsl_cdf_ugaussian_Pinv(0.5 + level / 2.0);
	p = (double)x / (double)n;
	denom = 1.0 + z * z / (double)n;
	centre = (p + z * z / (2.0 * (double)n)) / denom;
	half = z * sqrt(p * (1.0 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / denom;
	*lo = fmax(0.0, centre - half);
	*hi = fmin(1.0, centre + half);
	/* exact at the ends: 0 of n cannot have a lower bound above 0 */
	if (x == 0)
		*lo = 0.0;
	if (x == n)
		*hi = 1.0;
}

void stats_newcombe_ci(unsigned xa, unsigned na, unsigned xb, unsigned nb, double level,
		       double *lo, double *hi)
{
	double pa = na ? (double)xa / (double)na : 0.0;
	double pb = nb ? (double)xb / (double)nb : 0.0;
	double la, ua, lb, ub, d = pb - pa;

	stats_wilson_ci(xa, na, level, &la, &ua);
	stats_wilson_ci(xb, nb, level, &lb, &ub);
	*lo = d - sqrt((pb - lb) * (pb - lb) + (ua - pa) * (ua - pa));
	*hi = d + sqrt((ub - pb) * (ub - pb) + (pa - la) * (pa - la));
}
