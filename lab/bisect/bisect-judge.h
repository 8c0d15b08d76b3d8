/*
 * lab bisect's judgements, on trial values, through the engine every
 * comparison of the lab uses (compare_table_build, one row at a time): the
 * endpoint check's verdict at a look, and a step's two tests at a look
 * (the midpoint's trials against good's and against bad's). Where the
 * values come from (run folders, or a simulation) is the caller's: the
 * bisection's loop (bisect-loop.h) and its calibration judge alike.
 */
#ifndef LAB_BISECT_JUDGE_H
#define LAB_BISECT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare/compare_types.h"
#include "bisect-plan.h"

/* One group's trials at a look. */
struct bisect_trials {
	double *values;		/* the ok trials' values of the metric (malloc'd) */
	size_t n;
	size_t n_other;		/* trials that ended otherwise */
	size_t boot_failures;	/* of them, kernels that did not boot */
	char unit[24];		/* the metric's unit as the trials give it, or "" */
};
void bisect_trials_free(struct bisect_trials *t);

/* What every judgement of one bisection shares. */
struct bisect_metric {
	const char *name;
	bool parametric;	/* Student's t, as the experiment's `parametric` gives */
	struct compare_margin margin;	/* the experiment's equivalence margin; NAN: the default */
	size_t max_trials;	/* the last look, a side */
};

/* The endpoint check at one look: BAD against GOOD, the table of a
 * sequential run with METRIC its primary at level ALPHA (looks at
 * 3..max_trials a side), as lab run's looks judge it. */
struct bisect_endpoint_look {
	size_t n;		/* trials a side */
	enum compare_verdict verdict;
	bool decided;		/* the verdict settles it: the check stops here */
	bool differs;		/* significant, with a direction */
	int bad_dir;		/* the sign of bad - good */
	double p;
};
int bisect_judge_endpoints(const struct bisect_metric *m, double alpha, const struct bisect_trials *good,
			   const struct bisect_trials *bad, struct bisect_endpoint_look *look);
/* The table that look judges (its alpha, its look's boundary), to show it;
 * 0, or -1 when it cannot be built. compare_table_free() it. */
int bisect_endpoint_table(const struct bisect_metric *m, double alpha, const struct bisect_trials *good,
			  const struct bisect_trials *bad, struct compare_table *t);

/* One look of a step: the midpoint's trials M against GOOD's and BAD's,
 * each test at the look's O'Brien-Fleming boundary at STEP_ALPHA. */
struct bisect_look {
	size_t n;		/* the midpoint's trials that count (ok, with the metric) */
	size_t n_other;		/* its trials that ended otherwise */
	size_t boot_failures;	/* of them, kernels that did not boot */
	double p_good, p_bad;	/* NAN: no test (too few trials) */
	int dir_good, dir_bad;
	double diff_good;	/* m against good in the row's scale (% for times) */
	double level;		/* the look's boundary at alpha_s */
	enum bisect_call call;
};
int bisect_judge_look(const struct bisect_metric *m, const struct bisect_trials *good,
		      const struct bisect_trials *bad, const struct bisect_trials *mid, int bad_dir,
		      double step_alpha, struct bisect_look *look);

#endif
