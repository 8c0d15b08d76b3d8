/* compare.c - builds the comparison table: rows, Holm, verdicts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_row.h"

void compare_options_default(struct compare_options *opts)
{
	*opts = (struct compare_options){
		.baseline = NULL,
		.alpha = 0.05,
		.power = 0.8,
		.ci_level = 0.95,
		.iterations = 2000,
		.seed = 1,
		.min_trials = 3,
	};
}

const char *compare_verdict_word(enum compare_verdict verdict)
{
	switch (verdict) {
	case VERDICT_BETTER:        return "better";
	case VERDICT_WORSE:         return "worse";
	case VERDICT_DIFFERS:       return "differs";
	case VERDICT_NO_DIFFERENCE: return "no difference";
	case VERDICT_INCONCLUSIVE:  return "inconclusive";
	}
	return "?";
}

const char *compare_test_name(enum compare_test test)
{
	switch (test) {
	case COMPARE_TEST_NONE:       return "none";
	case COMPARE_TEST_RANK:       return "Mann-Whitney U";
	case COMPARE_TEST_RATE:       return "Poisson rate";
	case COMPARE_TEST_PROPORTION: return "Fisher exact";
	}
	return "?";
}

/* A group's variant as a (pointer, length) pair, without copying. */
static size_t variant_span(const struct compare_group *g, const char **start)
{
	if (g->variant) {
		*start = g->variant;
		return strlen(g->variant);
	}
	*start = g->label ? g->label : "";
	return strcspn(*start, "#");
}

const char *compare_group_variant(const struct compare_group *group,
				  char *buf, size_t size)
{
	const char *start;
	size_t len = variant_span(group, &start);

	if (size == 0)
		return buf;
	if (len >= size)
		len = size - 1;
	memcpy(buf, start, len);
	buf[len] = '\0';
	return buf;
}

static bool group_is(const struct compare_group *g, const char *start, size_t len)
{
	const char *s;

	return variant_span(g, &s) == len && memcmp(s, start, len) == 0;
}

/* Index of the first group of the variant (start, len) at or after FROM,
 * or n when there is none. */
static size_t find_group(const struct compare_metric *m, size_t from,
			 const char *start, size_t len)
{
	for (size_t i = from; i < m->n_groups; i++)
		if (group_is(&m->groups[i], start, len))
			return i;
	return m->n_groups;
}

static const struct compare_group *group_at(const struct compare_metric *m, size_t i)
{
	return i < m->n_groups ? &m->groups[i] : NULL;
}

static bool options_valid(const struct compare_options *o)
{
	return o->alpha > 0.0 && o->alpha < 1.0 && o->power > 0.0 &&
	       o->power < 1.0 && o->ci_level > 0.0 && o->ci_level < 1.0 &&
	       o->iterations > 0;
}

static bool values_finite(const struct compare_metric *metrics, size_t n_metrics)
{
	for (size_t m = 0; m < n_metrics; m++)
		for (size_t g = 0; g < metrics[m].n_groups; g++)
			for (size_t i = 0; i < metrics[m].groups[g].n; i++)
				if (!isfinite(metrics[m].groups[g].values[i]))
					return false;
	return true;
}

static char *baseline_name(const struct compare_metric *metrics, size_t n_metrics,
			   const struct compare_options *opts)
{
	const char *start = "";
	size_t len = 0;

	if (opts->baseline)
		return strdup(opts->baseline);
	for (size_t m = 0; m < n_metrics; m++)
		if (metrics[m].n_groups) {
			len = variant_span(&metrics[m].groups[0], &start);
			break;
		}
	return strndup(start, len);
}

static int add_info(struct compare_table *t, const struct compare_metric *m,
		    const struct compare_group *base)
{
	struct compare_metric_info *info = &t->metrics[t->n_metrics];

	info->name = strdup(m->def.name ? m->def.name : "");
	info->unit = strdup(m->def.unit ? m->def.unit : "");
	if (!info->name || !info->unit) {
		free(info->name);
		free(info->unit);
		return -ENOMEM;
	}
	info->kind = m->def.kind;
	info->better = m->def.better;
	info->centre = compare_centre_for(m->def.kind);
	compare_side_fill(&info->base, base, t->baseline);
	t->n_metrics++;
	return 0;
}

static int add_row(struct compare_table *t, const struct compare_metric *m,
		   size_t var_index, size_t base_index)
{
	const struct compare_metric_info *info = &t->metrics[t->n_metrics - 1];
	const struct compare_group *var = &m->groups[var_index];
	struct compare_row *row = &t->rows[t->n_rows];
	const char *start;
	size_t len = variant_span(var, &start);
	size_t blen = strlen(t->baseline);
	struct compare_row_input in = {
		.metric = info->name, .kind = info->kind, .centre = info->centre,
		.base = group_at(m, base_index), .var = var,
		.base_twin = group_at(m, find_group(m, base_index + 1, t->baseline, blen)),
		.var_twin = group_at(m, find_group(m, var_index + 1, start, len)),
	};
	char *name = strndup(start, len);
	int rc;

	if (!name)
		return -ENOMEM;
	memset(row, 0, sizeof(*row));
	row->metric = t->n_metrics - 1;
	row->base = info->base;
	compare_side_fill(&row->var, var, name);	/* owns NAME from now on */
	t->n_rows++;
	rc = compare_row_compute(row, &in, &t->opts);
	t->has_noise |= isfinite(row->noise);
	return rc;
}

/* One row per variant other than the baseline, in order of first
 * appearance; later groups of a variant are its A/A twins, not rows. */
static int add_metric(struct compare_table *t, const struct compare_metric *m)
{
	size_t blen = strlen(t->baseline);
	size_t base_index = find_group(m, 0, t->baseline, blen);
	int rc = add_info(t, m, group_at(m, base_index));

	for (size_t i = 0; rc == 0 && i < m->n_groups; i++) {
		const char *start;
		size_t len = variant_span(&m->groups[i], &start);

		if (group_is(&m->groups[i], t->baseline, blen) ||
		    find_group(m, 0, start, len) != i)
			continue;
		rc = add_row(t, m, i, base_index);
	}
	return rc;
}

/* Holm over every p-value in the table: the table is one family. */
static int adjust_and_decide(struct compare_table *t)
{
	double *p = malloc((t->n_rows ? t->n_rows : 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	t->n_tests = 0;
	for (size_t i = 0; i < t->n_rows; i++) {
		p[i] = t->rows[i].p;	/* NAN when not tested */
		t->n_tests += !isnan(p[i]);
	}
	stats_holm_adjust(p, t->n_rows);
	for (size_t i = 0; i < t->n_rows; i++) {
		struct compare_row *row = &t->rows[i];

		row->p_adj = p[i];
		compare_row_decide(row, t->metrics[row->metric].better, t->opts.alpha);
	}
	free(p);
	return 0;
}

static int allocate(struct compare_table *t, const struct compare_metric *metrics,
		    size_t n_metrics)
{
	size_t max_rows = 0;

	for (size_t m = 0; m < n_metrics; m++)
		max_rows += metrics[m].n_groups;
	t->metrics = calloc(n_metrics ? n_metrics : 1, sizeof(*t->metrics));
	t->rows = calloc(max_rows ? max_rows : 1, sizeof(*t->rows));
	return t->metrics && t->rows ? 0 : -ENOMEM;
}

int compare_table_build(const struct compare_metric *metrics, size_t n_metrics,
			const struct compare_options *opts,
			struct compare_table *table)
{
	int rc;

	memset(table, 0, sizeof(*table));
	if (!options_valid(opts) || !values_finite(metrics, n_metrics))
		return -EINVAL;
	table->opts = *opts;
	table->baseline = baseline_name(metrics, n_metrics, opts);
	table->opts.baseline = table->baseline;
	rc = table->baseline ? allocate(table, metrics, n_metrics) : -ENOMEM;
	for (size_t m = 0; rc == 0 && m < n_metrics; m++)
		rc = add_metric(table, &metrics[m]);
	if (rc == 0)
		rc = adjust_and_decide(table);
	if (rc != 0)
		compare_table_free(table);
	return rc;
}

void compare_table_free(struct compare_table *table)
{
	for (size_t i = 0; i < table->n_metrics; i++) {
		free(table->metrics[i].name);
		free(table->metrics[i].unit);
	}
	/* a row's var.variant is its own copy; base.variant is the table's */
	for (size_t i = 0; i < table->n_rows; i++)
		free((char *)table->rows[i].var.variant);
	free(table->metrics);
	free(table->rows);
	free(table->baseline);
	memset(table, 0, sizeof(*table));
}
