/* test-bisect-calibration.c - lab bisect's error rates, measured.
 *
 * Seeded simulations of whole bisections over synthetic noisy histories,
 * through the loop lab bisect runs (bisect_loop_run, lab/bisect/bisect-loop.h:
 * the endpoint check's looks, the steps' judging, the next candidate, the
 * skips and the budget, with the judgements of lab/bisect/bisect-judge.h), fed by
 * a simulated trial source in place of lab run. A history is N candidate
 * commits after good; each trial's value is lognormal around the commit's
 * centre (the noise of a timing on the host's clock); a planted change
 * multiplies the centre of the commit that makes it and of every later one.
 *   - a planted change (at a commit drawn for each bisection): the share of
 *     bisections that name a wrong commit is at most alpha (+ TOL), for a
 *     change far above the noise and for one near it (many skips);
 *   - no change: the share of endpoint checks that say good and bad differ
 *     (and so bisect at all) is at most alpha (+ TOL); at bisect.sh's
 *     no-change settings (--alpha 0.0005, --max-trials 4) at most 1 in 1000;
 *   - bisect.sh's planted case (--alpha 0.005, --max-trials 8) misses the
 *     planted commit at most 1 in 1000.
 * TOL is three binomial standard deviations of the replication count at
 * alpha; a rate checked against 1 in 1000 is bounded exactly (the
 * Clopper-Pearson bound at three standard deviations' confidence). The
 * seeds are fixed so that it never flakes. OOMLAB_BISECT_CALIBRATION_SCALE=K
 * runs K times the replications (the figures of docs/STATISTICS.md are at
 * the default, 1).
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

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lab/bisect/bisect-loop.h"

#define ALPHA 0.05
#define MAX_N 20
#define METRIC "binder-throughput.throughput_latency_p50_ns"

static double tol(double p, size_t r)
{
	return 3.0 * sqrt(p * (1.0 - p) / (double)r);
}

/* The exact (Clopper-Pearson) upper bound on a rate seen X times in N, at
 * the confidence of three standard deviations (0.99865): the P at which
 * at most X of N has that chance. (The rate plus three standard deviations
 * of the rate, the bound these checks took before, is too low for a count
 * of a few: 3 of 20000 gave 0.00041, where this gives 0.00063.) */
static double upper_bound(size_t x, size_t n)
{
	double lo = (double)x / (double)n, hi = 1.0, tail = gsl_cdf_ugaussian_Q(3.0);
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;
		if (gsl_cdf_binomial_P((unsigned)x, mid, (unsigned)n) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

static size_t scaled(size_t reps)
{
	const char *k = getenv("OOMLAB_BISECT_CALIBRATION_SCALE");
	long v = k ? strtol(k, NULL, 10) : 1;
	return reps * (size_t)(v > 0 ? v : 1);
}

struct history {
	size_t n;		/* candidates */
	size_t planted;		/* the first bad one; n: no change */
	double shift;		/* the planted change, a factor */
	double sd;		/* the noise, sd of the log */
	size_t max_trials;
	unsigned skips;
	size_t per_look;	/* a step's trials between looks (lab bisect -j) */
	double alpha;
};

/* The simulated trial source: every group's trials drawn at its first use. */
struct sim {
	gsl_rng *rng;
	const struct history *h;
	double good[MAX_N], bad[MAX_N], m[MAX_N];
	size_t m_step;		/* the step M was drawn for; 0: none */
};

static void draw(struct sim *s, double factor, double *x)
{
	for (size_t i = 0; i < s->h->max_trials; i++)
		x[i] = 200e3 * factor * exp(gsl_ran_gaussian(s->rng, s->h->sd));
}

static void give(const double *x, size_t n, struct bisect_trials *t)
{
	memset(t, 0, sizeof(*t));
	t->values = malloc(n * sizeof(double));
	assert_non_null(t->values);
	memcpy(t->values, x, n * sizeof(double));
	t->n = n;
	strcpy(t->unit, "ns");
}

static int sim_endpoints(void *ctx, size_t n, struct bisect_trials *good, struct bisect_trials *bad,
			 struct strbuf *err)
{
	(void)err;
	struct sim *s = ctx;
	assert_true(n >= 1 && n <= s->h->max_trials);
	give(s->good, n, good);
	give(s->bad, n, bad);
	return 0;
}

static int sim_build(void *ctx, size_t step, size_t i, struct strbuf *why, struct strbuf *err)
{
	(void)ctx, (void)step, (void)i, (void)why, (void)err;
	return 0;
}

static int sim_trials(void *ctx, size_t step, size_t i, size_t n, struct bisect_trials *m,
		      struct strbuf *err)
{
	(void)err;
	struct sim *s = ctx;
	assert_true(n >= 1 && n <= s->h->max_trials);
	if (s->m_step != step) {
		draw(s, i >= s->h->planted ? s->h->shift : 1.0, s->m);
		s->m_step = step;
	}
	give(s->m, n, m);
	return 0;
}

/* One bisection of history H through the shipped loop. */
static void bisection(gsl_rng *rng, const struct history *h, struct bisect_result *res)
{
	struct sim s = { .rng = rng, .h = h };
	draw(&s, 1.0, s.good);
	draw(&s, h->planted < h->n ? h->shift : 1.0, s.bad);
	struct bisect_design d = {
		.metric = { .name = METRIC, .parametric = true, .margin = { .value = NAN },
			    .max_trials = h->max_trials },
		.candidates = h->n, .skips = h->skips, .alpha = h->alpha, .step_per_look = h->per_look,
	};
	struct bisect_source src = { .ctx = &s, .endpoints = sim_endpoints, .build = sim_build,
				     .trials = sim_trials };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(bisect_loop_run(&d, NULL, 0, &src, res, &err), 0);
	strbuf_release(&err);
}

enum ending { ENDED_NO_DIFFERENCE, ENDED_RIGHT, ENDED_WRONG, ENDED_NOT_NARROWED };

static enum ending ending_of(const struct history *h, const struct bisect_result *res)
{
	switch (res->end) {
	case BISECT_END_NO_DIFFERENCE: return ENDED_NO_DIFFERENCE;
	case BISECT_END_FOUND:
		return (size_t)res->range.first_bad == h->planted ? ENDED_RIGHT : ENDED_WRONG;
	case BISECT_END_ONLY_SKIPPED:
	case BISECT_END_BUDGET_SPENT:
		break;
	}
	return ENDED_NOT_NARROWED;
}

static void planted(const char *what, double shift, double sd, size_t n, size_t max_trials,
		    size_t per_look, size_t reps, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t count[4] = { 0 }, steps = 0, skipped = 0;
	reps = scaled(reps);
	gsl_rng_set(rng, seed);
	for (size_t r = 0; r < reps; r++) {
		struct history h = { .n = n, .planted = gsl_rng_uniform_int(rng, n), .shift = shift,
				     .sd = sd, .max_trials = max_trials, .skips = 2,
				     .per_look = per_look, .alpha = ALPHA };
		struct bisect_result res;
		bisection(rng, &h, &res);
		count[ending_of(&h, &res)]++;
		steps += res.steps;
		skipped += res.skipped;
		bisect_range_free(&res.range);
	}
	double wrong = (double)count[ENDED_WRONG] / (double)reps;
	printf("bisect, %s: x%.2f at sd %.2f, %zu candidates, at most %zu trials a step, a look every "
	       "%zu, K = %u, alpha_s %.4f, %zu bisections (seed %lu): right %.3f, wrong commit %.4f "
	       "(bound %.4f), not narrowed %.3f, endpoints not different %.3f; %.2f steps and %.2f "
	       "skips a bisection\n", what, shift, sd, n, max_trials, per_look, bisect_max_steps(n, 2),
	       bisect_step_alpha(ALPHA, bisect_max_steps(n, 2)), reps, seed,
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
	/* the integration test's case: far above the noise, few trials, -j 2 */
	planted("clear change", 3.0, 0.2, 6, 6, 2, 1000, 23);
	planted("clear change", 3.0, 0.2, 64, 8, 1, 300, 24);
}

static void a_change_near_the_noise_names_no_wrong_commit(void **state)
{
	(void)state;
	/* steps often undecided: skips, stops short, and still few wrong names */
	planted("change near the noise", 1.25, 0.2, 8, 8, 1, 1000, 25);
	planted("change near the noise", 1.15, 0.2, 16, 12, 1, 500, 26);
}

/* How many of REPS no-change histories have an endpoint check that says
 * good and bad differ (the bisection goes on), at ALPHA over looks
 * 3..MAX_TRIALS. */
static size_t no_change(double alpha, size_t max_trials, size_t reps, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t went_on = 0;
	gsl_rng_set(rng, seed);
	for (size_t r = 0; r < reps; r++) {
		struct history h = { .n = 6, .planted = 6, .shift = 1.0, .sd = 0.2,
				     .max_trials = max_trials, .skips = 2, .per_look = 2,
				     .alpha = alpha };
		struct bisect_result res;
		bisection(rng, &h, &res);
		went_on += res.end != BISECT_END_NO_DIFFERENCE;
		bisect_range_free(&res.range);
	}
	gsl_rng_free(rng);
	double rate = (double)went_on / (double)reps;
	printf("bisect, no change, alpha %.4g, endpoints at looks 3..%zu, %zu checks (seed %lu): said to "
	       "differ %.5f (%zu; bound %.5f)\n", alpha, max_trials, reps, seed, rate, went_on,
	       alpha + tol(alpha, reps));
	return went_on;
}

static void no_change_stops_at_the_endpoints(void **state)
{
	(void)state;
	const size_t reps = scaled(2000), sizes[] = { 4, 6, 12 };
	for (size_t s = 0; s < 3; s++)
		assert_true((double)no_change(ALPHA, sizes[s], reps, 40 + s) / (double)reps <=
			    ALPHA + tol(ALPHA, reps));
}

/* bisect.sh's no-change case (--alpha 0.0005, --max-trials 4): it fails
 * when the check goes on. The exact upper bound on its rate must be at
 * most 1 in 1000, the false failures it may have. */
static void the_integration_tests_no_change_case_fails_under_1_in_1000(void **state)
{
	(void)state;
	const size_t reps = scaled(200000);
	size_t went_on = no_change(0.0005, 4, reps, 47);
	printf("bisect.sh's no-change case: upper bound %.5f\n", upper_bound(went_on, reps));
	assert_true(upper_bound(went_on, reps) <= 0.001);
}

/* bisect.sh's planted case: commit 4 of 6 candidates (index 3), --alpha
 * 0.005 (alpha_s 0.001), at most 8 trials a step, -j 2. In its runs bad's
 * median round trip was 26 and 84 times good's, the sd of a group's logs
 * 0.09 to 0.24: simulated at x10 and sd 0.3, both on the hard side. The
 * test fails when the bisection does not name commit 4. (At alpha 0.05 and
 * 6 trials, its settings before, this was 0.007: a good-like step's false
 * rejection against good, about alpha_s, skips commit 3 and leaves commit 4
 * unnamed.) */
static void the_integration_tests_planted_case_fails_under_1_in_1000(void **state)
{
	(void)state;
	const size_t reps = scaled(60000);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t missed = 0, steps = 0, fewest = 99, most = 0;
	gsl_rng_set(rng, 48);
	for (size_t r = 0; r < reps; r++) {
		struct history h = { .n = 6, .planted = 3, .shift = 10.0, .sd = 0.3, .max_trials = 8,
				     .skips = 2, .per_look = 2, .alpha = 0.005 };
		struct bisect_result res;
		bisection(rng, &h, &res);
		if (ending_of(&h, &res) != ENDED_RIGHT) {
			missed++;
		} else {
			steps += res.steps;
			fewest = res.steps < fewest ? res.steps : fewest;
			most = res.steps > most ? res.steps : most;
		}
		bisect_range_free(&res.range);
	}
	gsl_rng_free(rng);
	double rate = (double)missed / (double)reps;
	printf("bisect.sh's planted case: x10 at sd 0.3, alpha 0.005, at most 8 trials, %zu bisections (seed 48): commit 4 not named "
	       "%.5f (%zu; upper bound %.5f); named in %zu to %zu steps, %.2f on average\n", reps, rate,
	       missed, upper_bound(missed, reps), fewest, most,
	       (double)steps / (double)(reps - missed));
	assert_true(upper_bound(missed, reps) <= 0.001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_clear_change_is_named_right),
		cmocka_unit_test(a_change_near_the_noise_names_no_wrong_commit),
		cmocka_unit_test(no_change_stops_at_the_endpoints),
		cmocka_unit_test(the_integration_tests_no_change_case_fails_under_1_in_1000),
		cmocka_unit_test(the_integration_tests_planted_case_fails_under_1_in_1000),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
