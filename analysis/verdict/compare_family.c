/* compare_family.c - the metrics of a run that are compared, and their table. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare_verdict.h"
#include "analysis/metrics/metric_catalog.h"
#include "compare_family.h"
#include "debug_pressure.h"

struct family_input {
	struct compare_metric *metrics;
	struct compare_group *groups;	/* n_metrics x n_groups */
	double **values;		/* likewise */
	size_t n_metrics, n_groups;
	struct strlist notes;		/* the table's context notes */
};

static bool wanted(const char *name, const struct strlist *globs)
{
	if (!globs || !globs->n)
		return true;
	for (size_t i = 0; i < globs->n; i++)
		if (!fnmatch(globs->items[i], name, 0))
			return true;
	return false;
}

/* True when every value of every group is the same. */
static bool constant(const struct compare_group *groups, size_t n_groups)
{
	bool seen = false;
	double first = 0;

	for (size_t g = 0; g < n_groups; g++)
		for (size_t i = 0; i < groups[g].n; i++) {
			if (!seen) {
				first = groups[g].values[i];
				seen = true;
			} else if (groups[g].values[i] != first) {
				return false;
			}
		}
	return true;
}

static void drop_last(struct family_input *in)
{
	size_t m = in->n_metrics - 1;

	for (size_t g = 0; g < in->n_groups; g++)
		free(in->values[m * in->n_groups + g]);
}

static void input_free(struct family_input *in)
{
	for (size_t m = 0; m < in->n_metrics; m++)
		for (size_t g = 0; g < in->n_groups; g++)
			free(in->values[m * in->n_groups + g]);
	free(in->values);
	free(in->groups);
	free(in->metrics);
	strlist_clear(&in->notes);
	memset(in, 0, sizeof(*in));
}

int compare_family_margin(const struct run_data *rd, const char *metric,
			  struct compare_margin *margin, struct strbuf *err)
{
	json_t *run = json_array_get(rd->runs, 0), *entry;
	size_t i;

	json_array_foreach(json_object_get(run, "equivalence"), i, entry) {
		const char *glob = json_string_value(json_object_get(entry, "metric"));
		const char *text = json_string_value(json_object_get(entry, "margin"));

		if (!glob || !text || fnmatch(glob, metric, 0))
			continue;
		if (compare_margin_parse(text, margin) != 0) {
			strbuf_addf(err, "run.json: equivalence margin '%s' for %s is not a percentage "
				    "or a number", text, glob);
			return -1;
		}
		return 0;
	}
	return 0;
}

/*
 * A metric of no row in the catalogue (a program's own) takes the direction
 * its metric lines declared ("better", trial.json metrics[].better) when
 * every trial that has it declared the same one. When they disagree (one
 * says higher, another lower, or one says nothing) the comparison does not
 * guess: no direction, so its rows can be "differs" but never "better" or
 * "worse", and one note of the table says so. A metric of the catalogue
 * keeps the catalogue's direction whatever a line declares.
 */
static void declared_direction(const struct run_data *rd, const char *name, struct metric_def *def,
			       struct strlist *notes)
{
	struct run_declared d;

	if (metric_catalog_lookup(name))
		return;
	run_data_declared(rd, name, &d);
	if (!d.higher && !d.lower)
		return;
	if (!d.none && !(d.higher && d.lower)) {
		def->better = d.higher ? BETTER_HIGHER : BETTER_LOWER;
		return;
	}
	strlist_push_owned(notes, xasprintf("warning: %s: the trials' metric lines disagree on which "
					    "direction is better (%s in %zu, %s in %zu, none in %zu): "
					    "its rows can be %s, never %s or %s",
					    name, metric_better_word(BETTER_HIGHER), d.higher,
					    metric_better_word(BETTER_LOWER), d.lower, d.none,
					    compare_verdict_word(VERDICT_DIFFERS),
					    compare_verdict_word(VERDICT_BETTER),
					    compare_verdict_word(VERDICT_WORSE)));
}

/* Gathers one metric's values per group; false when it is left out. */
static int add_metric(const struct run_data *rd, const char *name, bool all,
		      struct family_input *in, size_t *hidden, struct strbuf *err)
{
	size_t m = in->n_metrics++;
	struct compare_metric *metric = &in->metrics[m];
	struct compare_group *groups = &in->groups[m * in->n_groups];
	const char *unit = NULL;

	for (size_t g = 0; g < in->n_groups; g++) {
		const char *u = NULL;

		in->values[m * in->n_groups + g] =
			run_data_values(rd, name, rd->labels.items[g], &groups[g].n,
					&groups[g].n_other, &u);
		groups[g].values = in->values[m * in->n_groups + g];
		groups[g].label = rd->labels.items[g];
		if (!unit)
			unit = u;
	}
	/* outcomes always show: "every trial ok" is a finding too */
	if (!all && strcmp(name, "trial_ok") && constant(groups, in->n_groups)) {
		drop_last(in);
		in->n_metrics--;
		(*hidden)++;
		return 0;
	}
	metric_catalog_resolve(name, unit ? unit : "", &metric->def);
	declared_direction(rd, name, &metric->def, &in->notes);
	/* run.json "parametric": whatever the family, rows of these metrics
	 * take Student's t (shares never do: compare_metric_parametric) */
	metric->parametric = rd->parametric.n && wanted(name, &rd->parametric);
	metric->groups = groups;
	metric->n_groups = in->n_groups;
	metric->margin = (struct compare_margin){ .value = NAN };
	return compare_family_margin(rd, name, &metric->margin, err);
}

/* "icount (shift=0,sleep=off,align=off)", "realtime": a clock in messages. */
static void add_clock_label(struct strbuf *sb, const struct run_trial *t)
{
	strbuf_addstr(sb, t->clock);
	if (*t->clock_settings)
		strbuf_addf(sb, " (%s)", t->clock_settings);
}

static bool same_clock(const struct run_trial *a, const struct run_trial *b)
{
	return !strcmp(a->clock, b->clock) && !strcmp(a->clock_settings, b->clock_settings);
}

/* "stock on icount (...), binder-kcalloc on realtime": each group's clocks. */
static void describe_clocks(const struct run_data *rd, struct strbuf *sb)
{
	int any = 0;

	for (size_t g = 0; g < rd->labels.n; g++) {
		const char *label = rd->labels.items[g];
		struct strlist seen = STRLIST_INIT;

		for (size_t i = 0; i < rd->n; i++) {
			struct strbuf one = STRBUF_INIT;

			if (!rd->trials[i].clock || strcmp(rd->trials[i].label, label))
				continue;
			add_clock_label(&one, &rd->trials[i]);
			if (!strlist_has(&seen, one.buf))
				strlist_push(&seen, one.buf);
			strbuf_release(&one);
		}
		if (seen.n)
			strbuf_addf(sb, "%s%s on ", any++ ? ", " : "", label);
		for (size_t k = 0; k < seen.n; k++)
			strbuf_addf(sb, "%s%s", k ? " and " : "", seen.items[k]);
		strlist_clear(&seen);
	}
}

/* The trial whose clock every trial shares (NULL: no trial.json at all);
 * COMPARE_FAMILY_MIXED_CLOCKS with ERR when they differ. */
static int one_clock(const struct run_data *rd, const struct run_trial **clock, struct strbuf *err)
{
	*clock = NULL;
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];

		if (!t->clock)
			continue;
		if (!*clock) {
			*clock = t;
		} else if (!same_clock(*clock, t)) {
			strbuf_addstr(err, "the groups ran on different clocks (");
			describe_clocks(rd, err);
			strbuf_addstr(err, "): their times are not in one unit; compare groups "
				      "of one clock (lab run --clock)");
			return COMPARE_FAMILY_MIXED_CLOCKS;
		}
	}
	return 0;
}

/* Every trial on one arch and page size; -1 with ERR naming both when not. */
static int one_platform(const struct run_data *rd, struct strbuf *err)
{
	const struct run_trial *first = NULL;
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];

		if (!t->arch)
			continue;
		if (!first) {
			first = t;
		} else if (strcmp(first->arch, t->arch) || first->page_size != t->page_size) {
			strbuf_addf(err, "the trials ran on different platforms (%s with %lld-byte pages "
				    "and %s with %lld-byte pages): compare runs of one arch and page "
				    "size", first->arch, first->page_size, t->arch, t->page_size);
			return -1;
		}
	}
	return 0;
}

static void set_clock(struct compare_table *table, const struct run_data *rd,
		      const struct run_trial *t)
{
	if (!t)
		return;
	table->clock.name = xstrdup(t->clock);
	table->clock.settings = xstrdup(t->clock_settings);
	table->clock.meaning = t->clock_meaning ? xstrdup(t->clock_meaning) : NULL;
	for (size_t i = 0; i < rd->n; i++)
		if (rd->trials[i].trial && rd->trials[i].trials_at_once > table->clock.trials_at_once)
			table->clock.trials_at_once = rd->trials[i].trials_at_once;
}

static size_t sequential_max(const struct run_data *rd)
{
	json_t *seq = json_object_get(json_array_get(rd->runs, 0), "sequential");
	json_int_t max = json_integer_value(json_object_get(seq, "max_trials"));

	return max > 0 ? (size_t)max : 0;
}

int compare_family_build(const struct run_data *rd, const struct compare_family_spec *spec,
			 struct compare_family *family, struct strbuf *err)
{
	struct strlist names = STRLIST_INIT;
	const struct strlist *globs = spec->globs;
	struct family_input in = { 0 };
	struct compare_options opts;
	const struct run_trial *clock;
	int rc = 0;

	memset(family, 0, sizeof(*family));
	if (spec->baseline && !strlist_has(&rd->labels, spec->baseline)) {
		strbuf_addf(err, "no variant '%s' in the run", spec->baseline);
		return -1;
	}
	if ((rc = one_clock(rd, &clock, err)) != 0)
		return rc;
	if (one_platform(rd, err) < 0)
		return -1;
	family->headline = (!globs || !globs->n) && !spec->all && rd->headline.n;
	if (family->headline)
		globs = &rd->headline;
	run_data_metric_names(rd, &names);
	in.n_groups = rd->labels.n;
	in.metrics = xcalloc(names.n, sizeof(*in.metrics));
	in.groups = xcalloc(names.n * (in.n_groups ? in.n_groups : 1), sizeof(*in.groups));
	in.values = xcalloc(names.n * (in.n_groups ? in.n_groups : 1), sizeof(*in.values));
	for (size_t m = 0; rc == 0 && m < names.n; m++)
		if (wanted(names.items[m], globs))
			rc = add_metric(rd, names.items[m], spec->all, &in, &family->hidden, err);
	/* every metric asked for took one value in every trial: that is the
	 * answer, so they are the table (each row says what it can), not an error */
	if (rc == 0 && !in.n_metrics && family->hidden) {
		family->hidden = 0;
		for (size_t m = 0; rc == 0 && m < names.n; m++)
			if (wanted(names.items[m], globs))
				rc = add_metric(rd, names.items[m], true, &in, &family->hidden, err);
	}
	if (rc == 0 && !in.n_metrics) {
		if (family->hidden)
			strbuf_addf(err, "metrics matched: %zu, each with one value in every trial "
				    "(--all shows them)", family->hidden);
		else
			strbuf_addstr(err, "no metric matches");
		rc = -1;
	}
	if (rc == 0) {
		compare_options_default(&opts);
		opts.baseline = spec->baseline ? spec->baseline : rd->baseline;
		opts.perm.seed = spec->seed;
		opts.seq_max = sequential_max(rd);
		/* gatekeeping whenever the family holds the primary metric */
		if (rd->primary && (spec->all || wanted(rd->primary, globs)))
			opts.primary = rd->primary;
		if (compare_table_build(in.metrics, in.n_metrics, &opts, &family->table) != 0) {
			strbuf_addstr(err, "the comparison could not be built");
			rc = -1;
		} else {
			set_clock(&family->table, rd, clock);
			debug_pressure_notes(rd, spec->seed, &in.notes);
			family->table.context_notes = in.notes.items;
			family->table.n_context_notes = in.notes.n;
			in.notes = (struct strlist)STRLIST_INIT;	/* the table's now */
		}
	}
	input_free(&in);
	strlist_clear(&names);
	return rc;
}

void compare_family_free(struct compare_family *family)
{
	compare_table_free(&family->table);
	memset(family, 0, sizeof(*family));
}
