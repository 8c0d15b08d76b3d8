/* compare.h - the comparison table behind `lab run`, `lab compare` and
 * `lab report`.
 *
 * Input: per metric, its definition, its equivalence margin and one group
 * of trial values per group label. Several groups may belong to one
 * variant ("stock" and "stock#2"): the first is the one compared, the
 * second is its A/A twin and only measures the noise floor.
 *
 * The trial is the unit: every value is one boot's figure. Per metric one
 * method, chosen from its kind and from the pooled values (so the choice
 * cannot favour either side):
 *   log means  times, throughputs, sizes, ratios with every value > 0:
 *              the ratio of geometric means, Welch's t on the logs, its
 *              p-value from the permutation distribution
 *   means      counts, and the above when a value is <= 0: the ratio of
 *              means (Fieller's interval), or their difference in the unit
 *              when the baseline mean is 0 or not clearly above it; the
 *              permutation test of Welch's t on the values
 *   shares     outcomes (ok or not) and rare events (trials with at least
 *              one OOM kill, error, ...): the difference of the shares in
 *              percentage points, Newcombe's interval, Fisher's exact test
 *
 * Output: one row per metric per non-baseline variant with n, centres and
 * spreads, the difference with its interval, p and Holm's p_adj over the
 * table (the family), the smallest difference these trials could detect
 * (MDE, at the family's first Holm level), the A/A noise, and a verdict:
 *   better/worse  p_adj < alpha, in the metric's direction
 *   differs       p_adj < alpha for a metric with no better direction
 *   equivalent    the (1 - 2 alpha) interval lies inside +-margin (TOST)
 *   not detected  neither; the MDE says what could have been missed
 *   inconclusive  too few trials, no test possible, or no difference at
 *                 all could have been detected at this level
 * (their words, and what each settles and shows: compare_verdict.h)
 *
 * With a sequential design (opts.seq_max > 0) the table is one look of a
 * run that looks after every round: the levels become the look's
 * O'Brien-Fleming boundaries (stats_sequential_level), p_adj is scaled so
 * that p_adj < alpha still means significant, and repeated looks do not
 * inflate the error rate.
 *
 * The table's order, which every format follows, is compare_order.h's:
 * the primary metric's rows first, then the kernel selftests' cases
 * newly failing (worse), then those newly passing (better), then the rest
 * in the input's order. It is set once the verdicts are, and changes none.
 *
 * With a primary metric (opts.primary) its metric and rows come first in
 * the table, so that every format tells first what gates, and the table is
 * judged by serial gatekeeping:
 * Holm over the primary's rows first, at the full alpha;
 * Holm over the other rows, at the full alpha, only when every primary row
 * was rejected (the gate is open). An other row's p_adj is the larger of
 * its Holm p_adj within its family and the largest primary p_adj, so that
 * p_adj < alpha still means rejected and the family-wise error stays at
 * most alpha (the closed testing principle). The MDE of a row is at the
 * first Holm level of its own family.
 *
 * A metric marked parametric (compare_metric.parametric; the experiment's
 * `parametric` key) gets, for the log-means and means methods, its p-value
 * from Student's t with the Welch df (stats_welch_test) instead of the
 * permutation distribution, and its MDE at the level itself (the t test
 * has no steps). Shares are never parametric.
 *
 * The table keeps its own copies of all strings; the input may be freed
 * right after compare_table_build().
 */
#ifndef OOMLAB_COMPARE_H
#define OOMLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare_types.h"

void compare_options_default(struct compare_options *opts);

/* Returns 0, -EINVAL (bad options, a non-finite value) or -ENOMEM.
 * On failure *TABLE is left empty (safe to free). */
int compare_table_build(const struct compare_metric *metrics, size_t n_metrics,
			const struct compare_options *opts,
			struct compare_table *table);
void compare_table_free(struct compare_table *table);

/* compare_method_for(): compare_row.h */

/* compare_row_primary(): compare_row.h */

/* The stopping rule of a sequential run, one look: the rows it waits for
 * are the primary's when the table has one (the others are judged at the
 * look where it stops, each at that look's boundary), else every row.
 * True when each of them is decided; *DECIDED and *ROWS count them. */
bool compare_table_decided(const struct compare_table *table, size_t *decided, size_t *rows);

/* The variant a group belongs to: .variant, or .label up to a '#'.
 * Writes at most SIZE bytes into BUF and returns BUF. */
const char *compare_group_variant(const struct compare_group *group,
				  char *buf, size_t size);

/* "permutation t (logs)", "permutation t", "Fisher exact", "none" */
const char *compare_method_test(enum compare_method method);
/* The test a metric's rows get: compare_method_test(), or for a parametric
 * metric of the log-means or means method "Welch t (logs)", "Welch t". */
const char *compare_test_name(enum compare_method method, bool parametric);
/* True when METRIC's rows take their p from Student's t: marked
 * parametric, and its method is log-means or means. */
bool compare_metric_parametric(const struct compare_metric *metric);
/* "log-means", "means", "shares", "none": the JSON/CSV key */
const char *compare_method_key(enum compare_method method);
/* "%", "unit", "pp" */
const char *compare_scale_key(enum compare_scale scale);
/* What a side's centre is: "geomean", "mean", "share", "-" */
const char *compare_centre_name(enum compare_method method);

/* Parses an equivalence margin: "2%" (of the baseline's centre), "0.5" (in
 * the unit of the difference: the metric's unit, or percentage points for
 * shares) or "10pp" (the same, saying so). Blanks around are allowed.
 * Returns 0, or -EINVAL for anything else (negative, not a number, another
 * suffix). */
int compare_margin_parse(const char *text, struct compare_margin *margin);

/* Formatters; all return 0 or -EIO when writing failed.
 * text:     the default for terminals: names are never cut; a row whose
 *           names do not fit 80 columns puts them on lines of their own.
 *           COLOUR adds ANSI colours to the verdicts (the caller decides: a
 *           terminal and no NO_COLOR); colour codes are the only bytes not
 *           counted. A legend under the table says what each word means.
 * markdown: one GitHub table, the legend below it.
 * json:     one object {"baseline", "options", "metrics", "rows"}; numbers
 *           that are undefined are null.
 * csv:      RFC 4180: a header line, CRLF line ends, fields quoted when they
 *           hold a comma, quote or line break; undefined numbers empty.
 * tap:      TAP version 13 as kselftest's readers take it: the plan, the
 *           summary lines as "#" diagnostics, then one test point per row in
 *           the table's order: "ok N - VARIANT METRIC: CLAIM; diff D [CI],
 *           p-adj P", "not ok" when the row's verdict is in FAIL_ON (a
 *           compare_fail_on.h mask; 0: every row ok). '#' and '\' in names
 *           are escaped with '\', control characters are '?'.
 * junit:    one JUnit XML <testsuite> (in <testsuites>), one <testcase> per
 *           row (classname the variant, name the metric), a <failure> for a
 *           row whose verdict is in FAIL_ON; text and attributes escaped,
 *           control characters XML 1.0 cannot carry as '?'. */
int compare_format_text(FILE *out, const struct compare_table *table, bool colour);
int compare_format_markdown(FILE *out, const struct compare_table *table);
int compare_format_json(FILE *out, const struct compare_table *table);
int compare_format_csv(FILE *out, const struct compare_table *table);
int compare_format_tap(FILE *out, const struct compare_table *table, unsigned fail_on);
int compare_format_junit(FILE *out, const struct compare_table *table, unsigned fail_on);
/* compact:  one line per metric, the kernels as columns (as mmtests' compare
 *           table): the baseline's centre, then each variant's centre,
 *           difference and verdict word. The text format begins with it when
 *           the table has two or more variants besides the baseline. */
int compare_format_compact(FILE *out, const struct compare_table *table);
/* The variants the table's rows compare with the baseline. */
size_t compare_table_variants(const struct compare_table *table);

#endif
