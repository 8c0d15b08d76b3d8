/* test-bisect-calibration.c - lab bisect's error rates, measured.
 *
 * Seeded simulations of whole bisections over synthetic noisy histories,
 * through the pieces lab bisect uses: the comparison engine
 * (compare_table_build, a parametric row as the experiment's `parametric`
 * key gives), the sequential boundaries (stats_sequential_level), the
 * budget, the midpoint and skip rules and the step's call
 * (lab/bisect-plan.h). A history is N candidate commits after good; each
 * trial's value is lognormal around the commit's centre (the noise of a
 * timing on the host's clock); a planted change multiplies the centre of
 * the commit that makes it and of every later one.
 *   - a planted change (at a commit drawn for each bisection): the share of
 *     bisections that name a wrong commit is at most alpha (+ TOL), for a
 *     change far above the noise and for one near it (many skips);
 *   - no change: the share of endpoint checks that say good and bad differ
 *     (and so bisect at all) is at most alpha (+ TOL).
 * TOL is three binomial standard deviations of the replication count; the
 * seed is fixed so that it never flakes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/compare/compare.h"
#include "analysis/compare/compare_verdict.h"
#include "analysis/metrics/metric_catalog.h"
#include "analysis/stats/stats.h"
#include "lab/bisect-plan.h"

#define ALPHA 0.05
#define FIRST_LOOK 3
#define MAX_N 20
#define METRIC "binder-throughput.throughput_latency_p50_ns"

static double tol(double p, size_t r)
{
	return 3.0 * sqrt(p * (1.0 - p) / (double)r);
}

struct history {
	size_t n;		/* candidates */
	size_t planted;		/* the first bad one; n: no change */
	double shift;		/* the planted change, a factor */
	double sd;		/* the noise, sd of the log */
	size_t max_trials;
	unsigned skips;
};

static void draw(gsl_rng *rng, const struct history *h, double factor, double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = 200e3 * factor * exp(gsl_ran_gaussian(rng, h->sd));
}

/* The row of B against A: p, direction, verdict. */
static void row(const double *a, size_t na, const double *b, size_t nb, size_t seq_max,
		const char *primary, double *p, int *dir, enum compare_verdict *verdict)
{
	struct compare_group g[2] = { { .label = "good", .values = a, .n = na },
				      { .label = "m", .values = b, .n = nb } };
	struct compare_metric m = { .groups = g, .n_groups = 2, .parametric = true };
	struct compare_options o;
	struct compare_table t;
	compare_options_default(&o);
	o.seq_max = seq_max;
	o.primary = primary;
	metric_catalog_resolve(METRIC, NULL, &m.def);
	assert_int_equal(compare_table_build(&m, 1, &o, &t), 0);
	assert_int_equal(t.n_rows, 1);
	*p = t.rows[0].p;
	*dir = t.rows[0].direction;
	if (verdict)
		*verdict = t.rows[0].verdict;
	compare_table_free(&t);
}

/* The endpoint check, as lab run's looks judge a primary: true when good
 * and bad differ; their trials in GOOD and BAD (*N each), *BAD_DIR. */
static bool endpoints(gsl_rng *rng, const struct history *h, double *good, double *bad, size_t *n,
		      int *bad_dir)
{
	double bad_factor = h->planted < h->n ? h->shift : 1.0;
	double all_good[MAX_N], all_bad[MAX_N];
	draw(rng, h, 1.0, all_good, h->max_trials);
	draw(rng, h, bad_factor, all_bad, h->max_trials);
	for (size_t k = FIRST_LOOK; k <= h->max_trials; k++) {
		double p;
		int dir;
		enum compare_verdict v;
		row(all_good, k, all_bad, k, h->max_trials, METRIC, &p, &dir, &v);
		if (compare_verdict_decided(v) || k == h->max_trials) {
			memcpy(good, all_good, k * sizeof(double));
			memcpy(bad, all_bad, k * sizeof(double));
			*n = k;
			*bad_dir = dir;
			return compare_verdict_info(v)->significant && dir != 0;
		}
	}
	return false;
}

/* One step on candidate I: its trials in rounds, a look after each. */
static enum bisect_mark step(gsl_rng *rng, const struct history *h, size_t i, const double *good,
			     const double *bad, size_t n_ref, int bad_dir, double step_alpha)
{
	double m[MAX_N];
	draw(rng, h, i >= h->planted ? h->shift : 1.0, m, h->max_trials);
	for (size_t k = FIRST_LOOK; k <= h->max_trials; k++) {
		double p_good, p_bad;
		int dir_good, dir_bad;
		row(good, n_ref, m, k, 0, NULL, &p_good, &dir_good, NULL);
		row(bad, n_ref, m, k, 0, NULL, &p_bad, &dir_bad, NULL);
		double level = stats_sequential_level(step_alpha, k, FIRST_LOOK, h->max_trials);
		switch (bisect_step_call(p_good, dir_good, p_bad, dir_bad, bad_dir, level)) {
		case BISECT_CALL_GOOD: return BISECT_GOOD;
		case BISECT_CALL_BAD:  return BISECT_BAD;
		case BISECT_CALL_BOTH: return BISECT_SKIP;
		case BISECT_CALL_NONE: break;
		}
	}
	return BISECT_SKIP;
}

enum ending { ENDED_NO_DIFFERENCE, ENDED_RIGHT, ENDED_WRONG, ENDED_NOT_NARROWED };

static enum ending bisection(gsl_rng *rng, const struct history *h, size_t *steps_taken,
			     size_t *skipped)
{
	double good[MAX_N], bad[MAX_N];
	size_t n_ref;
	int bad_dir;
	if (!endpoints(rng, h, good, bad, &n_ref, &bad_dir))
		return ENDED_NO_DIFFERENCE;
	unsigned k = bisect_max_steps(h->n, h->skips);
	double step_alpha = bisect_step_alpha(ALPHA, k);
	struct bisect_range r;
	size_t next, steps = 0;
	enum bisect_state state;
	bisect_range_init(&r, h->n);
	while ((state = bisect_range_next(&r, &next)) == BISECT_NEXT && steps < k) {
		enum bisect_mark mark = step(rng, h, next, good, bad, n_ref, bad_dir, step_alpha);
		*skipped += mark == BISECT_SKIP;
		bisect_range_mark(&r, next, mark);
		steps++;
	}
	*steps_taken += steps;
	enum ending e = state != BISECT_FOUND ? ENDED_NOT_NARROWED
		      : (size_t)r.first_bad == h->planted ? ENDED_RIGHT : ENDED_WRONG;
	bisect_range_free(&r);
	return e;
}

static void planted(const char *what, double shift, double sd, size_t n, size_t max_trials,
		    size_t reps, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t count[4] = { 0 }, steps = 0, skipped = 0;
	gsl_rng_set(rng, seed);
	for (size_t r = 0; r < reps; r++) {
		struct history h = { .n = n, .planted = gsl_rng_uniform_int(rng, n), .shift = shift,
				     .sd = sd, .max_trials = max_trials, .skips = 2 };
		count[bisection(rng, &h, &steps, &skipped)]++;
	}
	double wrong = (double)count[ENDED_WRONG] / (double)reps;
	printf("bisect, %s: x%.2f at sd %.2f, %zu candidates, at most %zu trials a step, K = %u, "
	       "alpha_s %.4f: right %.3f, wrong commit %.4f (bound %.4f), not narrowed %.3f, "
	       "endpoints not different %.3f; %.2f steps and %.2f skips a bisection\n", what, shift,
	       sd, n, max_trials, bisect_max_steps(n, 2), bisect_step_alpha(ALPHA, bisect_max_steps(n, 2)),
	       (double)count[ENDED_RIGHT] / (double)reps, wrong, ALPHA + tol(ALPHA, reps),
	       (double)count[ENDED_NOT_NARROWED] / (double)reps,
	       (double)count[ENDED_NO_DIFFERENCE] / (double)reps, (double)steps / (double)reps,
	       (double)skipped / (double)reps);
	assert_true(wrong <= ALPHA + tol(ALPHA, reps));
	gsl_rng_free(rng);
	/* what the bisection is for: a clear change is found */
	if (shift >= 2.0)
		assert_true((double)count[ENDED_RIGHT] / (double)reps >= 0.9);
}

static void a_clear_change_is_named_right(void **state)
{
	(void)state;
	/* the integration test's case: far above the noise, few trials */
	planted("clear change", 3.0, 0.2, 6, 6, 1000, 23);
	planted("clear change", 3.0, 0.2, 64, 8, 300, 24);
}

static void a_change_near_the_noise_names_no_wrong_commit(void **state)
{
	(void)state;
	/* steps often undecided: skips, stops short, and still few wrong names */
	planted("change near the noise", 1.25, 0.2, 8, 8, 1000, 25);
	planted("change near the noise", 1.15, 0.2, 16, 12, 500, 26);
}

static void no_change_stops_at_the_endpoints(void **state)
{
	(void)state;
	const size_t reps = 2000, sizes[] = { 4, 6, 12 };
	for (size_t s = 0; s < 3; s++) {
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
		size_t went_on = 0, steps = 0, skipped = 0;
		gsl_rng_set(rng, 40 + s);
		for (size_t r = 0; r < reps; r++) {
			struct history h = { .n = 6, .planted = 6, .shift = 1.0, .sd = 0.2,
					     .max_trials = sizes[s], .skips = 2 };
			went_on += bisection(rng, &h, &steps, &skipped) != ENDED_NO_DIFFERENCE;
		}
		double rate = (double)went_on / (double)reps;
		printf("bisect, no change, endpoints at looks 3..%zu: said to differ %.4f (bound %.4f)\n",
		       sizes[s], rate, ALPHA + tol(ALPHA, reps));
		assert_true(rate <= ALPHA + tol(ALPHA, reps));
		gsl_rng_free(rng);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_clear_change_is_named_right),
		cmocka_unit_test(a_change_near_the_noise_names_no_wrong_commit),
		cmocka_unit_test(no_change_stops_at_the_endpoints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
