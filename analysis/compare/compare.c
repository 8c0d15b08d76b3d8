/* compare.c - builds the comparison table: rows, Holm, verdicts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_order.h"
#include "compare_row.h"

void compare_options_default(struct compare_options *opts)
{
	*opts = (struct compare_options){
		.baseline = NULL,
		.alpha = 0.05,
		.power = 0.8,
		.ci_level = 0.95,
		.margin = { .value = 2.0, .relative = true },
		.perm = { .seed = 1, .max_exact = 20000, .resamples = 20000 },
		.min_trials = 3,
		.seq_max = 0,
		.primary = NULL,
	};
}

bool compare_table_decided(const struct compare_table *t, size_t *decided, size_t *rows)
{
	*decided = *rows = 0;
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct compare_row *row = &t->rows[i];

		if (t->primary && !compare_row_primary(t, row))
			continue;
		(*rows)++;
		*decided += compare_verdict_decided(row->verdict);
	}
	return *rows > 0 && *decided == *rows;
}

const char *compare_method_test(enum compare_method method)
{
	switch (method) {
	case COMPARE_NONE:      return "none";
	case COMPARE_LOG_MEANS: return "permutation t (logs)";
	case COMPARE_MEANS:     return "permutation t";
	case COMPARE_SHARES:    return "Fisher exact";
	}
	return "?";
}

const char *compare_test_name(enum compare_method method, bool parametric)
{
	if (parametric && method == COMPARE_LOG_MEANS)
		return "Welch t (logs)";
	if (parametric && method == COMPARE_MEANS)
		return "Welch t";
	return compare_method_test(method);
}

bool compare_metric_parametric(const struct compare_metric *metric)
{
	enum compare_method method = compare_method_for(metric);

	return metric->parametric && (method == COMPARE_LOG_MEANS || method == COMPARE_MEANS);
}

const char *compare_method_key(enum compare_method method)
{
	switch (method) {
	case COMPARE_NONE:      return "none";
	case COMPARE_LOG_MEANS: return "log-means";
	case COMPARE_MEANS:     return "means";
	case COMPARE_SHARES:    return "shares";
	}
	return "?";
}

const char *compare_scale_key(enum compare_scale scale)
{
	switch (scale) {
	case SCALE_PERCENT: return "%";
	case SCALE_UNIT:    return "unit";
	case SCALE_POINTS:  return "pp";
	}
	return "?";
}

const char *compare_centre_name(enum compare_method method)
{
	switch (method) {
	case COMPARE_LOG_MEANS: return "geomean";
	case COMPARE_MEANS:     return "mean";
	case COMPARE_SHARES:    return "share";
	case COMPARE_NONE:      break;
	}
	return "-";
}

int compare_margin_parse(const char *text, struct compare_margin *margin)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || !isfinite(v) || v < 0.0)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	margin->value = v;
	margin->relative = false;
	if (*end == '%') {
		margin->relative = true;
		end++;
	} else if (end[0] == 'p' && end[1] == 'p') {
		end += 2;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	return *end ? -EINVAL : 0;
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
	return o->alpha > 0.0 && o->alpha < 0.5 && o->power > 0.0 &&
	       o->power < 1.0 && o->ci_level > 0.0 && o->ci_level < 1.0 &&
	       (o->perm.resamples > 0 || o->perm.max_exact > 0) &&
	       (o->seq_max == 0 || o->seq_max > o->min_trials);
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
	info->method = compare_method_for(m);
	info->parametric = compare_metric_parametric(m);
	info->margin = isnan(m->margin.value) ? t->opts.margin : m->margin;
	compare_side_fill(&info->base, base, t->baseline, info->method, info->kind);
	t->n_metrics++;
	return 0;
}

/*
 * The group a variant is compared with. A variant built for another target
 * ("binder-kcalloc+debug") goes against the baseline built for the same
 * target ("stock+debug") when the run has it, so that a row changes one
 * thing; that group itself, and every other, against the baseline.
 */
static size_t base_for(const struct compare_metric *m, const struct compare_table *t,
		       const char *start, size_t len, size_t base_index)
{
	const char *plus = memchr(start, '+', len);
	size_t blen = strlen(t->baseline), tlen = plus ? len - (size_t)(plus - start) : 0;
	char *paired;
	size_t i;

	if (!plus || !(paired = malloc(blen + tlen + 1)))
		return base_index;
	memcpy(paired, t->baseline, blen);
	memcpy(paired + blen, plus, tlen);
	paired[blen + tlen] = '\0';
	i = find_group(m, 0, paired, blen + tlen);
	free(paired);
	return i < m->n_groups && !group_is(&m->groups[i], start, len) ? i : base_index;
}

/* A row and what it is computed from, until the levels are known. */
static int add_row(struct compare_table *t, struct compare_row_input *inputs,
		   const struct compare_metric *m, size_t var_index, size_t base_index)
{
	const struct compare_metric_info *info = &t->metrics[t->n_metrics - 1];
	const struct compare_group *var = &m->groups[var_index];
	struct compare_row *row = &t->rows[t->n_rows];
	const char *start, *bstart;
	size_t len = variant_span(var, &start);
	size_t own_base = base_for(m, t, start, len, base_index);
	size_t blen = own_base < m->n_groups ? variant_span(&m->groups[own_base], &bstart)
					     : strlen(bstart = t->baseline);
	char *name = strndup(start, len);
	char *base_name = own_base == base_index ? NULL : strndup(bstart, blen);

	if (!name || (own_base != base_index && !base_name)) {
		free(name);
		return -ENOMEM;
	}
	inputs[t->n_rows] = (struct compare_row_input){
		.metric = info->name, .method = info->method, .kind = info->kind,
		.parametric = info->parametric, .margin = info->margin,
		.base = group_at(m, own_base), .var = var,
		.base_twin = group_at(m, find_group(m, own_base + 1, bstart, blen)),
		.var_twin = group_at(m, find_group(m, var_index + 1, start, len)),
	};
	memset(row, 0, sizeof(*row));
	row->metric = t->n_metrics - 1;
	row->base = info->base;
	if (base_name)	/* owns BASE_NAME */
		compare_side_fill(&row->base, group_at(m, own_base), base_name, info->method,
				  info->kind);
	compare_side_fill(&row->var, var, name, info->method, info->kind); /* owns NAME */
	t->n_rows++;
	return 0;
}

/* One row per variant other than the baseline, in order of first
 * appearance; later groups of a variant are its A/A twins, not rows. */
static int add_metric(struct compare_table *t, struct compare_row_input *inputs,
		      const struct compare_metric *m)
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
		rc = add_row(t, inputs, m, i, base_index);
	}
	return rc;
}

/* The nominal two-sided level of a test at total level A for a row with N
 * trials a side: A itself for one fixed look, else the look's boundary. */
static double look_level(const struct compare_options *o, double a, size_t n)
{
	if (!o->seq_max)
		return a;
	return stats_sequential_level(a, n, o->min_trials, o->seq_max);
}

static size_t row_look(const struct compare_row *row)
{
	return row->base.n < row->var.n ? row->base.n : row->var.n;
}

/* A row's family: 1 the primary's, 2 the others' under gatekeeping; 0 the
 * one family of a table without a primary. */
static int row_family(const struct compare_table *t, const struct compare_row *row)
{
	if (!t->primary)
		return 0;
	return compare_row_primary(t, row) ? 1 : 2;
}

static int compute_rows(struct compare_table *t, const struct compare_row_input *inputs)
{
	size_t m[3] = { 0, 0, 0 };	/* testable rows per family */

	for (size_t i = 0; i < t->n_rows; i++)
		m[row_family(t, &t->rows[i])] += compare_row_testable(&inputs[i], &t->opts);
	for (size_t i = 0; i < t->n_rows; i++) {
		struct compare_row *row = &t->rows[i];
		size_t n = row_look(row), mf = m[row_family(t, row)];
		struct compare_row_levels levels = {
			/* the level a lone true difference must reach: Holm's first
			 * step in the row's family */
			.mde = look_level(&t->opts, t->opts.alpha / (double)(mf ? mf : 1), n),
			/* TOST: each one-sided test at alpha (at 2 alpha two-sided) */
			.equivalence = look_level(&t->opts, 2.0 * t->opts.alpha, n) / 2.0,
		};
		int rc = compare_row_compute(row, &inputs[i], &t->opts, &levels);

		if (rc != 0)
			return rc;
		t->has_noise |= isfinite(row->noise);
	}
	return 0;
}

struct ranked {
	double key;
	size_t row;
};

static int by_key(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return (a->key > b->key) - (a->key < b->key);
}

/* Holm over the p-values of FAMILY (row_family). Step j (from 0) of m
 * compares a p-value with the level of a test at alpha / (m - j); p_adj is
 * the p-value scaled to alpha by that level, as a running maximum that
 * starts at FLOOR, so that p_adj < alpha says "rejected". With one fixed
 * look and FLOOR 0 the level is alpha / (m - j) and p_adj is Holm's
 * adjusted p. *TESTS gets m, *LARGEST the largest p_adj (FLOOR when m is 0). */
static int holm_family(struct compare_table *t, int family, double floor, size_t *tests,
		       double *largest)
{
	struct ranked *order = malloc((t->n_rows ? t->n_rows : 1) * sizeof(*order));
	const struct compare_options *o = &t->opts;
	double running = floor;
	size_t m = 0;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct compare_row *row = &t->rows[i];

		if (isnan(row->p) || row_family(t, row) != family)
			continue;
		order[m++] = (struct ranked){ row->p / look_level(o, o->alpha, row_look(row)), i };
	}
	qsort(order, m, sizeof(*order), by_key);
	for (size_t j = 0; j < m; j++) {
		struct compare_row *row = &t->rows[order[j].row];
		double level = look_level(o, o->alpha / (double)(m - j), row_look(row));
		double scaled = level > 0.0 ? o->alpha * row->p / level : INFINITY;

		running = fmax(running, scaled);
		row->p_adj = fmin(1.0, running);
	}
	*tests = m;
	*largest = fmin(1.0, running);
	free(order);
	return 0;
}

/* True when every row of the primary's family has a p-value. */
static bool primary_all_tested(const struct compare_table *t)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (row_family(t, &t->rows[i]) == 1 && isnan(t->rows[i].p))
			return false;
	return true;
}

/* Serial gatekeeping: Holm over the primary's rows at alpha; the others by
 * Holm at alpha only when every primary row was rejected. An other row's
 * p_adj is at least the largest primary p_adj (1 when a primary row could
 * not be tested), so that it is below alpha only with the gate open. */
static int gatekeep(struct compare_table *t)
{
	size_t n1, n2;
	double largest, unused;
	bool tested = primary_all_tested(t);
	int rc = holm_family(t, 1, 0.0, &n1, &largest);

	if (rc != 0)
		return rc;
	t->gate_open = n1 > 0 && tested && largest < t->opts.alpha;
	rc = holm_family(t, 2, n1 > 0 && tested ? largest : 1.0, &n2, &unused);
	t->n_primary_tests = n1;
	t->n_tests = n1 + n2;
	return rc;
}

static void decide(struct compare_table *t, struct compare_row *row)
{
	compare_row_decide(row, t->metrics[row->metric].better, t->opts.alpha);
	/* not tested at all: what the MDE says could be found needs the gate open */
	if (row_family(t, row) == 2 && !t->gate_open && row->verdict == VERDICT_NOT_DETECTED) {
		row->verdict = VERDICT_INCONCLUSIVE;
		row->why = "not tested: the primary was not significant";
	}
}

static int adjust_and_decide(struct compare_table *t)
{
	double unused;
	int rc = t->primary ? gatekeep(t) : holm_family(t, 0, 0.0, &t->n_tests, &unused);

	if (rc != 0)
		return rc;
	for (size_t i = 0; i < t->n_rows; i++)
		decide(t, &t->rows[i]);
	return 0;
}

static int allocate(struct compare_table *t, const struct compare_metric *metrics,
		    size_t n_metrics, struct compare_row_input **inputs)
{
	size_t max_rows = 0;

	for (size_t m = 0; m < n_metrics; m++)
		max_rows += metrics[m].n_groups;
	t->metrics = calloc(n_metrics ? n_metrics : 1, sizeof(*t->metrics));
	t->rows = calloc(max_rows ? max_rows : 1, sizeof(*t->rows));
	*inputs = calloc(max_rows ? max_rows : 1, sizeof(**inputs));
	return t->metrics && t->rows && *inputs ? 0 : -ENOMEM;
}

static size_t largest_look(const struct compare_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_rows; i++)
		if (row_look(&t->rows[i]) > n)
			n = row_look(&t->rows[i]);
	return n;
}

int compare_table_build(const struct compare_metric *metrics, size_t n_metrics,
			const struct compare_options *opts,
			struct compare_table *table)
{
	struct compare_row_input *inputs = NULL;
	int rc;

	memset(table, 0, sizeof(*table));
	if (!options_valid(opts) || !values_finite(metrics, n_metrics))
		return -EINVAL;
	table->opts = *opts;
	table->baseline = baseline_name(metrics, n_metrics, opts);
	table->opts.baseline = table->baseline;
	if (opts->primary && !(table->primary = strdup(opts->primary))) {
		free(table->baseline);
		table->baseline = NULL;
	}
	table->opts.primary = table->primary;
	rc = table->baseline ? allocate(table, metrics, n_metrics, &inputs) : -ENOMEM;
	for (size_t m = 0; rc == 0 && m < n_metrics; m++)
		rc = add_metric(table, inputs, &metrics[m]);
	if (rc == 0)
		rc = compute_rows(table, inputs);
	if (rc == 0)
		rc = adjust_and_decide(table);
	/* every format tells the rows in the table's order: what gates first,
	 * then the selftest cases newly failing (compare_order.h) */
	if (rc == 0)
		rc = compare_table_order(table);
	table->look_n = largest_look(table);
	free(inputs);
	if (rc != 0)
		compare_table_free(table);
	return rc;
}

void compare_table_free(struct compare_table *table)
{
	for (size_t i = 0; i < table->n_context_notes; i++)
		free(table->context_notes[i]);
	free(table->context_notes);
	for (size_t i = 0; i < table->n_metrics; i++) {
		free(table->metrics[i].name);
		free(table->metrics[i].unit);
	}
	/* a row's var.variant is its own copy; base.variant is the table's
	 * baseline, or the row's own copy when it has a baseline of its own */
	for (size_t i = 0; i < table->n_rows; i++) {
		free((char *)table->rows[i].var.variant);
		if (table->rows[i].base.variant != table->baseline)
			free((char *)table->rows[i].base.variant);
	}
	free(table->metrics);
	free(table->rows);
	free(table->baseline);
	free(table->primary);
	free(table->clock.name);
	free(table->clock.settings);
	free(table->clock.meaning);
	memset(table, 0, sizeof(*table));
}
