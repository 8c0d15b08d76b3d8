/* lab bisect's judgements on trial values (bisect-judge.h). */
#include "bisect-judge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare.h"
#include "analysis/metrics/metric_catalog.h"
#include "analysis/stats/stats.h"
#include "lab/run/experiment.h"

void bisect_trials_free(struct bisect_trials *t)
{
	free(t->values);
	memset(t, 0, sizeof(*t));
}

/* The table of VAR against BASE on M, with O's alpha, design and primary. */
static int table_of(const struct bisect_metric *m, const char *base_label, const struct bisect_trials *base,
		    const char *var_label, const struct bisect_trials *var, const struct compare_options *o,
		    struct compare_table *t)
{
	struct compare_group g[2] = {
		{ .label = base_label, .values = base->values, .n = base->n, .n_other = base->n_other },
		{ .label = var_label, .values = var->values, .n = var->n, .n_other = var->n_other },
	};
	struct compare_metric metric = { .groups = g, .n_groups = 2, .parametric = m->parametric,
					 .margin = m->margin };
	metric_catalog_resolve(m->name, *base->unit ? base->unit : var->unit, &metric.def);
	if (compare_table_build(&metric, 1, o, t) != 0 || t->n_rows != 1) {
		compare_table_free(t);
		return -1;
	}
	return 0;
}

/* The row of VAR against BASE on M, with O's alpha, design and primary. */
static int row_of(const struct bisect_metric *m, const char *base_label, const struct bisect_trials *base,
		  const char *var_label, const struct bisect_trials *var, const struct compare_options *o,
		  struct compare_row *row)
{
	struct compare_table t;
	if (table_of(m, base_label, base, var_label, var, o, &t) < 0)
		return -1;
	*row = t.rows[0];
	row->var.variant = row->base.variant = NULL;	/* the table's */
	row->why = NULL;
	compare_table_free(&t);
	return 0;
}

int bisect_endpoint_table(const struct bisect_metric *m, double alpha, const struct bisect_trials *good,
			  const struct bisect_trials *bad, struct compare_table *t)
{
	struct compare_options o;
	compare_options_default(&o);
	o.alpha = alpha;
	/* one look only (max_trials 3) is a fixed design */
	o.seq_max = m->max_trials > SEQUENTIAL_FIRST_LOOK ? m->max_trials : 0;
	o.primary = m->name;
	o.perm.seed = 1;
	return table_of(m, "good", good, "bad", bad, &o, t);
}

int bisect_judge_endpoints(const struct bisect_metric *m, double alpha, const struct bisect_trials *good,
			   const struct bisect_trials *bad, struct bisect_endpoint_look *look)
{
	struct compare_table t;
	memset(look, 0, sizeof(*look));
	if (bisect_endpoint_table(m, alpha, good, bad, &t) < 0)
		return -1;
	const struct compare_row *row = &t.rows[0];
	look->n = good->n < bad->n ? good->n : bad->n;
	look->verdict = row->verdict;
	look->decided = compare_verdict_decided(row->verdict);
	look->differs = compare_verdict_info(row->verdict)->significant && row->direction != 0;
	look->bad_dir = row->direction;
	look->p = row->p;
	compare_table_free(&t);
	return 0;
}

int bisect_judge_look(const struct bisect_metric *m, const struct bisect_trials *good,
		      const struct bisect_trials *bad, const struct bisect_trials *mid, int bad_dir,
		      double step_alpha, struct bisect_look *look)
{
	/* each test's raw p against the look's own boundary: no table design */
	struct compare_options o;
	compare_options_default(&o);
	o.perm.seed = 1;
	struct compare_row vs_good, vs_bad;
	memset(look, 0, sizeof(*look));
	look->n = mid->n;
	look->n_other = mid->n_other;
	look->boot_failures = mid->boot_failures;
	if (row_of(m, "good", good, "m", mid, &o, &vs_good) < 0 ||
	    row_of(m, "bad", bad, "m", mid, &o, &vs_bad) < 0)
		return -1;
	look->p_good = vs_good.p;
	look->dir_good = vs_good.direction;
	look->diff_good = vs_good.diff;
	look->p_bad = vs_bad.p;
	look->dir_bad = vs_bad.direction;
	/* the looks at 3, 4, ..., max_trials of the midpoint's trials */
	look->level = stats_sequential_level(step_alpha, look->n, SEQUENTIAL_FIRST_LOOK, m->max_trials);
	look->call = bisect_step_call(look->p_good, look->dir_good, look->p_bad, look->dir_bad, bad_dir,
				      look->level);
	return 0;
}
