/* compare_row.c - one variant against the baseline, for one metric. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

static bool all_positive(const struct compare_group *g)
{
	for (size_t i = 0; i < count_of(g); i++)
		if (!(g->values[i] > 0.0))
			return false;
	return true;
}

bool compare_row_primary(const struct compare_table *t, const struct compare_row *row)
{
	return t->primary && !strcmp(t->metrics[row->metric].name, t->primary);
}

enum compare_method compare_method_for(const struct compare_metric *m)
{
	switch (m->def.kind) {
	case METRIC_OUTCOME:
	case METRIC_EVENTS:
		return COMPARE_SHARES;
	case METRIC_COUNT:
		return COMPARE_MEANS;
	case METRIC_TIME:
	case METRIC_THROUGHPUT:
	case METRIC_SIZE:
	case METRIC_RATIO:
		break;
	}
	/* decided on the pooled values, so the choice favours no side */
	for (size_t g = 0; g < m->n_groups; g++)
		if (!all_positive(&m->groups[g]))
			return COMPARE_MEANS;
	return COMPARE_LOG_MEANS;
}

/* Outcomes count values != 0 (ok), events values > 0 (it happened). */
static size_t count_yes(const struct compare_group *g, enum metric_kind kind)
{
	size_t yes = 0;

	for (size_t i = 0; i < count_of(g); i++)
		yes += kind == METRIC_OUTCOME ? g->values[i] != 0.0 : g->values[i] > 0.0;
	return yes;
}

void compare_side_fill(struct compare_side *side, const struct compare_group *g,
		       const char *variant, enum compare_method method,
		       enum metric_kind kind)
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
	side->yes = count_yes(g, kind);
	switch (method) {
	case COMPARE_LOG_MEANS: side->centre = stats_geomean(x, n); break;
	case COMPARE_SHARES:    side->centre = n ? (double)side->yes / (double)n : NAN; break;
	case COMPARE_MEANS:
	case COMPARE_NONE:      side->centre = side->mean; break;
	}
}

bool compare_row_testable(const struct compare_row_input *in,
			  const struct compare_options *opts)
{
	size_t need = opts->min_trials > 2 ? opts->min_trials : 2;

	return in->method != COMPARE_NONE && count_of(in->base) >= need &&
	       count_of(in->var) >= need;
}

/* FNV-1a over the metric and the two group labels, so that every row (and
 * every A/A pair) has its own permutation stream, independent of row
 * order, yet the same data and seed always give the same table. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0x1f) * 1099511628211ULL;	/* field separator */
}

static unsigned long row_seed(unsigned long seed, const char *metric,
			      const struct compare_group *a, const struct compare_group *b)
{
	uint64_t h = 14695981039346656037ULL ^ (uint64_t)seed;

	h = fnv1a(h, metric);
	h = fnv1a(h, a ? a->label : "");
	h = fnv1a(h, b ? b->label : "");
	return (unsigned long)h;
}

static int sign_of(double x)
{
	return (x > 0.0) - (x < 0.0);
}

/* The values the method's t statistic works on: logs or the values. */
static double *transformed(const struct compare_group *g, enum compare_method method)
{
	size_t n = count_of(g);
	double *x = malloc((n ? n : 1) * sizeof(*x));

	if (!x)
		return NULL;
	for (size_t i = 0; i < n; i++)
		x[i] = method == COMPARE_LOG_MEANS ? log(g->values[i]) : g->values[i];
	return x;
}

/* One pair of groups, as the method sees it. */
struct pair {
	enum compare_method method;
	enum metric_kind kind;
	const struct compare_group *a, *b;	/* baseline side, variant side */
	double *xa, *xb;			/* transformed values */
	struct stats_welch w;			/* of xb against xa */
	size_t ya, yb;				/* shares: yes counts */
};

static int pair_open(struct pair *p, enum compare_method method, enum metric_kind kind,
		     const struct compare_group *a, const struct compare_group *b)
{
	memset(p, 0, sizeof(*p));
	p->method = method;
	p->kind = kind;
	p->a = a;
	p->b = b;
	if (method == COMPARE_SHARES) {
		p->ya = count_yes(a, kind);
		p->yb = count_yes(b, kind);
		return 0;
	}
	p->xa = transformed(a, method);
	p->xb = transformed(b, method);
	if (!p->xa || !p->xb)
		return -ENOMEM;
	return stats_welch(p->xa, count_of(a), p->xb, count_of(b), &p->w) == 0 ? 0 : -EINVAL;
}

static void pair_close(struct pair *p)
{
	free(p->xa);
	free(p->xb);
}

/* The scale a pair's difference is naturally read in. */
static enum compare_scale natural_scale(const struct pair *p, double level)
{
	double lo, hi;

	switch (p->method) {
	case COMPARE_SHARES:
		return SCALE_POINTS;
	case COMPARE_MEANS:
		return stats_fieller_ci(&p->w, count_of(p->a), count_of(p->b), level, &lo, &hi) == 0
			       ? SCALE_PERCENT : SCALE_UNIT;
	case COMPARE_LOG_MEANS:
	case COMPARE_NONE:
		break;
	}
	return SCALE_PERCENT;
}

/* The difference and its LEVEL interval in SCALE; STATS_EUNDEF when the
 * pair cannot be read in that scale at that level. */
static int pair_interval(const struct pair *p, enum compare_scale scale, double level,
			 double *diff, double *lo, double *hi)
{
	double l, h;

	switch (p->method) {
	case COMPARE_SHARES: {
		unsigned na = (unsigned)count_of(p->a), nb = (unsigned)count_of(p->b);

		if (scale != SCALE_POINTS || !na || !nb)
			return STATS_EUNDEF;
		stats_newcombe_ci((unsigned)p->ya, na, (unsigned)p->yb, nb, level, &l, &h);
		*diff = 100.0 * ((double)p->yb / nb - (double)p->ya / na);
		*lo = 100.0 * l;
		*hi = 100.0 * h;
		return 0;
	}
	case COMPARE_LOG_MEANS:
		if (scale != SCALE_PERCENT)
			return STATS_EUNDEF;
		stats_welch_ci(&p->w, level, &l, &h);
		*diff = 100.0 * expm1(p->w.diff);
		*lo = 100.0 * expm1(l);
		*hi = 100.0 * expm1(h);
		return 0;
	case COMPARE_MEANS:
		if (scale == SCALE_UNIT) {
			stats_welch_ci(&p->w, level, lo, hi);
			*diff = p->w.diff;
			return 0;
		}
		if (scale != SCALE_PERCENT ||
		    stats_fieller_ci(&p->w, count_of(p->a), count_of(p->b), level, &l, &h) != 0)
			return STATS_EUNDEF;
		*diff = 100.0 * (p->w.mean_b / p->w.mean_a - 1.0);
		*lo = 100.0 * (l - 1.0);
		*hi = 100.0 * (h - 1.0);
		return 0;
	case COMPARE_NONE:
		break;
	}
	return STATS_EUNDEF;
}

static int run_test(struct compare_row *row, const struct pair *p,
		    const struct compare_row_input *in, const struct compare_options *opts)
{
	size_t na = count_of(p->a), nb = count_of(p->b);
	double t = 0.0, prob = NAN;
	int rc;

	if (p->method == COMPARE_SHARES) {
		rc = stats_fisher_exact((unsigned)p->yb, (unsigned)(nb - p->yb), (unsigned)p->ya,
					(unsigned)(na - p->ya), &prob);
		row->exact = true;
		row->direction = sign_of((double)p->yb / nb - (double)p->ya / na);
	} else if (row->parametric) {
		/* no permutations: Student's t with the Welch df, no floor */
		rc = stats_welch_test(&p->w, &prob);
		row->exact = false;
		row->direction = sign_of(stats_welch_t(&p->w));
	} else {
		struct stats_permutation how = opts->perm;

		how.seed = row_seed(opts->perm.seed, in->metric, p->a, p->b);
		rc = stats_permutation_test(p->xa, na, p->xb, nb, &how, &t, &prob, &row->exact);
		row->direction = sign_of(t);
	}
	if (rc == STATS_ENOMEM)
		return -ENOMEM;
	row->p = rc == 0 ? prob : NAN;
	return 0;
}

/* The MDE in the row's scale, INFINITY when not even the most extreme
 * outcome would reach the level. */
static double row_mde(const struct compare_row *row, const struct pair *p,
		      const struct compare_options *opts, double level)
{
	size_t na = count_of(p->a), nb = count_of(p->b);
	double m;

	if (p->method == COMPARE_SHARES)
		return 100.0 * stats_mde_share((unsigned)na, (unsigned)nb, (double)p->ya / na, level,
					       opts->power);
	/* at the level the permutation test can really reach; Student's t
	 * reaches every level */
	if (!row->parametric)
		level = stats_permutation_attainable(na, nb, &opts->perm, level);
	if (level <= 0.0)
		return INFINITY;
	if (p->method == COMPARE_MEANS && row->scale == SCALE_PERCENT)
		return 100.0 * stats_mde_ratio(p->w.mean_a, p->w.var_mean_a, p->w.var_mean_b, row->df,
					       level, opts->power);
	m = stats_mde_t(row->se, row->df, level, opts->power);
	return p->method == COMPARE_LOG_MEANS ? 100.0 * expm1(m) : m;
}

/* The margin in the row's scale: percent of the baseline's centre, or an
 * absolute one read in that scale. */
static double row_margin(const struct compare_row *row, struct compare_margin margin)
{
	double centre = row->base.centre;

	if (isnan(margin.value))
		return NAN;
	switch (row->scale) {
	case SCALE_PERCENT:
		return margin.relative ? margin.value : 100.0 * margin.value / fabs(centre);
	case SCALE_POINTS:	/* a relative margin is a share of the baseline's share */
		if (!margin.relative)
			return margin.value;
		return centre > 0.0 ? margin.value * centre : NAN;
	case SCALE_UNIT:	/* a baseline of 0 has no percent */
		return margin.relative ? NAN : margin.value;
	}
	return NAN;
}

/* The larger absolute end of one A/A pair's interval, in the row's scale. */
static double twin_noise(const struct compare_row *row, const struct compare_row_input *in,
			 const struct compare_options *opts, const struct compare_group *first,
			 const struct compare_group *twin)
{
	struct pair p;
	double d, lo, hi, noise = NAN;

	if (!twin || count_of(first) < opts->min_trials || count_of(twin) < opts->min_trials)
		return NAN;
	if (pair_open(&p, in->method, in->kind, first, twin) == 0 &&
	    pair_interval(&p, row->scale, opts->ci_level, &d, &lo, &hi) == 0)
		noise = fmax(fabs(lo), fabs(hi));
	pair_close(&p);
	return noise;
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

/* With too few trials there is no interval, but the point difference of
 * the centres still says where the data lean. */
static void point_only(struct compare_row *row, enum compare_method method)
{
	double b = row->base.centre, v = row->var.centre;

	row->scale = method == COMPARE_SHARES ? SCALE_POINTS
		     : b != 0.0 && isfinite(b) ? SCALE_PERCENT : SCALE_UNIT;
	row->diff = row->scale == SCALE_POINTS ? 100.0 * (v - b)
		    : row->scale == SCALE_PERCENT ? 100.0 * (v / b - 1.0) : v - b;
}

static int compute_tested(struct compare_row *row, const struct compare_row_input *in,
			  const struct compare_options *opts,
			  const struct compare_row_levels *levels)
{
	struct pair p;
	int rc = pair_open(&p, in->method, in->kind, in->base, in->var);

	if (rc == -EINVAL) {	/* no Welch t for these groups */
		row->why = "test undefined";
		point_only(row, in->method);
		rc = 0;
		goto out;
	}
	if (rc != 0)
		goto out;
	if (in->method != COMPARE_SHARES) {
		row->se = p.w.se;
		row->df = p.w.df;
	}
	row->scale = natural_scale(&p, opts->ci_level);
	pair_interval(&p, row->scale, opts->ci_level, &row->diff, &row->ci_lo, &row->ci_hi);
	if (pair_interval(&p, row->scale, 1.0 - 2.0 * levels->equivalence, &(double){ 0 },
			  &row->eq_lo, &row->eq_hi) != 0)
		row->eq_lo = row->eq_hi = NAN;
	rc = run_test(row, &p, in, opts);
	if (rc != 0)
		goto out;
	if (isnan(row->p))
		row->why = "test undefined";
	row->level = levels->mde;
	row->mde = row_mde(row, &p, opts, levels->mde);
	row->margin = row_margin(row, in->margin);
out:
	pair_close(&p);
	return rc;
}

int compare_row_compute(struct compare_row *row, const struct compare_row_input *in,
			const struct compare_options *opts,
			const struct compare_row_levels *levels)
{
	int rc = 0;

	row->diff = row->ci_lo = row->ci_hi = row->eq_lo = row->eq_hi = NAN;
	row->p = row->p_adj = row->mde = row->noise = row->margin = NAN;
	row->level = row->se = row->df = NAN;
	row->why = NULL;
	row->method = in->method;
	row->parametric = in->parametric;	/* compare_metric_parametric: never shares */
	if (compare_row_testable(in, opts)) {
		rc = compute_tested(row, in, opts, levels);
	} else {
		row->why = "too few trials";
		point_only(row, in->method);
	}
	if (rc == 0)
		fill_noise(row, in, opts);
	return rc;
}

static enum compare_verdict direction_verdict(int direction, enum metric_better better)
{
	if (better == BETTER_NEITHER || direction == 0)
		return VERDICT_DIFFERS;
	if ((direction < 0) == (better == BETTER_LOWER))
		return VERDICT_BETTER;
	return VERDICT_WORSE;
}

static bool inside_margin(const struct compare_row *row)
{
	return isfinite(row->margin) && row->margin > 0.0 && isfinite(row->eq_lo) &&
	       isfinite(row->eq_hi) && row->eq_lo > -row->margin && row->eq_hi < row->margin;
}

void compare_row_decide(struct compare_row *row, enum metric_better better, double alpha)
{
	if (row->why || isnan(row->p_adj)) {
		row->verdict = VERDICT_INCONCLUSIVE;
	} else if (row->p_adj < alpha) {
		row->verdict = direction_verdict(row->direction, better);
	} else if (inside_margin(row)) {
		row->verdict = VERDICT_EQUIVALENT;
	} else if (isinf(row->mde)) {
		row->verdict = VERDICT_INCONCLUSIVE;
		row->why = "too few trials to detect any difference at this level";
	} else {
		row->verdict = VERDICT_NOT_DETECTED;
		if (isnan(row->margin) && row->base.centre == 0.0)
			row->why = row->scale == SCALE_POINTS
					   ? "baseline share 0: equivalence needs a margin in pp"
					   : "baseline 0: equivalence needs a margin in the unit";
	}
	row->changed_inside_margin = row->verdict == VERDICT_EQUIVALENT && isfinite(row->ci_lo) &&
				     isfinite(row->ci_hi) && (row->ci_lo > 0 || row->ci_hi < 0);
}
