/* stats_power.c - the smallest effect a comparison could have detected. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "stats.h"

/* The noncentrality at which a t statistic with DF degrees of freedom
 * passes the critical value c with probability POWER, by the normal
 * approximation to the noncentral t: power = Phi((lambda - c) /
 * sqrt(1 + c^2 / (2 df))). With few degrees of freedom and a small level it
 * is markedly closer than c + t_power (which promised power it did not
 * deliver at 6 trials a side in test-calibration). */
double stats_mde_t(double se, double df, double alpha, double power)
{
	double c;

	if (!isfinite(se) || se < 0.0 || !(df > 0.0) || !(alpha > 0.0 && alpha < 1.0) ||
	    !(power > 0.0 && power < 1.0))
		return NAN;
	c = stats_t_quantile(1.0 - alpha / 2.0, df);
	return (c + gsl_cdf_ugaussian_Pinv(power) * sqrt(1.0 + c * c / (2.0 * df))) * se;
}

double stats_mde_ratio(double mean_a, double var_mean_a, double var_mean_b, double df,
		       double alpha, double power)
{
	double lambda = stats_mde_t(1.0, df, alpha, power);

	if (isnan(lambda) || !(mean_a != 0.0) || !(var_mean_a >= 0.0) || !(var_mean_b >= 0.0))
		return NAN;
	/* the log of the ratio, whose standard error at no difference is
	 * sqrt(va + vb) / |mean_a| (the delta method) */
	return expm1(lambda * sqrt(var_mean_a + var_mean_b) / fabs(mean_a));
}

/* Which outcomes (xa events of NA, xb of NB) Fisher's test rejects at
 * ALPHA: the rejection region is fixed by the design, not by the data. */
static bool *rejection_region(unsigned na, unsigned nb, double alpha)
{
	bool *reject = calloc((size_t)(na + 1) * (nb + 1), sizeof(*reject));

	if (!reject)
		return NULL;
	for (unsigned xa = 0; xa <= na; xa++)
		for (unsigned xb = 0; xb <= nb; xb++) {
			double p = 1.0;

			stats_fisher_exact(xb, nb - xb, xa, na - xa, &p);
			reject[xa * (nb + 1) + xb] = p < alpha;
		}
	return reject;
}

static double fisher_power(const bool *reject, unsigned na, unsigned nb, double pa, double pb)
{
	double fb[nb + 1], power = 0.0;

	for (unsigned xb = 0; xb <= nb; xb++)
		fb[xb] = gsl_ran_binomial_pdf(xb, pb, nb);
	for (unsigned xa = 0; xa <= na; xa++) {
		double fa = gsl_ran_binomial_pdf(xa, pa, na), row = 0.0;

		for (unsigned xb = 0; xb <= nb; xb++)
			if (reject[xa * (nb + 1) + xb])
				row += fb[xb];
		power += fa * row;
	}
	return power;
}

/* The smallest step away from P0 in direction DIR (+1 or -1) that reaches
 * POWER: a scan in steps of 1/40 of the room brackets the first step that
 * does (power need not be monotone in small samples, so a bisection over
 * the whole room could skip it), then bisection within the bracket. The
 * whole room when no step does, NAN when the direction has no room. */
static double direction_mde(const bool *reject, unsigned na, unsigned nb, double p0, int dir,
			    double power, bool *reached)
{
	double room = dir > 0 ? 1.0 - p0 : p0, lo = 0.0, hi = 0.0;

	*reached = false;
	if (room <= 0.0)
		return NAN;
	for (int step = 1; step <= 40 && !*reached; step++) {
		lo = hi;
		hi = room * step / 40.0;
		*reached = fisher_power(reject, na, nb, p0, p0 + dir * hi) >= power;
	}
	if (!*reached)
		return room;
	for (int i = 0; i < 30; i++) {
		double mid = 0.5 * (lo + hi);

		if (fisher_power(reject, na, nb, p0, p0 + dir * mid) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

double stats_mde_share(unsigned na, unsigned nb, double p0, double alpha, double power)
{
	bool *reject, up_ok, down_ok;
	double up, down, mde;

	if (na == 0 || nb == 0 || !(p0 >= 0.0 && p0 <= 1.0) || !(alpha > 0.0 && alpha < 1.0) ||
	    !(power > 0.0 && power < 1.0))
		return NAN;
	reject = rejection_region(na, nb, alpha);
	if (!reject)
		return NAN;
	up = direction_mde(reject, na, nb, p0, +1, power, &up_ok);
	down = direction_mde(reject, na, nb, p0, -1, power, &down_ok);
	free(reject);
	if (!up_ok && !down_ok)
		return INFINITY;
	mde = isnan(up) ? down : isnan(down) ? up : fmax(up, down);
	return mde;
}
