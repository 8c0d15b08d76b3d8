/* compare_row.c - one variant against the baseline, for one metric. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compare_row.h"

static const double no_values[1];

static const double *values_of(const struct compare_group *g)
{
	return g && g->values ? g->values : no_values;
}

static size_t count_of(const struct compare_group *g)
{
	return g && g->values ? g->n : 0;
}

enum stats_centre compare_centre_for(enum metric_kind kind)
{
	/* Counts are mostly 0 with the odd event: their median hides the
	 * events, the mean is the rate per trial. Outcomes' mean is the
	 * share ok. Everything else is skewed, so the median. */
	return kind == METRIC_COUNT || kind == METRIC_OUTCOME ? STATS_MEAN
							       : STATS_MEDIAN;
}

void compare_side_fill(struct compare_side *side, const struct compare_group *g,
		       const char *variant)
{
	const double *x = values_of(g);
	size_t n = count_of(g);

	side->variant = variant;
	side->n = n;
	side->n_other = g ? g->n_other : 0;
	side->median = stats_median(x, n);
	side->mean = stats_mean(x, n);
	side->sd = stats_sd(x, n);
	side->iqr = stats_iqr(x, n);
}

/* FNV-1a over the metric and the two group labels, so that every row (and
 * every A/A pair) has its own bootstrap stream, independent of row order,
 * yet the same data and seed always give the same table. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0x1f) * 1099511628211ULL;	/* field separator */
}

static unsigned long row_seed(unsigned long seed, const char *metric,
			      const struct compare_group *a,
			      const struct compare_group *b)
{
	uint64_t h = 14695981039346656037ULL ^ (uint64_t)seed;

	h = fnv1a(h, metric);
	h = fnv1a(h, a ? a->label : "");
	h = fnv1a(h, b ? b->label : "");
	return (unsigned long)h;
}

static bool all_counts(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] >= 0.0 && x[i] == floor(x[i]) && x[i] < 1e9))
			return false;
	return true;
}

static enum compare_test pick_test(enum metric_kind kind,
				   const struct compare_group *base,
				   const struct compare_group *var)
{
	if (kind == METRIC_OUTCOME)
		return COMPARE_TEST_PROPORTION;
	/* the rate test needs event counts; anything else gets ranks */
	if (kind == METRIC_COUNT &&
	    all_counts(values_of(base), count_of(base)) &&
	    all_counts(values_of(var), count_of(var)))
		return COMPARE_TEST_RATE;
	return COMPARE_TEST_RANK;
}

static int sign_of(double x)
{
	return (x > 0.0) - (x < 0.0);
}

static unsigned long sum_counts(const double *x, size_t n)
{
	unsigned long sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += (unsigned long)x[i];
	return sum;
}

static unsigned count_ok(const double *x, size_t n)
{
	unsigned ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += x[i] != 0.0;
	return ok;
}

/* Sets p, exact and direction; p stays NAN when the test is undefined. */
static int run_test(struct compare_row *row, const struct compare_group *base,
		    const struct compare_group *var)
{
	const double *xb = values_of(base), *xv = values_of(var);
	size_t nb = count_of(base), nv = count_of(var);
	double p = NAN, u;
	int rc = 0;

	switch (row->test) {
	case COMPARE_TEST_RANK:
		rc = stats_mann_whitney_u(xv, nv, xb, nb, &u, &p, &row->exact);
		row->direction = sign_of(u - (double)nv * (double)nb / 2.0);
		break;
	case COMPARE_TEST_RATE:
		rc = stats_poisson_rate_test(sum_counts(xv, nv), nv,
					     sum_counts(xb, nb), nb, &p);
		row->exact = true;
		row->direction = sign_of(stats_mean(xv, nv) - stats_mean(xb, nb));
		break;
	case COMPARE_TEST_PROPORTION: {
		unsigned okb = count_ok(xb, nb), okv = count_ok(xv, nv);

		rc = stats_fisher_exact(okv, (unsigned)nv - okv, okb,
					(unsigned)nb - okb, &p);
		row->exact = true;
		row->direction = sign_of(stats_mean(xv, nv) - stats_mean(xb, nb));
		break;
	}
	case COMPARE_TEST_NONE:
		break;
	}
	if (rc == STATS_ENOMEM)
		return -ENOMEM;
	row->p = rc == 0 ? p : NAN;
	return 0;
}

static int bootstrap(const struct compare_row_input *in,
		     const struct compare_options *opts,
		     const struct compare_group *a, const struct compare_group *b,
		     enum stats_diff_scale scale, double *lo, double *hi)
{
	struct stats_bootstrap how = {
		.seed = row_seed(opts->seed, in->metric, a, b),
		.iterations = opts->iterations,
		.level = opts->ci_level,
		.centre = in->centre,
		.scale = scale,
	};

	return stats_bootstrap_diff_ci(values_of(a), count_of(a), values_of(b),
				       count_of(b), &how, lo, hi);
}

static enum stats_diff_scale row_scale(const struct compare_row *row)
{
	return row->absolute ? STATS_DIFF_ABSOLUTE : STATS_DIFF_PERCENT;
}

static void point_diff(struct compare_row *row, const struct compare_row_input *in)
{
	row->diff = stats_diff(values_of(in->base), count_of(in->base),
			       values_of(in->var), count_of(in->var),
			       in->centre, row_scale(row));
}

/* Percent of the baseline, unless the baseline centre is (or a resample
 * of it would be) 0: then the difference is in the metric's unit. */
static int diff_and_ci(struct compare_row *row, const struct compare_row_input *in,
		       const struct compare_options *opts, bool with_ci)
{
	double centre = stats_centre(values_of(in->base), count_of(in->base),
				     in->centre);
	int rc;

	row->absolute = centre == 0.0;
	point_diff(row, in);
	if (!with_ci)
		return 0;
	rc = bootstrap(in, opts, in->base, in->var, row_scale(row),
		       &row->ci_lo, &row->ci_hi);
	if (rc == STATS_EUNDEF) {
		row->absolute = true;
		point_diff(row, in);
		rc = bootstrap(in, opts, in->base, in->var, row_scale(row),
			       &row->ci_lo, &row->ci_hi);
	}
	return rc == STATS_ENOMEM ? -ENOMEM : 0;
}

/* The larger absolute end of one A/A pair's CI, in the row's scale. */
static double twin_noise(const struct compare_row *row,
			 const struct compare_row_input *in,
			 const struct compare_options *opts,
			 const struct compare_group *first,
			 const struct compare_group *twin)
{
	double lo, hi;

	if (count_of(first) < opts->min_trials || count_of(twin) < opts->min_trials)
		return NAN;
	if (bootstrap(in, opts, first, twin, row_scale(row), &lo, &hi) != 0)
		return NAN;
	return fmax(fabs(lo), fabs(hi));
}

static void fill_noise(struct compare_row *row, const struct compare_row_input *in,
		       const struct compare_options *opts)
{
	double base = twin_noise(row, in, opts, in->base, in->base_twin);
	double var = twin_noise(row, in, opts, in->var, in->var_twin);

	row->noise = isnan(base) ? var : isnan(var) ? base : fmax(base, var);
	row->within_noise = isfinite(row->noise) && isfinite(row->diff) &&
			    fabs(row->diff) < row->noise;
}

static void fill_mde(struct compare_row *row, const struct compare_row_input *in,
		     const struct compare_options *opts)
{
	double sd = stats_pooled_sd(values_of(in->base), count_of(in->base),
				    values_of(in->var), count_of(in->var));
	double centre = stats_centre(values_of(in->base), count_of(in->base),
				     in->centre);
	double mde = stats_min_detectable_effect(sd, row->base.n, row->var.n,
						 opts->alpha, opts->power);

	row->mde = row->absolute ? mde : 100.0 * mde / fabs(centre);
}

int compare_row_compute(struct compare_row *row, const struct compare_row_input *in,
			const struct compare_options *opts)
{
	bool enough = count_of(in->base) >= opts->min_trials &&
		      count_of(in->var) >= opts->min_trials;
	int rc;

	row->diff = row->ci_lo = row->ci_hi = NAN;
	row->p = row->p_adj = row->mde = row->noise = NAN;
	row->why = enough ? NULL : "too few trials";
	row->test = enough ? pick_test(in->kind, in->base, in->var)
			   : COMPARE_TEST_NONE;
	rc = diff_and_ci(row, in, opts, enough);
	if (rc == 0 && enough)
		rc = run_test(row, in->base, in->var);
	if (rc != 0)
		return rc;
	if (enough) {
		fill_mde(row, in, opts);
		if (isnan(row->p))
			row->why = "test undefined";
	}
	fill_noise(row, in, opts);
	return 0;
}

static enum compare_verdict direction_verdict(int direction, enum metric_better better)
{
	if (better == BETTER_NEITHER || direction == 0)
		return VERDICT_DIFFERS;
	if ((direction < 0) == (better == BETTER_LOWER))
		return VERDICT_BETTER;
	return VERDICT_WORSE;
}

void compare_row_decide(struct compare_row *row, enum metric_better better,
			double alpha)
{
	if (row->why || isnan(row->p_adj))
		row->verdict = VERDICT_INCONCLUSIVE;
	else if (row->p_adj < alpha)
		row->verdict = direction_verdict(row->direction, better);
	else
		row->verdict = VERDICT_NO_DIFFERENCE;
}
