/* compare_order.h - internal: the order a comparison table tells its rows
 * in, the one place that decides it.
 *
 * A row's rank, first to last:
 *   primary  a row of the primary metric (compare.h): what gates comes first
 *   failing  a kernel selftest's case (metric_selftest_case) the variant
 *            fails more often than the baseline: its verdict is worse
 *   passing  such a case it passes more often: its verdict is better
 *   other    every other row
 * The ranks only order what is shown: verdicts and statistics are computed
 * before and do not depend on it.
 *
 * The table (compare_table_order): each metric at its rows' first rank (a
 * case failing for one variant and not another comes with the failing
 * ones), the input's order within a rank; a metric's rows stay together,
 * in the variants' order. A variant's summary line (compare_summary.h)
 * says its own rows by their rank, so that every variant's newly failing
 * cases open its line whatever the others do. */
#ifndef OOMLAB_COMPARE_ORDER_H
#define OOMLAB_COMPARE_ORDER_H

#include "compare_types.h"

enum compare_rank {
	COMPARE_RANK_PRIMARY,
	COMPARE_RANK_FAILING,
	COMPARE_RANK_PASSING,
	COMPARE_RANK_OTHER,
	COMPARE_RANKS		/* not a rank: how many there are */
};

enum compare_rank compare_row_rank(const struct compare_table *table,
				   const struct compare_row *row);

/* What a summary line says before the rows of RANK, "newly failing",
 * "newly passing", or NULL for a rank said without a heading. */
const char *compare_rank_heading(enum compare_rank rank);

/* Puts TABLE's metrics and rows in the order above (row.metric follows).
 * Returns 0 or -ENOMEM (the table then as it was). */
int compare_table_order(struct compare_table *table);

#endif
