/* compare_types.h - the comparison's data: groups, metrics, options, rows
 * and the table (what compare.h builds and writes, and what compare_row.h
 * computes one row of). Types only, so that both can include them. */
#ifndef OOMLAB_COMPARE_TYPES_H
#define OOMLAB_COMPARE_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "compare_verdict.h"
#include "metric.h"
#include "analysis/stats/stats.h"

struct compare_group {
	const char *label;	/* "stock", "stock#2" */
	const char *variant;	/* "stock"; NULL: the label up to its '#' */
	const double *values;	/* one finite value per trial that counts */
	size_t n;
	size_t n_other;		/* trials that ended otherwise (no value) */
};

/* An equivalence margin: VALUE percent of the baseline's centre when
 * RELATIVE, else VALUE in the unit of the difference (the metric's unit;
 * percentage points for shares). NAN: none. */
struct compare_margin {
	double value;
	bool relative;
};

struct compare_metric {
	struct metric_def def;	/* see metric_resolve() */
	struct compare_margin margin;	/* value NAN: the options' default */
	/* p from Student's t (Welch df) instead of the permutation test, for
	 * the log-means and means methods; ignored for shares */
	bool parametric;
	const struct compare_group *groups;
	size_t n_groups;
};

struct compare_options {
	const char *baseline;	/* variant name; NULL: first group's variant */
	double alpha;		/* family-wise error of the table; 0.05 */
	double power;		/* for the minimum detectable effect; 0.8 */
	double ci_level;	/* the interval shown; 0.95 */
	struct compare_margin margin;	/* default equivalence margin; 2% */
	struct stats_permutation perm;	/* seed, exact limit, resamples */
	size_t min_trials;	/* fewer on a side: inconclusive; 3 */
	/* Sequential design: looks after every round from min_trials to
	 * seq_max trials a side; 0 for one fixed look. */
	size_t seq_max;
	/* Gatekeeping: the metric whose rows are tested first (Holm at alpha
	 * over its rows, family F1); the other rows (F2) are tested, by Holm
	 * at alpha, only when every F1 row was rejected, and their p_adj is
	 * at least the largest of F1's. NULL: one Holm family over the table. */
	const char *primary;
};

enum compare_method {
	COMPARE_NONE,		/* too few trials: nothing was tested */
	COMPARE_LOG_MEANS,
	COMPARE_MEANS,
	COMPARE_SHARES,
};

/* What diff, its intervals, the margin, MDE and noise are in. */
enum compare_scale {
	SCALE_PERCENT,		/* percent of the baseline's centre */
	SCALE_UNIT,		/* the metric's unit */
	SCALE_POINTS,		/* percentage points of a share */
};

struct compare_side {
	const char *variant;	/* points into the table */
	size_t n, n_other;
	double centre;		/* what the method compares: geometric mean,
				 * mean or share; NAN when undefined */
	double median, mean, sd, iqr;	/* NAN when undefined */
	size_t yes;		/* shares: trials with the outcome/event */
};

struct compare_metric_info {
	char *name, *unit;
	enum metric_kind kind;
	enum metric_better better;
	enum compare_method method;	/* COMPARE_NONE when no row could test */
	bool parametric;	/* its p from Student's t (compare_metric_parametric) */
	struct compare_margin margin;	/* as given (or the default) */
	struct compare_side base;
};

struct compare_row {
	size_t metric;		/* index into compare_table.metrics */
	struct compare_side base, var;
	enum compare_method method;
	bool parametric;	/* p from Student's t with the Welch df, not permutations */
	enum compare_scale scale;
	double diff, ci_lo, ci_hi;	/* ci_level interval */
	double eq_lo, eq_hi;	/* the interval the equivalence test used */
	double margin;		/* in the row's scale; NAN when none applies */
	bool exact;		/* p from the exact permutation/Fisher distribution
				 * (false for a parametric row) */
	int direction;		/* -1, 0, +1: variant lower/same/higher */
	double p, p_adj;	/* NAN when not tested */
	double level;		/* nominal level of the first Holm step (MDE's) */
	double mde;		/* in the row's scale; INFINITY: nothing detectable */
	double noise;		/* NAN without A/A groups */
	bool within_noise;	/* |diff| < noise */
	enum compare_verdict verdict;
	/* equivalent, and the ci_level interval excludes 0: a change the
	 * trials did find, smaller than the margin (said with the verdict, so
	 * that "equivalent" is not read as "no change") */
	bool changed_inside_margin;
	const char *why;	/* static reason for inconclusive/not detected, or NULL */
	/* what the MDE is computed from (methods with a t statistic) */
	double se, df;
};

/* The guest clock every group of a table ran on (trial.json
 * environment.clock); all NULL when the table was built without one. */
struct compare_clock {
	char *name;		/* "realtime", "icount" */
	char *settings;		/* "shift=0,sleep=off,align=off", "" */
	char *meaning;		/* "guest time counts instructions ...", or NULL */
	unsigned trials_at_once;	/* the most trials any of them ran beside; 0, 1: one */
};

struct compare_table {
	char *baseline;
	char *primary;		/* opts.primary's copy, or NULL */
	struct compare_clock clock;	/* set by compare_family_build() */
	struct compare_options opts;
	struct compare_metric_info *metrics;
	size_t n_metrics;
	/* grouped by metric, in compare_order.h's order: the primary's first,
	 * the selftest cases newly failing, then newly passing, then the
	 * input's order (the metrics array too) */
	struct compare_row *rows;
	size_t n_rows;
	size_t n_tests;		/* p-values in the Holm family (both, with a primary) */
	/* With opts.primary: the tests of the primary's family (F1) and
	 * whether every F1 row was rejected, so that the others were tested. */
	size_t n_primary_tests;
	bool gate_open;
	size_t look_n;		/* sequential: trials a side at this look */
	bool has_noise;		/* some row had A/A groups */
	/* Lines the caller adds to the notes, about the run rather than a row
	 * (compare_family: a debug group's pressure against its plain twin's). */
	char **context_notes;	/* malloc'd lines, freed with the table */
	size_t n_context_notes;
};

#endif
