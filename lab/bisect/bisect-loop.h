/*
 * lab bisect's decision loop: the endpoint check's looks, then the steps
 * (the next candidate, its build, its looks, its mark), the skips and the
 * budget, up to the answer. One function for the command and for its
 * calibration (tests/unit/lab/bisect/test-bisect-calibration.c): where the trials
 * come from is a trial source, whose callbacks give a group's first N
 * trials. lab bisect's source brings run folders up to N rounds (lab run
 * --rounds N) and reads them; the calibration's draws seeded simulated
 * values. The loop judges (bisect-judge.h) and decides; the source hears
 * every look and step (to print and log them).
 */
#ifndef LAB_BISECT_LOOP_H
#define LAB_BISECT_LOOP_H

#include <stdbool.h>
#include <stddef.h>

#include "bisect-judge.h"
#include "bisect-plan.h"
#include "common/util.h"

struct bisect_design {
	struct bisect_metric metric;	/* its max_trials: the endpoint run's and a step's cap */
	size_t candidates;
	unsigned skips;		/* skipped steps the budget allows */
	double alpha;		/* the endpoint check's level; a wrong commit at most this often */
	size_t step_per_look;	/* a step's trials between its looks (its trials at once) */
};

/* One step's answer. */
struct bisect_step {
	enum bisect_mark mark;
	char why[200];		/* a skip's reason, or the decision */
	size_t trials;		/* the midpoint's trials, counted or not */
	struct bisect_look look;	/* the last look (none for a build failure) */
};

/* A step taken before (a resumed bisection's), marked again as it was. */
struct bisect_prior {
	size_t index;
	enum bisect_mark mark;
};

struct bisect_source {
	void *ctx;
	/* good's and bad's first N trials (the endpoint run's first N rounds) */
	int (*endpoints)(void *ctx, size_t n, struct bisect_trials *good, struct bisect_trials *bad,
			 struct strbuf *err);
	/* candidate I, step STEP's: 0 built; 1 it does not build (WHY says why); -1 an error */
	int (*build)(void *ctx, size_t step, size_t i, struct strbuf *why, struct strbuf *err);
	/* candidate I's first N trials in step STEP */
	int (*trials)(void *ctx, size_t step, size_t i, size_t n, struct bisect_trials *m,
		      struct strbuf *err);
	/* what the loop saw and decided; each may be NULL. FINAL: the check's decision. */
	void (*endpoint_look)(void *ctx, const struct bisect_endpoint_look *look, bool final);
	void (*step_look)(void *ctx, size_t step, size_t i, const struct bisect_look *look);
	void (*stepped)(void *ctx, size_t step, size_t i, const struct bisect_step *s,
			const struct bisect_range *r);
};

enum bisect_end {
	BISECT_END_NO_DIFFERENCE,	/* good and bad do not differ: no step */
	BISECT_END_FOUND,		/* range.first_bad is the first bad commit */
	BISECT_END_ONLY_SKIPPED,	/* only skipped candidates are left to test */
	BISECT_END_BUDGET_SPENT,	/* K steps taken, more than one candidate left */
};

struct bisect_result {
	enum bisect_end end;
	struct bisect_endpoint_look endpoints;	/* the check's decision */
	struct bisect_range range;	/* the candidates' marks at the end (bisect_range_free) */
	unsigned max_steps;	/* K */
	double step_alpha;
	size_t steps, skipped;	/* steps taken (the prior ones too), of them skipped */
};

/* Runs the bisection D from the N_PRIOR steps taken before; 0 with *RES,
 * or -1 with ERR when the source failed. */
int bisect_loop_run(const struct bisect_design *d, const struct bisect_prior *prior, size_t n_prior,
		    const struct bisect_source *src, struct bisect_result *res, struct strbuf *err);

#endif
