/* compare_row.h - the statistics of one comparison row (internal to compare.c),
 * the method a metric takes, and whether a row is the primary metric's. */
#ifndef OOMLAB_COMPARE_ROW_H
#define OOMLAB_COMPARE_ROW_H

#include "compare_types.h"

struct compare_row_input {
	const char *metric;		/* name, mixed into the permutation seed */
	enum compare_method method;	/* the metric's, for every row */
	enum metric_kind kind;
	bool parametric;		/* p from Student's t (compare_metric_parametric) */
	struct compare_margin margin;
	const struct compare_group *base, *var;	/* NULL: no trials */
	const struct compare_group *base_twin, *var_twin;	/* A/A, or NULL */
};

/* The levels a row is judged at (compare.c derives them from alpha, the
 * family size and, in a sequential run, the look). */
struct compare_row_levels {
	double mde;		/* two-sided level of the first Holm step */
	double equivalence;	/* one-sided level of each of the two tests */
};

void compare_side_fill(struct compare_side *side, const struct compare_group *group,
		       const char *variant, enum compare_method method,
		       enum metric_kind kind);

/* True when both sides have enough trials for the method to test. */
bool compare_row_testable(const struct compare_row_input *in,
			  const struct compare_options *opts);

/* Everything but p_adj and the verdict. Returns 0 or -ENOMEM. */
int compare_row_compute(struct compare_row *row, const struct compare_row_input *in,
			const struct compare_options *opts,
			const struct compare_row_levels *levels);

/* True when ROW is one of the primary metric's (TABLE has one). */
bool compare_row_primary(const struct compare_table *table, const struct compare_row *row);

/* The method of a metric: from its kind and, for the log scale, whether
 * every value of every group is > 0 (pooled, so it favours no side). */
enum compare_method compare_method_for(const struct compare_metric *metric);

/* Sets the verdict from p_adj (already scaled to the look), the direction,
 * the metric's better side, the equivalence interval and the MDE; and
 * changed_inside_margin. */
void compare_row_decide(struct compare_row *row, enum metric_better better, double alpha);

#endif
