/* stats_rank.c - Mann-Whitney U test (Wilcoxon rank-sum). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#include "stats.h"

/* U for A: pairs with a_i > b_j, ties counting one half. O(na * nb) is
 * fine for trial counts, and needs no ranking. */
static double u_statistic(const double *a, size_t na, const double *b, size_t nb)
{
	double u = 0.0;

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	return u;
}

/* Sum of t^3 - t over the groups of tied values in A and B together, for
 * the variance correction. Returns -1 when out of memory. */
static double tie_term(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, i = 0;
	double *all = malloc(n * sizeof(*all)), sum = 0.0;

	if (!all)
		return -1.0;
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	gsl_sort(all, 1, n);
	while (i < n) {
		size_t j = i + 1;

		while (j < n && all[j] == all[i])
			j++;
		sum += pow((double)(j - i), 3) - (double)(j - i);
		i = j;
	}
	free(all);
	return sum;
}

/* Number of rankings giving each value of U (no ties): the coefficients of
 * the Gaussian binomial [na+nb choose na]_q = prod_{i=1..na} (1 - q^(nb+i)) /
 * (1 - q^i). Worked as power series modulo q^(na*nb+1), which is exact
 * because the result is a polynomial of that degree. All values are
 * integers below C(50, 25) < 2^53, so doubles hold them exactly. */
static double *u_null_counts(size_t na, size_t nb)
{
	size_t len = na * nb + 1;
	double *c = calloc(len, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1.0;
	for (size_t i = 1; i <= na; i++) {
		size_t up = nb + i;

		for (size_t k = len; k-- > up;)	/* times (1 - q^up) */
			c[k] -= c[k - up];
		for (size_t k = i; k < len; k++)	/* divided by (1 - q^i) */
			c[k] += c[k - i];
	}
	return c;
}

static int exact_p(double u, size_t na, size_t nb, double *p)
{
	size_t len = na * nb + 1, k_obs = (size_t)u;
	double *c = u_null_counts(na, nb), total = 0.0, below = 0.0, above = 0.0;

	if (!c)
		return STATS_ENOMEM;
	for (size_t k = 0; k < len; k++) {
		total += c[k];
		if (k <= k_obs)
			below += c[k];
		if (k >= k_obs)
			above += c[k];
	}
	free(c);
	*p = fmin(1.0, 2.0 * fmin(below, above) / total);
	return 0;
}

static double normal_p(double u, size_t na, size_t nb, double ties)
{
	double n = (double)(na + nb), mu = (double)na * (double)nb / 2.0;
	double var = (double)na * (double)nb / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
	double z;

	if (!(var > 0.0))	/* all values equal: the ranks say nothing */
		return 1.0;
	z = fmax(0.0, (fabs(u - mu) - 0.5) / sqrt(var));	/* continuity */
	return fmin(1.0, 2.0 * gsl_cdf_ugaussian_Q(z));
}

int stats_mann_whitney_u(const double *a, size_t na, const double *b, size_t nb,
			 double *u, double *p_two_sided, bool *exact)
{
	double ties, stat;
	bool use_exact;

	if (na == 0 || nb == 0)
		return STATS_EINVAL;
	ties = tie_term(a, na, b, nb);
	if (ties < 0.0)
		return STATS_ENOMEM;
	stat = u_statistic(a, na, b, nb);
	use_exact = ties == 0.0 && na + nb <= STATS_MWU_EXACT_MAX_N;
	if (u)
		*u = stat;
	if (exact)
		*exact = use_exact;
	if (use_exact)
		return exact_p(stat, na, nb, p_two_sided);
	*p_two_sided = normal_p(stat, na, nb, ties);
	return 0;
}
