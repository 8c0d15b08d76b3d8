/* compare.h - the comparison table behind `lab compare`.
 *
 * Input: per metric, its definition and one group of trial values per
 * group label. Several groups may belong to one variant ("stock" and
 * "stock#2"): the first is the one compared, the second is its A/A twin and
 * only measures the noise floor.
 *
 * Output: one row per metric per non-baseline variant with
 *   n            trials that count (and how many ended otherwise), per side
 *   centre       median and mean; the difference uses the metric's centre
 *                (median for times/throughputs/sizes/ratios, mean for
 *                counts and outcomes)
 *   spread       IQR and sd
 *   diff         percent of the baseline centre, with a seeded bootstrap CI;
 *                in the metric's unit instead (.absolute) when the baseline
 *                centre is 0, or when a resample of it is 0 (percent would be
 *                inf/nan)
 *   p, p_adj     the metric kind's test, Holm-adjusted over the whole table
 *   mde          smallest difference these n could detect (alpha, power)
 *   noise        A/A noise: the larger absolute end of the A/A difference's
 *                CI (of the baseline and/or the variant, whichever is larger)
 *   verdict      better / worse / differs (neither-better metrics) /
 *                no difference / inconclusive (too few trials, no test)
 *
 * Usage:
 *   struct compare_options opts;
 *   struct compare_table table;
 *   compare_options_default(&opts);
 *   opts.baseline = "stock";
 *   if (compare_table_build(metrics, n_metrics, &opts, &table) == 0) {
 *           compare_format_text(stdout, &table, use_colour);
 *           compare_table_free(&table);
 *   }
 * The table keeps its own copies of all strings; the input may be freed
 * right after compare_table_build().
 */
#ifndef OOMLAB_COMPARE_H
#define OOMLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "metric.h"
#include "analysis/stats/stats.h"

struct compare_group {
	const char *label;	/* "stock", "stock#2" */
	const char *variant;	/* "stock"; NULL: the label up to its '#' */
	const double *values;	/* one finite value per trial that counts */
	size_t n;
	size_t n_other;		/* trials that ended otherwise (no value) */
};

struct compare_metric {
	struct metric_def def;	/* see metric_resolve() */
	const struct compare_group *groups;
	size_t n_groups;
};

struct compare_options {
	const char *baseline;	/* variant name; NULL: first group's variant */
	double alpha;		/* significance after Holm; 0.05 */
	double power;		/* for the minimum detectable effect; 0.8 */
	double ci_level;	/* 0.95 */
	size_t iterations;	/* bootstrap resamples; 2000 */
	unsigned long seed;	/* bootstrap seed; same seed, same table */
	size_t min_trials;	/* fewer on a side: inconclusive; 3 */
};

enum compare_test {
	COMPARE_TEST_NONE,	/* too few trials: nothing was tested */
	COMPARE_TEST_RANK,	/* Mann-Whitney U */
	COMPARE_TEST_RATE,	/* Poisson rates, conditional binomial */
	COMPARE_TEST_PROPORTION,	/* Fisher's exact, ok vs not ok */
};

enum compare_verdict {
	VERDICT_BETTER,
	VERDICT_WORSE,
	VERDICT_DIFFERS,	/* significant, but the metric has no "better" */
	VERDICT_NO_DIFFERENCE,
	VERDICT_INCONCLUSIVE,
};

struct compare_side {
	const char *variant;	/* points into the table */
	size_t n, n_other;
	double median, mean, sd, iqr;	/* NAN when undefined */
};

struct compare_metric_info {
	char *name, *unit;
	enum metric_kind kind;
	enum metric_better better;
	enum stats_centre centre;	/* what the difference compares */
	struct compare_side base;
};

struct compare_row {
	size_t metric;		/* index into compare_table.metrics */
	struct compare_side base, var;
	bool absolute;		/* diff, CI, mde, noise in the unit, not % */
	double diff, ci_lo, ci_hi;
	enum compare_test test;
	bool exact;		/* p-value from an exact distribution */
	int direction;		/* -1, 0, +1: variant lower/same/higher (test's view) */
	double p, p_adj;	/* NAN when not tested */
	double mde;
	double noise;		/* NAN without A/A groups */
	bool within_noise;	/* |diff| < noise */
	enum compare_verdict verdict;
	const char *why;	/* static reason when inconclusive, else NULL */
};

struct compare_table {
	char *baseline;
	struct compare_options opts;
	struct compare_metric_info *metrics;
	size_t n_metrics;
	struct compare_row *rows;	/* grouped by metric, in input order */
	size_t n_rows;
	size_t n_tests;		/* p-values in the Holm family */
	bool has_noise;		/* some row had A/A groups */
};

void compare_options_default(struct compare_options *opts);

/* Returns 0, -EINVAL (bad options, a non-finite value) or -ENOMEM.
 * On failure *TABLE is left empty (safe to free). */
int compare_table_build(const struct compare_metric *metrics, size_t n_metrics,
			const struct compare_options *opts,
			struct compare_table *table);
void compare_table_free(struct compare_table *table);

/* The variant a group belongs to: .variant, or .label up to a '#'.
 * Writes at most SIZE bytes into BUF and returns BUF. */
const char *compare_group_variant(const struct compare_group *group,
				  char *buf, size_t size);

/* Stable words, used by every format: "better", "worse", "differs",
 * "no difference", "inconclusive". */
const char *compare_verdict_word(enum compare_verdict verdict);
/* "Mann-Whitney U", "Poisson rate", "Fisher exact", "none" */
const char *compare_test_name(enum compare_test test);

/* Formatters; all return 0 or -EIO when writing failed.
 * text:     the default; every line fits 80 columns. COLOUR adds ANSI
 *           colours to the verdicts (the caller decides: a terminal and no
 *           NO_COLOR); colour codes are the only bytes not counted.
 * markdown: one GitHub table, notes below it.
 * json:     one object {"baseline", "options", "metrics", "rows"}; numbers
 *           that are undefined are null.
 * csv:      RFC 4180: a header line, CRLF line ends, fields quoted when they
 *           hold a comma, quote or line break; undefined numbers empty. */
int compare_format_text(FILE *out, const struct compare_table *table, bool colour);
int compare_format_markdown(FILE *out, const struct compare_table *table);
int compare_format_json(FILE *out, const struct compare_table *table);
int compare_format_csv(FILE *out, const struct compare_table *table);

#endif
