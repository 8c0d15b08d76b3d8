/* lab results: the results store (analysis/store/store.h): list the runs, show one
 * run's summary, import run folders. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/run/run-data.h"
#include "analysis/store/store.h"
#include "builtin.h"
#include "common/trial-record.h"
#include "common/folder.h"
#include "common/paths.h"
#include "common/run-folder.h"
#include "lab/cli/options.h"
#include "lab/run/run-merge.h"
#include "lab/slurm/slurm-run.h"
#include "lab/trial/trial-finish.h"
#include "lab/trial/trial-restores.h"

static const char results_usage[] =
	"usage: lab results [options]             list the runs, newest first\n"
	"       lab results [options] RUN         one run's summary\n"
	"       lab results --import DIR...       import run folders\n"
	"       lab results --merge [-o OUT] RUN RUN...   combine the shards of a run\n"
	"       lab results --recompute RUN       recompute every trial's metrics\n"
	"\n"
	"Every run is kept in one SQLite database, $OOMLAB_DB, else\n"
	"<results>/oomlab.sqlite (<results> is $OOMLAB_RESULTS, else results/ of the\n"
	"current folder).\n"
	"Listing first imports the run folders under <results> that are new or\n"
	"changed; RUN (a run id under <results>, or a run folder) is imported first\n"
	"when it is not stored yet or its folder changed since.\n"
	"\n"
	"The list shows per run its experiment, profile, groups, trials that ended\n"
	"ok out of all, and when it was created. A summary shows per group its\n"
	"trials by outcome and per metric n, median, min and max over the trials\n"
	"that ended ok ('+k': values of k other trials, left out). A trial whose\n"
	"trial.json is missing counts as 'missing', one that is unreadable or has no\n"
	"outcome as 'unreadable'.\n"
	"\n"
	"A run submitted with lab run --slurm (RUN its folder, run id or Slurm folder)\n"
	"shows its jobs first: each one's state (squeue, then sacct or the state its\n"
	"script wrote), each shard's trials finished, a failed job with its Slurm job\n"
	"id and log, the CPU models the shards ran on; then the merged run, once the\n"
	"merge job made it (docs/CLUSTER.md).\n"
	"\n";

enum format { FORMAT_TEXT, FORMAT_JSON };

static void format_time(char *buf, size_t size, bool has, int64_t unix_time)
{
	time_t t = (time_t)unix_time;
	struct tm tm;
	if (!has || !localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, size, "-");
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* ---- importing ---- */

static void report_problems(const struct store_import_report *r)
{
	for (size_t i = 0; i < r->problems.n; i++)
		warning("%s: %s", r->run_id ? r->run_id : "run", r->problems.items[i]);
}

/* Imports DIR; the stored run id in *RUN_ID when not NULL. Returns 0, or
 * the store's error (-1 database, -2 input) after printing it. */
static int import_dir(struct store *s, const char *dir, bool verbose, char **run_id)
{
	struct store_import_report r;
	struct strbuf err = STRBUF_INIT;
	int rc = store_import_run(s, dir, &r, &err);
	if (rc < 0) {
		error("results: %s", strbuf_str(&err));
	} else {
		if (verbose)
			report_problems(&r);
		struct strbuf unreadable = STRBUF_INIT;
		if (r.trials_unreadable)
			strbuf_addf(&unreadable, " (%zu unreadable)", r.trials_unreadable);
		note("results: imported %s: %zu groups, %zu trials%s, %zu metrics", r.run_id, r.groups,
		     r.trials, strbuf_str(&unreadable), r.metrics);
		strbuf_release(&unreadable);
		if (run_id)
			*run_id = xstrdup(r.run_id);
	}
	store_import_report_clear(&r);
	strbuf_release(&err);
	return rc;
}

/* Imports the run folders under the results folder that are new or changed. */
static void sync_results(struct store *s)
{
	const char *root = results_root();
	struct strlist names = STRLIST_INIT, dirs = STRLIST_INIT;
	if (folder_list(root, 0, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (names.items[i][0] == '.')
			continue;
		char *dir = xasprintf("%s/%s", root, names.items[i]);
		if (run_folder_is_run(dir))
			strlist_push_owned(&dirs, dir);
		else
			free(dir);
	}
	strlist_clear(&names);
	for (size_t i = 0; i < dirs.n; i++) {
		struct strbuf err = STRBUF_INIT;
		int need = store_run_needs_import(s, dirs.items[i], NULL, &err);
		if (need < 0)
			warning("results: %s", strbuf_str(&err));
		else if (need && import_dir(s, dirs.items[i], false, NULL) == STORE_EDB)
			exit(1);
		strbuf_release(&err);
	}
	strlist_clear(&dirs);
}

/* ---- the list ---- */

static json_t *run_to_json(const struct store_run *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "run_id", json_string(r->run_id));
	json_object_set_new(o, "experiment", r->experiment ? json_string(r->experiment) : json_null());
	json_object_set_new(o, "profile", r->profile ? json_string(r->profile) : json_null());
	json_object_set_new(o, "baseline", r->baseline ? json_string(r->baseline) : json_null());
	json_object_set_new(o, "seed", r->has_seed ? json_integer(r->seed) : json_null());
	json_object_set_new(o, "created_unix",
			    r->has_created ? json_integer(r->created_unix) : json_null());
	json_object_set_new(o, "shard", json_pack("{s:i, s:i}", "k", r->shard_k, "n", r->shard_n));
	json_object_set_new(o, "groups", json_integer(r->groups));
	json_object_set_new(o, "trials", json_integer(r->trials));
	json_object_set_new(o, "trials_ok", json_integer(r->trials_ok));
	json_object_set_new(o, "trials_unreadable", json_integer(r->trials_unreadable));
	json_object_set_new(o, "run_dir", json_string(r->run_dir));
	json_object_set_new(o, "imported_unix", json_integer(r->imported_unix));
	return o;
}

struct list_ctx {
	enum format format;
	json_t *array;
	size_t n;
};

static int list_one(const struct store_run *r, void *data)
{
	struct list_ctx *ctx = data;
	if (ctx->format == FORMAT_JSON) {
		json_array_append_new(ctx->array, run_to_json(r));
		return 0;
	}
	if (!ctx->n++)
		printf("%-34s %-14s %-16s %6s %9s  %s\n", "RUN", "EXPERIMENT", "PROFILE", "GROUPS",
		       "OK/TRIALS", "CREATED");
	char created[32], trials[32];
	format_time(created, sizeof(created), r->has_created, r->created_unix);
	snprintf(trials, sizeof(trials), "%ld/%ld", r->trials_ok, r->trials);
	printf("%-34s %-14s %-16s %6ld %9s  %s\n", r->run_id, or_dash(r->experiment),
	       or_dash(r->profile), r->groups, trials, created);
	return 0;
}

static void print_json(json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		puts(text);
	free(text);
	json_decref(j);
}

static int list_runs(struct store *s, enum format format)
{
	struct list_ctx ctx = { .format = format, .array = json_array() };
	struct strbuf err = STRBUF_INIT;
	if (store_list_runs(s, list_one, &ctx, &err) < 0)
		die("results: %s", strbuf_str(&err));
	strbuf_release(&err);
	if (format == FORMAT_JSON)
		print_json(ctx.array);
	else {
		json_decref(ctx.array);
		if (!ctx.n)
			note("results: no runs stored in %s yet", results_root());
	}
	return 0;
}

/* ---- one run ---- */

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *summary_to_json(const struct store_summary *sum)
{
	json_t *o = json_object(), *groups = json_array();
	json_object_set_new(o, "run", run_to_json(&sum->run));
	for (size_t i = 0; i < sum->n_groups; i++) {
		const struct store_group_summary *g = &sum->groups[i];
		json_t *jg = json_object(), *outcomes = json_object(), *metrics = json_array();
		json_object_set_new(jg, "label", json_string(g->label));
		json_object_set_new(jg, "variant", json_string(g->variant));
		json_object_set_new(jg, "kernel_hash",
				    g->kernel_hash ? json_string(g->kernel_hash) : json_null());
		json_object_set_new(jg, "trials", json_integer(g->trials));
		json_object_set_new(jg, "partial", json_integer(g->partial));
		for (size_t k = 0; k < g->n_outcomes; k++)
			json_object_set_new(outcomes, g->outcomes[k].outcome,
					    json_integer(g->outcomes[k].n));
		json_object_set_new(jg, "outcomes", outcomes);
		for (size_t k = 0; k < g->n_metrics; k++) {
			const struct store_metric_summary *m = &g->metrics[k];
			json_array_append_new(
				metrics, json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:o}", "name", m->name,
						   "unit", m->unit, "n", (int)m->n, "n_other",
						   (int)m->n_other, "median", number_or_null(m->median),
						   "min", number_or_null(m->min), "max",
						   number_or_null(m->max)));
		}
		json_object_set_new(jg, "metrics", metrics);
		json_array_append_new(groups, jg);
	}
	json_object_set_new(o, "groups", groups);
	return o;
}

static void print_number(double v)
{
	if (isfinite(v))
		printf(" %12.6g", v);
	else
		printf(" %12s", "-");
}

static void print_group(const struct store_group_summary *g, bool *footnote)
{
	bool aa = strcmp(g->label, g->variant) != 0;
	printf("\n%s", g->label);
	if (aa || g->kernel_hash)
		printf(" (%s%s%s%s%.12s)", aa ? "variant " : "", aa ? g->variant : "",
		       aa && g->kernel_hash ? ", " : "", g->kernel_hash ? "kernel " : "",
		       g->kernel_hash ? g->kernel_hash : "");
	printf(": %ld trial%s", g->trials, g->trials == 1 ? "" : "s");
	for (size_t k = 0; k < g->n_outcomes; k++)
		printf("%s %ld %s", k ? "," : ":", g->outcomes[k].n, g->outcomes[k].outcome);
	if (g->partial)
		printf("; %ld partial", g->partial);
	printf("\n");
	if (!g->n_metrics)
		return;
	int width = 6;
	for (size_t k = 0; k < g->n_metrics; k++)
		if ((int)strlen(g->metrics[k].name) > width)
			width = (int)strlen(g->metrics[k].name);
	printf("  %-*s %-7s %8s %12s %12s %12s\n", width, "METRIC", "UNIT", "N", "MEDIAN", "MIN",
	       "MAX");
	for (size_t k = 0; k < g->n_metrics; k++) {
		const struct store_metric_summary *m = &g->metrics[k];
		char n[32];
		if (m->n_other) {
			snprintf(n, sizeof(n), "%ld+%ld", m->n, m->n_other);
			*footnote = true;
		} else {
			snprintf(n, sizeof(n), "%ld", m->n);
		}
		printf("  %-*s %-7s %8s", width, m->name, or_dash(m->unit), n);
		print_number(m->median);
		print_number(m->min);
		print_number(m->max);
		printf("\n");
	}
}

static void print_summary(const struct store_summary *sum)
{
	const struct store_run *r = &sum->run;
	char created[32];
	format_time(created, sizeof(created), r->has_created, r->created_unix);
	printf("run %s: experiment %s, profile %s, baseline %s\n", r->run_id, or_dash(r->experiment),
	       or_dash(r->profile), or_dash(r->baseline));
	printf("created %s", created);
	if (r->has_seed)
		printf(", seed %lld", (long long)r->seed);
	if (r->shard_n > 1)
		printf(", shard %d of %d", r->shard_k, r->shard_n);
	printf(", %ld/%ld trials ok", r->trials_ok, r->trials);
	if (r->trials_unreadable)
		printf(" (%ld unreadable)", r->trials_unreadable);
	printf("\nfolder %s\n", r->run_dir);
	bool footnote = false;
	for (size_t i = 0; i < sum->n_groups; i++)
		print_group(&sum->groups[i], &footnote);
	if (footnote)
		printf("\nN 'n+k': k values from trials that did not end ok, left out of the figures.\n");
}

/* The folder RUN names: a run folder path, or <results>/RUN; NULL if none. */
static char *run_folder(const char *run)
{
	if (strchr(run, '/') && run_folder_is_run(run))
		return xstrdup(run);
	char *dir = xasprintf("%s/%s", results_root(), run);
	if (run_folder_is_run(dir))
		return dir;
	free(dir);
	return NULL;
}

static int show_run(struct store *s, const char *run, enum format format)
{
	char *dir = run_folder(run), *run_id = NULL;
	if (dir) {
		struct strbuf err = STRBUF_INIT;
		int need = store_run_needs_import(s, dir, &run_id, &err);
		if (need < 0)
			warning("results: %s", strbuf_str(&err));
		else if (need && import_dir(s, dir, true, &run_id) == STORE_EDB)
			exit(1);
		strbuf_release(&err);
		free(dir);
	}
	struct store_summary sum;
	struct strbuf err = STRBUF_INIT;
	int rc = store_run_summary(s, run_id ? run_id : run, &sum, &err);
	if (rc < 0)
		die("results: %s", strbuf_str(&err));
	if (rc == 0)
		die_usage("results: no run '%s' (see lab results)", run);
	if (format == FORMAT_JSON)
		print_json(summary_to_json(&sum));
	else
		print_summary(&sum);
	store_summary_clear(&sum);
	strbuf_release(&err);
	free(run_id);
	return 0;
}

/* Finishes every trial of a run again (trial-finish.h); a trial that fails is named, the rest go on. */
static void recompute_run(const char *run)
{
	struct run_data rd = { .quiet = true };
	struct strbuf err = STRBUF_INIT;
	if (run_data_add(&rd, run, &err) < 0)
		die_usage("results: %s", err.buf);
	size_t done = 0, failed = 0;
	for (size_t i = 0; i < rd.n; i++) {
		const struct run_trial *t = &rd.trials[i];
		/* a boot of restores: each restore again, then their merge */
		strbuf_reset(&err);
		int restored = trial_restores_refinish(t->dir, &err);
		if (restored) {
			if (restored < 0) {
				warning("%s: %s", t->dir, err.buf);
				failed++;
			} else {
				done++;
			}
			continue;
		}
		json_t *record = trial_record_load(t->dir, TRIAL_RECORD);
		bool rebuilt = !record && (record = trial_record_load(t->dir, TRIAL_RECORD_GIVEN));
		strbuf_reset(&err);
		if (!record || trial_finish(t->dir, record, &err) < 0) {
			warning("%s: %s", t->dir, record ? err.buf
				: "neither trial.json nor record.json has an outcome: the trial never "
				  "finished (lab run --resume runs it)");
			failed++;
		} else {
			if (rebuilt)
				note("%s: trial.json rebuilt from record.json and the raw channels", t->dir);
			done++;
		}
		json_decref(record);
	}
	note("recomputed %zu trial%s%s", done, done == 1 ? "" : "s",
	     failed ? " (some could not be, see above)" : "");
	strbuf_release(&err);
	run_data_free(&rd);
}

int cmd_results(int argc, char **argv)
{
	struct strlist imports = STRLIST_INIT;
	static const char *const formats[] = { [FORMAT_TEXT] = "text", [FORMAT_JSON] = "json", NULL };
	const char *db = NULL, *merge_out = NULL;
	int format = FORMAT_TEXT;
	bool merge = false, recompute = false;
	const struct opt opts[] = {
		OPT_CALL('i', "import", &imports, "DIR", opt_push,
			 "import the run folder DIR (repeatable; again replaces it)"),
		OPT_FLAG(0, "merge", &merge,
			 "the RUNs are shards of one run (lab run --shard K/N): link their trials "
			 "into one run folder, import it and show it; lab compare takes the merged "
			 "run like any other"),
		OPT_STRING('o', "out", &merge_out, "DIR",
			   "the merged run folder (default: <results>/<first>-merged)"),
		OPT_FLAG(0, "recompute", &recompute,
			 "finish each trial again from its raw channels, as lab run does: split "
			 "files.bin, decode perf.data, recompute the metrics into trial.json (the "
			 "same inputs give the same trial.json; an unreadable trial.json is rebuilt "
			 "from record.json, the record the boot gave), then import the run"),
		OPT_STRING(0, "db", &db, "PATH", "the database to use"),
		OPT_CHOICE('f', "format", &format, "F", formats, "text (default) or json"),
		OPT_END(),
	};
	int n = lab_parse_options("results", argc, argv, opts, results_usage, NULL);
	char *merged = NULL;
	if (merge) {
		struct strlist shards = STRLIST_INIT;
		for (int i = 1; i <= n; i++)
			strlist_push(&shards, argv[i]);
		char *first = shards.n ? run_dir_resolve(shards.items[0]) : xstrdup("run");
		merged = merge_out ? xstrdup(merge_out) : xasprintf("%s-merged", first);
		struct strbuf merr = STRBUF_INIT;
		if (run_merge(&shards, merged, &merr) < 0)
			die_usage("results: --merge: %s", merr.buf);
		note("merged %zu shards into %s", shards.n, merged);
		free(first);
		strlist_clear(&shards);
		n = 0;
	} else if (merge_out) {
		die_usage("results: --out goes with --merge");
	}
	if (n > 1)
		die_usage("results: name one run at most (unexpected '%s')", argv[2]);
	const char *run = merged ? merged : n ? argv[1] : NULL;
	if (recompute) {
		if (!run)
			die_usage("results: --recompute needs a run");
		recompute_run(run);
	}

	char *path = db ? xstrdup(db) : store_default_path();
	struct store *s;
	struct strbuf err = STRBUF_INIT;
	int rc = store_open(path, &s, &err);
	if (rc < 0) {
		error("results: %s", strbuf_str(&err));
		exit(rc == STORE_EINPUT ? EXIT_USAGE : 1);
	}
	strbuf_release(&err);

	int status = 0;
	for (size_t i = 0; i < imports.n; i++) {
		rc = import_dir(s, imports.items[i], true, NULL);
		if (rc == STORE_EDB)
			status = 1;
		else if (rc < 0 && !status)
			status = EXIT_USAGE;
	}
	/* a run on Slurm: its jobs first, then the merged run once there is one */
	struct slurm_run slurm;
	int on_slurm = run && !merged && format == FORMAT_TEXT ? slurm_run_find(run, &slurm, &err) : 0;
	if (on_slurm < 0)
		die_usage("results: %s", strbuf_str(&err));
	if (on_slurm) {
		slurm_run_progress(&slurm, stdout);
		if (run_folder_is_run(slurm.run_dir)) {
			printf("\n");
			status = show_run(s, slurm.run_dir, format) ? 1 : status;
		}
		slurm_run_clear(&slurm);
	} else if (run)
		status = show_run(s, run, format) ? 1 : status;
	else if (!imports.n) {
		sync_results(s);
		status = list_runs(s, format);
	}
	store_close(s);
	strlist_clear(&imports);
	free(path);
	free(merged);
	return status;
}
