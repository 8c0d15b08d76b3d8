/* compare_row.h - internal: the statistics of one comparison row. */
#ifndef OOMLAB_COMPARE_ROW_H
#define OOMLAB_COMPARE_ROW_H

#include "compare.h"

struct compare_row_input {
	const char *metric;		/* name, mixed into the bootstrap seed */
	enum metric_kind kind;
	enum stats_centre centre;
	const struct compare_group *base, *var;	/* NULL: no trials */
	const struct compare_group *base_twin, *var_twin;	/* A/A, or NULL */
};

/* The centre a metric kind is compared by. */
enum stats_centre compare_centre_for(enum metric_kind kind);

void compare_side_fill(struct compare_side *side, const struct compare_group *group,
		       const char *variant);

/* Everything but p_adj and the verdict. Returns 0 or -ENOMEM. */
int compare_row_compute(struct compare_row *row, const struct compare_row_input *in,
			const struct compare_options *opts);

/* Sets the verdict from p_adj, direction and the metric's better side. */
void compare_row_decide(struct compare_row *row, enum metric_better better,
			double alpha);

#endif
