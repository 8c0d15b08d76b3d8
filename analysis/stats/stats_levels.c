/* stats_levels.c - two levels of repetition: boots, and restores within a
 * boot (lab boot --restores; docs/CLOCKS.md). Restores of one boot share its
 * memory layout, so they are not independent trials: the boot stays the unit
 * (stats_boot_means), and the split of the variance between the levels says
 * how many restores a boot is worth (stats_levels_restores). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"

/* Each value's boot as an index 0..k-1, in the order boots first appear,
 * into WHICH (their ids into IDS); the boots' means and counts; returns k. */
static size_t group_by_boot(const double *x, const unsigned *boot, size_t n, size_t *which,
			    unsigned *ids, double *means, size_t *counts)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t b = 0;
		while (b < k && ids[b] != boot[i])
			b++;
		if (b == k) {
			ids[k] = boot[i];
			means[k] = 0.0;
			counts[k] = 0;
			k++;
		}
		which[i] = b;
		counts[b]++;
		/* a running mean: no sum to lose digits */
		means[b] += (x[i] - means[b]) / (double)counts[b];
	}
	return k;
}

size_t stats_boot_means(const double *x, const unsigned *boot, size_t n, double *means,
			size_t *counts)
{
	size_t *which = malloc((n ? n : 1) * sizeof(*which));
	unsigned *ids = malloc((n ? n : 1) * sizeof(*ids));
	size_t k = which && ids ? group_by_boot(x, boot, n, which, ids, means, counts) : 0;
	free(which);
	free(ids);
	return k;
}

int stats_levels(const double *x, const unsigned *boot, size_t n, struct stats_levels *out)
{
	size_t m = n ? n : 1;
	double *means = malloc(m * sizeof(*means));
	size_t *counts = malloc(m * sizeof(*counts)), *which = malloc(m * sizeof(*which));
	unsigned *ids = malloc(m * sizeof(*ids));
	int rc = 0;
	if (!means || !counts || !which || !ids) {
		rc = STATS_ENOMEM;
		goto out;
	}
	size_t k = group_by_boot(x, boot, n, which, ids, means, counts);
	if (k < 2 || n <= k) {
		rc = STATS_EINVAL;
		goto out;
	}
	double grand = stats_mean(x, n), ss_within = 0.0, ss_between = 0.0, sum_sq_counts = 0.0;
	for (size_t i = 0; i < n; i++)
		ss_within += (x[i] - means[which[i]]) * (x[i] - means[which[i]]);
	for (size_t b = 0; b < k; b++) {
		ss_between += (double)counts[b] * (means[b] - grand) * (means[b] - grand);
		sum_sq_counts += (double)counts[b] * (double)counts[b];
	}
	double df_between = (double)(k - 1), df_within = (double)(n - k);
	double ms_between = ss_between / df_between, ms_within = ss_within / df_within;
	/* restores a boot for unequal counts (n0 of the one-way random-effects
	 * model); the plain count when they are equal */
	double n0 = ((double)n - sum_sq_counts / (double)n) / df_between;
	*out = (struct stats_levels){ .boots = k, .trials = n, .grand_mean = grand,
				      .within_var = ms_within,
				      .between_var = fmax(0.0, (ms_between - ms_within) / n0),
				      .f = ms_within > 0 ? ms_between / ms_within : NAN,
				      .df_between = df_between, .df_within = df_within };
	out->p = isnan(out->f) ? NAN : gsl_cdf_fdist_Q(out->f, df_between, df_within);
out:
	free(means);
	free(counts);
	free(which);
	free(ids);
	return rc;
}

unsigned stats_levels_restores(double within_var, double between_var, double boot_cost,
			       double restore_cost, unsigned cap)
{
	if (cap < 1)
		cap = 1;
	if (!(restore_cost > 0) || !(boot_cost >= 0) || !(within_var >= 0))
		return 1;
	if (!(between_var > 0))
		return cap;
	double r = ceil(sqrt(boot_cost / restore_cost * within_var / between_var));
	return r < 1 ? 1 : r > cap ? cap : (unsigned)r;
}
