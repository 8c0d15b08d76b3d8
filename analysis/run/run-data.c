/* A run's trials as the analysis sees them. */
#include "run-data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/metric.h"
#include "analysis/metrics/trial_metrics.h"
#include "common/paths.h"
#include "common/run-folder.h"
#include "common/trial-record.h"

char *run_dir_resolve(const char *run)
{
	if (strchr(run, '/') || is_dir(run)) {
		char *copy = xstrdup(run);
		size_t len = strlen(copy);
		while (len > 1 && copy[len - 1] == '/')
			copy[--len] = '\0';
		return copy;
	}
	return xasprintf("%s/%s", results_root(), run);
}

/*
 * A trial.json without a "metrics" array (written before the lab computed
 * them, or by a finish that could not) gets them from its folder, with the
 * code that finishes trials (analysis/metrics/trial_metrics.h), in memory
 * only and with "metrics_derived": true beside them.
 */
static bool derive_metrics(json_t *trial, const char *dir)
{
	if (!json_is_object(trial) || json_is_array(json_object_get(trial, "metrics")))
		return false;
	json_t *computed = NULL;
	struct strbuf err = STRBUF_INIT;
	bool done = trial_metrics_compute(dir, &computed, &err) == 0;
	if (done) {
		const char *key;
		json_t *v;
		json_object_foreach(computed, key, v)
			if (!json_object_get(trial, key))
				json_object_set(trial, key, v);
		json_object_set_new(trial, "metrics_derived", json_true());
	} else {
		warning("%s: %s", dir, err.buf);
	}
	json_decref(computed);
	strbuf_release(&err);
	return done;
}

static void read_clock(struct run_trial *t)
{
	json_t *clock = json_object_get(json_object_get(t->trial, "environment"), "clock");
	const char *name = json_string_value(json_object_get(clock, "name"));
	const char *settings = json_string_value(json_object_get(clock, "settings"));

	if (!t->trial)
		return;
	t->clock = name ? name : "realtime";
	t->clock_settings = settings ? settings : "";
	t->clock_meaning = json_string_value(json_object_get(clock, "meaning"));
	json_t *env = json_object_get(t->trial, "environment");
	json_int_t at_once = json_integer_value(json_object_get(env, "trials_at_once"));
	t->trials_at_once = at_once > 1 ? (unsigned)at_once : 1;
	const char *arch = json_string_value(json_object_get(env, "arch"));
	json_int_t page = json_integer_value(json_object_get(env, "page_size"));
	t->arch = arch ? arch : "x86_64";
	t->page_size = page > 0 ? (long long)page : 4096;
}

static void add_trial(const char *label, unsigned index, const char *dir, void *ctx)
{
	struct run_data *rd = ctx;
	ALLOC_GROW(rd->trials, rd->n + 1, rd->alloc);
	struct run_trial *t = &rd->trials[rd->n++];
	memset(t, 0, sizeof(*t));
	t->label = xstrdup(label);
	t->index = index;
	t->dir = xstrdup(dir);
	struct trial_record r;
	trial_record_read(dir, &r);
	if (r.state != TRIAL_FINISHED && !rd->quiet)
		warning("%s: %s: counted among the trials that ended otherwise; %s", dir, r.why,
			r.state == TRIAL_NO_RECORD ? "the trial never finished, lab run --resume runs it"
						   : "lab results --recompute rebuilds it");
	/* the outcome points into the record, or is one of the names that live forever */
	t->trial = r.json;
	t->outcome = r.outcome;
	r.json = NULL;
	trial_record_release(&r);
	rd->derived += derive_metrics(t->trial, dir);
	read_clock(t);
}

int run_data_add(struct run_data *rd, const char *run, struct strbuf *err)
{
	char *dir = run_dir_resolve(run);
	struct strbuf why = STRBUF_INIT;
	json_t *meta = run_folder_load(dir, &why);
	if (!meta) {
		strbuf_addf(err, "%s: not a run (%s)", run, why.buf);
		strbuf_release(&why);
		free(dir);
		return -1;
	}
	if (!rd->runs)
		rd->runs = json_array();
	json_array_append_new(rd->runs, meta);
	strlist_push(&rd->dirs, dir);
	const char *s;
	if (!rd->baseline && (s = json_string_value(json_object_get(meta, "baseline"))))
		rd->baseline = xstrdup(s);
	if (!rd->profile && (s = json_string_value(json_object_get(meta, "profile"))))
		rd->profile = xstrdup(s);
	if (!rd->experiment && (s = json_string_value(json_object_get(meta, "experiment"))))
		rd->experiment = xstrdup(s);
	if (!rd->primary && !rd->headline.n && (s = json_string_value(json_object_get(meta, "primary"))))
		rd->primary = xstrdup(s);
	size_t i;
	json_t *glob;
	/* the design of the run that gives the headline */
	if (!rd->headline.n && !rd->parametric.n)
		json_array_foreach(json_object_get(meta, "parametric"), i, glob)
			if (json_string_value(glob))
				strlist_push(&rd->parametric, json_string_value(glob));
	if (!rd->headline.n)
		json_array_foreach(json_object_get(meta, "metrics"), i, glob)
			if (json_string_value(glob))
				strlist_push(&rd->headline, json_string_value(glob));
	/* The groups are run.json's, the trials whatever trial folders they hold (common/run-folder.h). */
	run_folder_group_labels(meta, &rd->labels);
	struct strlist unlisted = STRLIST_INIT;
	run_folder_unlisted_groups(dir, &rd->labels, &unlisted);
	for (size_t g = 0; g < unlisted.n && !rd->quiet; g++)
		warning("%s/%s: trial folders of a group run.json does not list: left out", dir, unlisted.items[g]);
	strlist_clear(&unlisted);
	for (size_t g = 0; g < rd->labels.n; g++)
		run_folder_each_trial(dir, rd->labels.items[g], add_trial, rd);
	free(dir);
	return 0;
}

void run_data_metric_names(const struct run_data *rd, struct strlist *names)
{
	/* every trial's names, then sorted and each kept once: a linear search
	 * per name was quadratic in a trial's (capped, but many) names */
	struct strlist all = STRLIST_INIT;
	strlist_push(&all, "trial_ok");
	for (size_t i = 0; i < rd->n; i++) {
		size_t k;
		json_t *m;
		json_array_foreach(json_object_get(rd->trials[i].trial, "metrics"), k, m) {
			const char *name = json_string_value(json_object_get(m, "name"));
			if (name)
				strlist_push(&all, name);
		}
	}
	strlist_sort(&all);
	for (size_t i = 0; i < all.n; i++)
		if (!i || strcmp(all.items[i], all.items[i - 1]))
			strlist_push(names, all.items[i]);
	strlist_clear(&all);
}

static json_t *find_metric(json_t *trial, const char *name)
{
	size_t k;
	json_t *m;
	json_array_foreach(json_object_get(trial, "metrics"), k, m) {
		const char *n = json_string_value(json_object_get(m, "name"));
		if (n && !strcmp(n, name))
			return m;
	}
	return NULL;
}

bool run_trial_has_metric(const struct run_trial *t, const char *name)
{
	return t->trial && find_metric(t->trial, name);
}

double *run_data_values(const struct run_data *rd, const char *metric, const char *label, size_t *n,
			size_t *n_other, const char **unit)
{
	double *values = xcalloc(rd->n ? rd->n : 1, sizeof(*values));
	bool outcome_metric = !strcmp(metric, "trial_ok");
	*n = *n_other = 0;
	if (unit)
		*unit = outcome_metric ? "ratio" : NULL;
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		if (strcmp(t->label, label))
			continue;
		bool ok = !strcmp(t->outcome, "ok");
		if (!t->trial) {
			(*n_other)++;   /* no record: its outcome is not known */
			continue;
		}
		/* an off-target trial measured another machine than the experiment
		 * asked for: no result of the kernel's, neither ok nor a failure */
		if (outcome_metric && !strcmp(t->outcome, "off-target")) {
			(*n_other)++;
			continue;
		}
		if (outcome_metric) {
			values[(*n)++] = ok ? 1.0 : 0.0;
			continue;
		}
		if (!ok) {
			(*n_other)++;
			continue;
		}
		json_t *m = find_metric(t->trial, metric);
		json_t *v = m ? json_object_get(m, "value") : NULL;
		if (!v || !json_is_number(v))
			continue;
		values[(*n)++] = json_number_value(v);
		if (unit && !*unit)
			*unit = json_string_value(json_object_get(m, "unit"));
	}
	return values;
}

void run_data_declared(const struct run_data *rd, const char *metric, struct run_declared *d)
{
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < rd->n; i++) {
		json_t *m = rd->trials[i].trial ? find_metric(rd->trials[i].trial, metric) : NULL;
		enum metric_better better = BETTER_NEITHER;
		if (!m)
			continue;
		metric_better_parse(json_string_value(json_object_get(m, "better")), &better);
		if (better == BETTER_HIGHER)
			d->higher++;
		else if (better == BETTER_LOWER)
			d->lower++;
		else
			d->none++;
	}
}

void run_data_keep_rounds(struct run_data *rd, unsigned rounds)
{
	size_t kept = 0;
	for (size_t i = 0; i < rd->n; i++) {
		struct run_trial *t = &rd->trials[i];
		if (t->index < rounds) {
			rd->trials[kept++] = *t;
			continue;
		}
		free(t->label);
		free(t->dir);
		json_decref(t->trial);
	}
	rd->n = kept;
}

void run_data_free(struct run_data *rd)
{
	for (size_t i = 0; i < rd->n; i++) {
		free(rd->trials[i].label);
		free(rd->trials[i].dir);
		json_decref(rd->trials[i].trial);
	}
	free(rd->trials);
	json_decref(rd->runs);
	strlist_clear(&rd->dirs);
	strlist_clear(&rd->labels);
	strlist_clear(&rd->headline);
	strlist_clear(&rd->parametric);
	free(rd->primary);
	free(rd->baseline);
	free(rd->profile);
	free(rd->experiment);
	memset(rd, 0, sizeof(*rd));
}
