/* compare_order.c - the order a table tells its rows in (compare_order.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare_order.h"
#include "compare_row.h"

enum compare_rank compare_row_rank(const struct compare_table *t, const struct compare_row *row)
{
	if (compare_row_primary(t, row))
		return COMPARE_RANK_PRIMARY;
	if (!metric_selftest_case(t->metrics[row->metric].name))
		return COMPARE_RANK_OTHER;
	/* a case is an outcome, higher is better (metric.c): worse is a
	 * passing share significantly below the baseline's */
	switch (row->verdict) {
	case VERDICT_WORSE:  return COMPARE_RANK_FAILING;
	case VERDICT_BETTER: return COMPARE_RANK_PASSING;
	default:             return COMPARE_RANK_OTHER;
	}
}

const char *compare_rank_heading(enum compare_rank rank)
{
	switch (rank) {
	case COMPARE_RANK_FAILING: return "newly failing";
	case COMPARE_RANK_PASSING: return "newly passing";
	default:                   return NULL;
	}
}

/* The first rank of metric M's rows; a metric without rows is other. */
static enum compare_rank metric_rank(const struct compare_table *t, size_t m)
{
	enum compare_rank rank = COMPARE_RANK_OTHER;

	for (size_t i = 0; i < t->n_rows; i++) {
		enum compare_rank r = t->rows[i].metric == m ? compare_row_rank(t, &t->rows[i])
							     : COMPARE_RANK_OTHER;

		if (r < rank)
			rank = r;
	}
	return rank;
}

int compare_table_order(struct compare_table *t)
{
	size_t n_m = t->n_metrics ? t->n_metrics : 1, n_r = t->n_rows ? t->n_rows : 1;
	struct compare_metric_info *metrics = malloc(n_m * sizeof(*metrics));
	struct compare_row *rows = malloc(n_r * sizeof(*rows));
	enum compare_rank *rank = malloc(n_m * sizeof(*rank));
	size_t k = 0, j = 0;

	if (!metrics || !rows || !rank) {
		free(metrics);
		free(rows);
		free(rank);
		return -ENOMEM;
	}
	for (size_t m = 0; m < t->n_metrics; m++)
		rank[m] = metric_rank(t, m);
	/* stable: rank by rank, each in the order the table had */
	for (int r = 0; r < COMPARE_RANKS; r++)
		for (size_t m = 0; m < t->n_metrics; m++) {
			if (rank[m] != (enum compare_rank)r)
				continue;
			for (size_t i = 0; i < t->n_rows; i++)
				if (t->rows[i].metric == m) {
					rows[j] = t->rows[i];
					rows[j++].metric = k;
				}
			metrics[k++] = t->metrics[m];
		}
	/* the arrays hold the same entries (their strings move with them) */
	memcpy(t->metrics, metrics, t->n_metrics * sizeof(*metrics));
	memcpy(t->rows, rows, t->n_rows * sizeof(*rows));
	free(metrics);
	free(rows);
	free(rank);
	return 0;
}
