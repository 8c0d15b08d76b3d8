/*
 * lab bisect's readings of its runs, through the one verdict engine
 * (compare_family_build): the endpoint check's verdict on the metric, and
 * a step's two tests at a look (the midpoint's trials against good's and
 * against bad's, all taken from the run folders as lab compare reads them).
 */
#ifndef LAB_BISECT_JUDGE_H
#define LAB_BISECT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "bisect-plan.h"
#include "common/util.h"

/* The endpoint run's row of BAD against GOOD on METRIC: *DIFFERS when its
 * verdict is significant (better, worse, differs), *BAD_DIR the sign of bad
 * - good, *VERDICT its word. -1 with ERR when the run cannot be read or has
 * no such row. */
int bisect_judge_endpoints(const char *run, const char *good, const char *bad, const char *metric,
			   bool *differs, int *bad_dir, const char **verdict, struct strbuf *err);

/* One look of a step: LABEL's ok trials in STEP_RUN against GOOD's and
 * BAD's in ENDPOINT_RUN on METRIC. */
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
int bisect_judge_look(const char *endpoint_run, const char *step_run, const char *label,
		      const char *good, const char *bad, const char *metric, int bad_dir,
		      double step_alpha, size_t max_trials, struct bisect_look *look,
		      struct strbuf *err);

#endif
