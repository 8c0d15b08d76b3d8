/* stats_rate.c - comparing two Poisson event rates (OOM kills, failures). */
#include <math.h>
#include <limits.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

/* Conditional test: given k events in total, under equal per-trial rates
 * the events fall into group a with probability n_a / (n_a + n_b) each. */
int stats_poisson_rate_test(unsigned long sum_a, size_t n_a,
			    unsigned long sum_b, size_t n_b, double *p_two_sided)
{
	unsigned long k = sum_a + sum_b;
	double share, lower, upper;

	if (n_a == 0 || n_b == 0 || k < sum_a || k > UINT_MAX)
		return STATS_EINVAL;
	if (k == 0) {
		*p_two_sided = 1.0;
		return 0;
	}
	share = (double)n_a / (double)(n_a + n_b);
	lower = gsl_cdf_binomial_P((unsigned)sum_a, share, (unsigned)k);
	/* P(X >= sum_a) = P(X > sum_a - 1) */
	upper = sum_a == 0 ? 1.0 :
		gsl_cdf_binomial_Q((unsigned)(sum_a - 1), share, (unsigned)k);
	*p_two_sided = fmin(1.0, 2.0 * fmin(lower, upper));
	return 0;
}
