/* stats_fisher.c - Fisher's exact test on a 2x2 table (ok vs not ok). */
#include <math.h>

#include <gsl/gsl_randist.h>

#include "stats.h"

/* Tables within this relative distance of the observed probability count
 * as "as likely": it absorbs rounding in the pdf (R uses the same 1e-7). */
#define FISHER_REL_TOL 1e-7

int stats_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d,
		       double *p_two_sided)
{
	/* With the margins fixed, a (ok in group 1) is hypergeometric: a+b
	 * draws from a+c "ok" and b+d "not ok". */
	unsigned ok = a + c, not_ok = b + d, draws = a + b;
	unsigned k_min = draws > not_ok ? draws - not_ok : 0;
	unsigned k_max = draws < ok ? draws : ok;
	double observed, sum = 0.0;

	if (ok + not_ok == 0)
		return STATS_EINVAL;
	observed = gsl_ran_hypergeometric_pdf(a, ok, not_ok, draws);
	for (unsigned k = k_min; k <= k_max; k++) {
		double pk = gsl_ran_hypergeometric_pdf(k, ok, not_ok, draws);

		if (pk <= observed * (1.0 + FISHER_REL_TOL))
			sum += pk;
	}
	*p_two_sided = fmin(1.0, sum);
	return 0;
}

double stats_fisher_min_p(unsigned na, unsigned nb)
{
	double best = 1.0;

	/* every possible table: a of NA and c of NB said yes */
	for (unsigned a = 0; a <= na; a++)
		for (unsigned c = 0; c <= nb; c++) {
			double p = 1.0;

			if (stats_fisher_exact(a, na - a, c, nb - c, &p) == 0)
				best = fmin(best, p);
		}
	return best;
}
