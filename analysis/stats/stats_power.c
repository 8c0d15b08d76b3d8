/* stats_power.c - the smallest effect a comparison could have detected. */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

/* Normal approximation for a two-sample comparison of means:
 * MDE = (z_{1-alpha/2} + z_{power}) * sd * sqrt(1/na + 1/nb).
 * With few trials the real (t-based, or rank-based) test needs a somewhat
 * larger effect, so treat the value as a lower bound. */
double stats_min_detectable_effect(double sd, size_t na, size_t nb,
				   double alpha, double power)
{
	double z_alpha, z_power;

	if (na == 0 || nb == 0 || !isfinite(sd) ||
	    !(alpha > 0.0 && alpha < 1.0) || !(power > 0.0 && power < 1.0))
		return NAN;
	z_alpha = gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0);
	z_power = gsl_cdf_ugaussian_Pinv(power);
	return (z_alpha + z_power) * sd * sqrt(1.0 / (double)na + 1.0 / (double)nb);
}
