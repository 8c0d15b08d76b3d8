/* stats_welch_test.c - the parametric test of Welch's t between trials:
 * its p-value from Student's t distribution with the Welch-Satterthwaite
 * degrees of freedom, not from the permutation distribution. */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

int stats_welch_test(const struct stats_welch *w, double *p)
{
	double t;

	if (!(w->df > 0.0) || isnan(w->diff) || isnan(w->se))
		return STATS_EINVAL;
	t = stats_welch_t(w);
	if (t == 0.0)
		*p = 1.0;
	else if (isinf(t))
		*p = 0.0;	/* no spread on either side, and a difference */
	else
		*p = fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(t), w->df));
	return 0;
}
