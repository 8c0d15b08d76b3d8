/* stats_design.c - whether a design can decide anything, before it runs. */
#include <math.h>

#include <gsl/gsl_sf_gamma.h>

#include "stats.h"

/* The most trials a side the search for a design that could decide tries. */
#define DESIGN_MAX_N 1000

double stats_design_min_p(size_t n, const struct stats_permutation *how)
{
	if (n < 2)
		return 1.0;
	/* Fisher's most extreme table (every yes on one side) and its mirror:
	 * 2/C(2n,n), the closed form of stats_fisher_min_p(n, n), which
	 * enumerates every table and is too slow for the search up to 1000 */
	double fisher = fmin(1.0, 2.0 / round(exp(gsl_sf_lnchoose((unsigned)(2 * n), (unsigned)n))));
	return fmin(fisher, stats_permutation_min_p(n, n, how));
}

/* The first Holm level at N trials a side: alpha / rows, or the boundary of
 * the last look of a sequential design whose last look is at N. */
static double first_level(const struct stats_design *d, size_t n)
{
	double a = d->alpha / (double)(d->rows ? d->rows : 1);

	return d->seq_first ? stats_sequential_level(a, n, d->seq_first, n) : a;
}

/* The smallest p of the design's rows at N a side: 0 when every row is
 * parametric (Student's t has no floor), else the permutation and Fisher
 * tests' floor. */
static double rows_min_p(const struct stats_design *d, size_t n)
{
	if (d->rows && d->parametric >= d->rows)
		return 0.0;
	return stats_design_min_p(n, &d->perm);
}

/* A row can be decided at N a side: a test is possible (MIN_TRIALS and
 * Welch's df, which needs 2 a side) and some row's smallest p is below
 * the level; a parametric row's always is. */
static bool reaches(const struct stats_design *d, size_t n)
{
	if (n < d->min_trials || n < 2)
		return false;
	return d->parametric > 0 || stats_design_min_p(n, &d->perm) < first_level(d, n);
}

bool stats_design_check(const struct stats_design *d, struct stats_design_answer *a)
{
	size_t from = d->min_trials > 2 ? d->min_trials : 2;

	if (d->seq_first && from <= d->seq_first)
		from = d->seq_first + 1;	/* a sequential design looks more than once */
	a->min_p = rows_min_p(d, d->n);
	a->level = first_level(d, d->n);
	a->can_decide = reaches(d, d->n);
	a->smallest_n = 0;
	for (size_t n = from; n <= DESIGN_MAX_N && !a->smallest_n; n++)
		if (reaches(d, n))
			a->smallest_n = n;
	return a->can_decide;
}
