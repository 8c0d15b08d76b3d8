/* design-check.c - does a run's design leave any row decidable? */
#include "design-check.h"

#include <string.h>

#include "analysis/compare/compare.h"

/* The rows of one metric: a row per variant other than the baseline (an
 * A/A twin "<baseline>#2" is not a row). */
static size_t rows_per_metric(const struct experiment *e, const struct strlist *labels)
{
	size_t rows = 0;

	for (size_t i = 0; i < labels->n; i++)
		rows += !strchr(labels->items[i], '#') && strcmp(labels->items[i], e->baseline);
	return rows;
}

/* True when the headline family may hold more metrics than it names: a
 * glob, or no headline (every metric that varies). */
static bool open_ended(const struct experiment *e)
{
	for (size_t i = 0; i < e->metrics.n; i++)
		if (strpbrk(e->metrics.items[i], "*?["))
			return true;
	return !e->metrics.n;
}

static void describe(struct strbuf *why, const struct experiment *e, const struct stats_design *d,
		     const struct stats_design_answer *a)
{
	bool seq = d->seq_first > 0;

	strbuf_addstr(why, "this design cannot decide any row ");
	compare_verdict_list(why, VERDICTS_SIGNIFICANT, false);
	strbuf_addstr(why, ": ");
	if (d->n < d->min_trials)
		strbuf_addf(why, "%zu trial%s a side test%s nothing (a test needs %zu)", d->n,
			    d->n == 1 ? "" : "s", d->n == 1 ? "s" : "", d->min_trials);
	else
		strbuf_addf(why, "%s%zu trials a side give p >= %.2g, the first Holm level over %s%zu "
			    "%srow%s is %.2g%s", seq ? "at most " : "", d->n, a->min_p,
			    e->primary || !open_ended(e) ? "" : "at least ", d->rows,
			    e->primary ? "primary " : "", d->rows == 1 ? "" : "s", a->level,
			    seq ? " at the last look" : "");
	if (a->smallest_n)
		strbuf_addf(why, "; the smallest design that could: --%s %zu",
			    seq ? "max-trials" : "trials", a->smallest_n);
	else
		strbuf_addstr(why, "; no design up to 1000 trials a side could");
}

int design_check(const struct experiment *e, const struct strlist *labels, struct strbuf *why)
{
	struct compare_options o;
	struct stats_design_answer a;
	size_t per = rows_per_metric(e, labels);
	size_t metrics = e->primary ? 1 : e->metrics.n ? e->metrics.n : 1;
	/* rows of Student's t have no floor on p */
	size_t parametric = experiment_parametric_metrics(e);

	compare_options_default(&o);
	struct stats_design d = {
		.n = e->until_decided ? e->max_trials : e->trials,
		.rows = per * metrics,
		.parametric = per * (parametric < metrics ? parametric : metrics),
		.alpha = o.alpha,
		.seq_first = e->until_decided ? SEQUENTIAL_FIRST_LOOK : 0,
		.min_trials = o.min_trials,
		.perm = o.perm,
	};
	if (!per || stats_design_check(&d, &a))
		return 0;
	describe(why, e, &d, &a);
	return 1;
}
