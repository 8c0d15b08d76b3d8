/* store_import.c - importing a run folder into the results store.
 *
 * The folder is read first (run.json, every trial.json) without holding any
 * lock; then one IMMEDIATE transaction deletes the run's old rows (the
 * foreign keys cascade to groups, trials, metrics and victims) and inserts
 * the new ones. A reader sees the old run or the new one, never a mix, and
 * concurrent importers of the same run take turns.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/run-folder.h"
#include "common/trial-record.h"
#include "store.h"
#include "store_internal.h"

/* ---- what was read from the folder ---- */

struct group_in {
	const char *label, *variant, *hash;	/* into run.json */
	sqlite3_int64 id;
};

struct trial_in {
	const struct store_trial_dir *dir;
	size_t group;
	json_t *record;		/* trial.json, NULL when unusable */
	char *error;		/* why it is unusable, or why it has no outcome */
};

struct run_in {
	char *dir;		/* absolute */
	char *text;		/* run.json as read */
	json_t *json;
	const char *run_id, *experiment;
	json_int_t shard_k, shard_n;
	struct store_run_scan scan;
	struct group_in *groups;
	size_t n_groups, alloc_groups;
	struct trial_in *trials;
	size_t n_trials;
};

static const char *jstr(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s && *s ? s : NULL;
}

static bool jint(const json_t *obj, const char *key, json_int_t *v)
{
	const json_t *j = json_object_get(obj, key);
	if (json_is_integer(j)) {
		*v = json_integer_value(j);
		return true;
	}
	if (json_is_real(j) && json_real_value(j) == (double)(json_int_t)json_real_value(j)) {
		*v = (json_int_t)json_real_value(j);
		return true;
	}
	if (json_is_boolean(j)) {
		*v = json_is_true(j);
		return true;
	}
	return false;
}

static void problem(struct store_import_report *report, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void problem(struct store_import_report *report, const char *fmt, ...)
{
	if (!report)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strlist_push_owned(&report->problems, strbuf_detach(&sb));
}

static size_t find_group(const struct run_in *run, const char *label)
{
	for (size_t i = 0; i < run->n_groups; i++)
		if (!strcmp(run->groups[i].label, label))
			return i;
	return SIZE_MAX;
}

static void add_group(struct run_in *run, struct group_in g)
{
	ALLOC_GROW(run->groups, run->n_groups + 1, run->alloc_groups);
	run->groups[run->n_groups++] = g;
}

/* The groups: run.json's, in its order (common/run-folder.h). A subfolder of
 * trial folders it does not list is named, and its trials are left out. */
static void read_groups(struct run_in *run, struct store_import_report *report)
{
	const json_t *groups = json_object_get(run->json, "groups"), *g;
	size_t i;
	struct strlist labels = STRLIST_INIT;
	json_array_foreach(groups, i, g) {
		const char *label = run_folder_group_label(g);
		if (!label) {
			problem(report, "run.json: group %zu has no label", i);
			continue;
		}
		if (find_group(run, label) != SIZE_MAX) {
			problem(report, "run.json: group %s is listed twice", label);
			continue;
		}
		strlist_push(&labels, label);
		add_group(run, (struct group_in){ .label = label,
						  .variant = jstr(g, "variant") ? jstr(g, "variant") : label,
						  .hash = jstr(g, "hash") });
	}
	struct strlist unlisted = STRLIST_INIT;
	run_folder_unlisted_groups(run->dir, &labels, &unlisted);
	for (size_t u = 0; u < unlisted.n; u++)
		problem(report, "%s/: trial folders of a group run.json does not list: left out", unlisted.items[u]);
	strlist_clear(&unlisted);
	strlist_clear(&labels);
}

static char *trial_name(const struct store_trial_dir *dir)
{
	const char *base = strrchr(dir->path, '/');
	return xasprintf("%s/%s", dir->label, base ? base + 1 : dir->path);
}

static void read_trial(struct trial_in *t)
{
	struct trial_record r;
	if (trial_record_read(t->dir->path, &r) == TRIAL_FINISHED) {
		t->record = r.json;
		r.json = NULL;
	} else {
		t->error = r.why;
		r.why = NULL;
	}
	trial_record_release(&r);
}

static int read_run(struct run_in *run, const char *run_dir, struct store_import_report *report,
		    struct strbuf *err)
{
	char abs[PATH_MAX];
	if (!realpath(run_dir, abs)) {
		strbuf_addf(err, "no run folder %s: %s", run_dir, strerror(errno));
		return STORE_EINPUT;
	}
	if (!is_dir(abs)) {
		strbuf_addf(err, "%s is not a run folder (not a directory)", run_dir);
		return STORE_EINPUT;
	}
	run->dir = xstrdup(abs);
	/* The fingerprint first: whatever changes while we read makes it stale. */
	int rc = store_scan_run(run->dir, &run->scan, err);
	if (rc < 0)
		return rc;
	char *path = xasprintf("%s/" RUN_JSON, run->dir);
	struct strbuf why = STRBUF_INIT;
	run->json = run_folder_load_text(run->dir, &run->text, &why);
	if (!run->json) {
		strbuf_addf(err, "%s: %s", path, why.buf);
		strbuf_release(&why);
		free(path);
		return STORE_EINPUT;
	}
	run->run_id = jstr(run->json, "run_id");
	run->experiment = jstr(run->json, "experiment");
	const json_t *shard = json_object_get(run->json, "shard");
	run->shard_k = run->shard_n = 1;
	if (shard && (!jint(shard, "k", &run->shard_k) || !jint(shard, "n", &run->shard_n) ||
		      run->shard_n < 1 || run->shard_k < 1 || run->shard_k > run->shard_n)) {
		strbuf_addf(err, "%s: shard wants {\"k\": K, \"n\": N} with 1 <= K <= N", path);
		free(path);
		return STORE_EINPUT;
	}
	if (!run->run_id || !run->experiment) {
		strbuf_addf(err, "%s: no %s", path, run->run_id ? "experiment" : "run_id");
		free(path);
		return STORE_EINPUT;
	}
	free(path);

	read_groups(run, report);
	run->n_trials = 0;
	run->trials = xcalloc(run->scan.n_trials ? run->scan.n_trials : 1, sizeof(*run->trials));
	for (size_t i = 0; i < run->scan.n_trials; i++) {
		struct trial_in *t = &run->trials[run->n_trials];
		t->dir = &run->scan.trials[i];
		t->group = find_group(run, t->dir->label);
		if (t->group == SIZE_MAX)
			continue;
		run->n_trials++;
		read_trial(t);
		char *name = trial_name(t->dir);
		if (t->error)
			problem(report, "%s: %s", name, t->error);
		/* compare, report and export derive them on loading (run-data.h); the store does not */
		else if (!json_is_array(json_object_get(t->record, "metrics")))
			problem(report, "%s: trial.json has no metrics: stored without them (lab results "
					"--recompute writes them)", name);
		free(name);
	}
	return 0;
}

static void run_in_clear(struct run_in *run)
{
	for (size_t i = 0; i < run->n_trials; i++) {
		json_decref(run->trials[i].record);
		free(run->trials[i].error);
	}
	free(run->groups);
	free(run->trials);
	json_decref(run->json);
	free(run->text);
	free(run->dir);
	store_run_scan_clear(&run->scan);
}

/* ---- writing it ---- */

struct statements {
	sqlite3_stmt *delete_run, *run, *group, *profile, *trial, *metric, *victim, *drop_profiles;
};

static const struct {
	size_t offset;
	const char *sql;
} statement_sql[] = {
	{ offsetof(struct statements, delete_run), "DELETE FROM runs WHERE run_id = :run_id" },
	{ offsetof(struct statements, run),
	  "INSERT INTO runs (run_id, experiment, experiment_file, profile, baseline,\n"
	  "                  trials_per_group, seed, created_unix, shard_k, shard_n, run_json,\n"
	  "                  run_dir, source_mtime_ns, source_files, imported_unix)\n"
	  "VALUES (:run_id, :experiment, :experiment_file, :profile, :baseline, :trials_per_group,\n"
	  "        :seed, :created_unix, :shard_k, :shard_n, :run_json, :run_dir, :mtime_ns,\n"
	  "        :files, :now)" },
	{ offsetof(struct statements, group),
	  "INSERT INTO run_groups (run, label, variant, kernel_hash, position, in_run_json)\n"
	  "VALUES (:run, :label, :variant, :hash, :position, :in_run_json)" },
	{ offsetof(struct statements, profile),
	  "INSERT INTO profiles (name, profile_json) VALUES (:name, :json)\n"
	  "ON CONFLICT (name, profile_json) DO UPDATE SET name = excluded.name\n"
	  "RETURNING id" },
	{ offsetof(struct statements, trial),
	  "INSERT INTO trials (grp, trial_index, order_position, outcome, exit_status, qemu_status,\n"
	  "                    detail, partial, wall_seconds_to_ready, guest_uptime_at_ready,\n"
	  "                    wall_seconds_total, accelerator, variant_hash, started_unix,\n"
	  "                    lost_events, profile, environment_json, trial_dir, record_error,\n"
	  "                    clock, clock_settings, files_hash)\n"
	  "VALUES (:grp, :trial_index, :order_position, :outcome, :exit_status, :qemu_status,\n"
	  "        :detail, :partial, :wall_seconds_to_ready, :guest_uptime_at_ready,\n"
	  "        :wall_seconds_total, :accelerator, :variant_hash, :started_unix,\n"
	  "        :lost_events, :profile, :environment_json, :trial_dir, :record_error,\n"
	  "        :clock, :clock_settings, :files_hash)" },
	{ offsetof(struct statements, metric),
	  "INSERT INTO metrics (trial, name, value, unit, source)\n"
	  "VALUES (:trial, :name, :value, :unit, :source)" },
	{ offsetof(struct statements, victim),
	  "INSERT INTO victims (trial, position, pid, comm, oom_constraint, anon_rss_kb,\n"
	  "                     file_rss_kb, shmem_rss_kb, oom_score_adj, killed_ns,\n"
	  "                     mark_victim_ns, wake_reaper_ns, start_reaping_ns,\n"
	  "                     finish_reaping_ns, skip_reaping_ns, exit_ns, reaped_before_exit)\n"
	  "VALUES (:trial, :position, :pid, :comm, :constraint, :anon_rss_kb, :file_rss_kb,\n"
	  "        :shmem_rss_kb, :oom_score_adj, :killed_ns, :mark_victim_ns, :wake_reaper_ns,\n"
	  "        :start_reaping_ns, :finish_reaping_ns, :skip_reaping_ns, :exit_ns,\n"
	  "        :reaped_before_exit)" },
	{ offsetof(struct statements, drop_profiles),
	  "DELETE FROM profiles\n"
	  "WHERE NOT EXISTS (SELECT 1 FROM trials WHERE trials.profile = profiles.id)" },
};

static sqlite3_stmt **statement_at(struct statements *sts, size_t i)
{
	return (sqlite3_stmt **)((char *)sts + statement_sql[i].offset);
}

static int prepare_all(struct store *s, struct statements *sts, struct strbuf *err)
{
	memset(sts, 0, sizeof(*sts));
	for (size_t i = 0; i < sizeof(statement_sql) / sizeof(statement_sql[0]); i++)
		if (store_prepare(s, statement_sql[i].sql, statement_at(sts, i), err) < 0)
			return STORE_EDB;
	return 0;
}

static void finalize_all(struct statements *sts)
{
	for (size_t i = 0; i < sizeof(statement_sql) / sizeof(statement_sql[0]); i++)
		sqlite3_finalize(*statement_at(sts, i));
}

/* Binding by name; NULL or absent values bind NULL. A name the statement
 * lacks is a bug here, not bad input. */
static int param(sqlite3_stmt *st, const char *name)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (!i)
		die("store: no parameter %s in: %s", name, sqlite3_sql(st));
	return i;
}

static void bind_text(sqlite3_stmt *st, const char *name, const char *value)
{
	store_bind_str(st, param(st, name), value);
}

static void bind_int(sqlite3_stmt *st, const char *name, sqlite3_int64 value)
{
	sqlite3_bind_int64(st, param(st, name), value);
}

static void bind_jstr(sqlite3_stmt *st, const char *name, const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	store_bind_str(st, param(st, name), s);
}

static void bind_jint(sqlite3_stmt *st, const char *name, const json_t *obj, const char *key)
{
	json_int_t v;
	if (jint(obj, key, &v))
		sqlite3_bind_int64(st, param(st, name), v);
	else
		sqlite3_bind_null(st, param(st, name));
}

static void bind_jreal(sqlite3_stmt *st, const char *name, const json_t *obj, const char *key)
{
	const json_t *j = json_object_get(obj, key);
	if (json_is_number(j))
		sqlite3_bind_double(st, param(st, name), json_number_value(j));
	else
		sqlite3_bind_null(st, param(st, name));
}

/* Runs ST (already bound) to completion, then resets and unbinds it. */
static int step_done(struct store *s, sqlite3_stmt *st, const char *what, struct strbuf *err)
{
	int ret = store_step(s, st, what, err);   /* an INSERT or UPDATE: no row */
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return ret;
}

static int insert_run(struct store *s, struct statements *sts, struct run_in *run,
		      sqlite3_int64 *id, struct strbuf *err)
{
	sqlite3_stmt *st = sts->run;
	const json_t *j = run->json;
	bind_text(st, ":run_id", run->run_id);
	bind_text(st, ":experiment", run->experiment);
	bind_jstr(st, ":experiment_file", j, "experiment_file");
	bind_jstr(st, ":profile", j, "profile");
	bind_jstr(st, ":baseline", j, "baseline");
	bind_jint(st, ":trials_per_group", j, "trials_per_group");
	bind_jint(st, ":seed", j, "seed");
	bind_jint(st, ":created_unix", j, "created_unix");
	bind_int(st, ":shard_k", run->shard_k);
	bind_int(st, ":shard_n", run->shard_n);
	bind_text(st, ":run_json", run->text);
	bind_text(st, ":run_dir", run->dir);
	bind_int(st, ":mtime_ns", run->scan.mtime_ns);
	bind_int(st, ":files", run->scan.files);
	bind_int(st, ":now", (sqlite3_int64)time(NULL));
	if (step_done(s, st, "storing the run", err) < 0)
		return STORE_EDB;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int insert_groups(struct store *s, struct statements *sts, struct run_in *run,
			 sqlite3_int64 run_row, struct strbuf *err)
{
	sqlite3_stmt *st = sts->group;
	for (size_t i = 0; i < run->n_groups; i++) {
		struct group_in *g = &run->groups[i];
		bind_int(st, ":run", run_row);
		bind_text(st, ":label", g->label);
		bind_text(st, ":variant", g->variant);
		bind_text(st, ":hash", g->hash);
		bind_int(st, ":position", (sqlite3_int64)i);
		/* every stored group is one run.json lists (common/run-folder.h) */
		bind_int(st, ":in_run_json", 1);
		if (step_done(s, st, "storing a group", err) < 0)
			return STORE_EDB;
		g->id = sqlite3_last_insert_rowid(s->db);
	}
	return 0;
}

/* The profile's row (shared by content), or 0 when the trial has none. */
static int profile_row(struct store *s, struct statements *sts, const struct run_in *run,
		       const json_t *env, sqlite3_int64 *id, struct strbuf *err)
{
	const json_t *p = json_object_get(env, "profile");
	*id = 0;
	if (!json_is_object(p))
		return 0;
	char *text = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	const char *name = jstr(p, "name") ? jstr(p, "name") : jstr(run->json, "profile");
	sqlite3_stmt *st = sts->profile;
	bind_text(st, ":name", name ? name : "(unnamed)");
	bind_text(st, ":json", text);
	int rc = store_step(s, st, "storing a profile", err);
	if (rc == STORE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc == 0)
		rc = store_fail(s, err, "storing a profile");   /* no id came back */
	free(text);
	int ret = rc < 0 ? rc : 0;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return ret;
}

/* The trial's place in run.json's "order", or -1. */
static json_int_t order_position(const struct run_in *run, const char *label, unsigned index)
{
	const json_t *order = json_object_get(run->json, "order"), *o;
	size_t i;
	json_array_foreach(order, i, o) {
		json_int_t at;
		const char *l = jstr(o, "label");
		if (l && !strcmp(l, label) && jint(o, "index", &at) && at == (json_int_t)index)
			return (json_int_t)i;
	}
	return -1;
}

static int insert_metrics(struct store *s, struct statements *sts, const struct trial_in *t,
			  sqlite3_int64 trial_row, struct store_import_report *report,
			  struct strbuf *err)
{
	const json_t *metrics = json_object_get(t->record, "metrics"), *m;
	size_t i;
	json_array_foreach(metrics, i, m) {
		const char *name = jstr(m, "name");
		const json_t *value = json_object_get(m, "value");
		if (!name || !json_is_number(value)) {
			char *where = trial_name(t->dir);
			problem(report, "%s: metric %zu (%s) has no %s", where, i, name ? name : "?",
				name ? "numeric value" : "name");
			free(where);
			continue;
		}
		sqlite3_stmt *st = sts->metric;
		bind_int(st, ":trial", trial_row);
		bind_text(st, ":name", name);
		sqlite3_bind_double(st, param(st, ":value"), json_number_value(value));
		const char *unit = json_string_value(json_object_get(m, "unit"));
		bind_text(st, ":unit", unit ? unit : "");
		bind_jstr(st, ":source", m, "source");
		if (step_done(s, st, "storing a metric", err) < 0)
			return STORE_EDB;
		if (report)
			report->metrics++;
	}
	return 0;
}

static int insert_victims(struct store *s, struct statements *sts, const struct trial_in *t,
			  sqlite3_int64 trial_row, struct store_import_report *report,
			  struct strbuf *err)
{
	static const char *const ints[] = {
		"pid", "anon_rss_kb", "file_rss_kb", "shmem_rss_kb", "oom_score_adj", "killed_ns",
		"mark_victim_ns", "wake_reaper_ns", "start_reaping_ns", "finish_reaping_ns",
		"skip_reaping_ns", "exit_ns", "reaped_before_exit",
	};
	const json_t *victims = json_object_get(t->record, "victims"), *v;
	size_t i;
	json_array_foreach(victims, i, v) {
		sqlite3_stmt *st = sts->victim;
		bind_int(st, ":trial", trial_row);
		bind_int(st, ":position", (sqlite3_int64)i);
		bind_jstr(st, ":comm", v, "comm");
		bind_jstr(st, ":constraint", v, "constraint");
		for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
			char pname[40];
			snprintf(pname, sizeof(pname), ":%s", ints[k]);
			bind_jint(st, pname, v, ints[k]);
		}
		if (step_done(s, st, "storing a victim", err) < 0)
			return STORE_EDB;
		if (report)
			report->victims++;
	}
	return 0;
}

static int insert_trial(struct store *s, struct statements *sts, const struct run_in *run,
			const struct trial_in *t, struct store_import_report *report,
			struct strbuf *err)
{
	const json_t *env = json_object_get(t->record, "environment");
	const json_t *out = json_object_get(t->record, "outcome");
	sqlite3_int64 profile = 0;
	if (profile_row(s, sts, run, env, &profile, err) < 0)
		return STORE_EDB;
	char *env_text = NULL;
	if (json_is_object(env)) {
		json_t *copy = json_deep_copy(env);
		json_object_del(copy, "profile");
		env_text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(copy);
	}
	sqlite3_stmt *st = sts->trial;
	json_int_t pos = order_position(run, t->dir->label, t->dir->index);
	bind_int(st, ":grp", run->groups[t->group].id);
	bind_int(st, ":trial_index", t->dir->index);
	if (pos >= 0)
		bind_int(st, ":order_position", pos);
	if (!t->error)
		bind_jstr(st, ":outcome", out, "outcome");
	bind_jint(st, ":exit_status", out, "exit_status");
	bind_jint(st, ":qemu_status", out, "qemu_status");
	bind_jstr(st, ":detail", out, "detail");
	bind_int(st, ":partial", json_is_true(json_object_get(t->record, "partial")));
	bind_jreal(st, ":wall_seconds_to_ready", out, "wall_seconds_to_ready");
	bind_jreal(st, ":guest_uptime_at_ready", out, "guest_uptime_at_ready");
	bind_jreal(st, ":wall_seconds_total", out, "wall_seconds_total");
	bind_jstr(st, ":accelerator", env, "accelerator");
	bind_jstr(st, ":variant_hash", env, "variant_hash");
	bind_jint(st, ":started_unix", env, "started_unix");
	bind_jint(st, ":lost_events", t->record, "lost_events");
	if (profile)
		bind_int(st, ":profile", profile);
	bind_text(st, ":environment_json", env_text);
	if (json_is_object(env)) {
		/* a record from before clocks ran on the host's clock */
		const json_t *clock = json_object_get(env, "clock");
		const char *name = json_string_value(json_object_get(clock, "name"));
		const char *settings = json_string_value(json_object_get(clock, "settings"));
		bind_text(st, ":clock", name ? name : "realtime");
		bind_text(st, ":clock_settings", settings ? settings : "");
		/* NULL: the guest had no files of the user's */
		bind_text(st, ":files_hash",
			  json_string_value(json_object_get(json_object_get(env, "files"), "hash")));
	}
	bind_text(st, ":trial_dir", t->dir->path);
	bind_text(st, ":record_error", t->error);
	int rc = step_done(s, st, "storing a trial", err);
	free(env_text);
	if (rc < 0)
		return rc;
	sqlite3_int64 row = sqlite3_last_insert_rowid(s->db);
	if (report) {
		report->trials++;
		report->trials_unreadable += t->error != NULL;
	}
	if (!t->record)
		return 0;
	if (insert_metrics(s, sts, t, row, report, err) < 0 ||
	    insert_victims(s, sts, t, row, report, err) < 0)
		return STORE_EDB;
	return 0;
}

/* Runs are keyed by run id: a run of this id stored from another folder that
 * still holds it is another run (a copy, or a clash of ids), never replaced by
 * this one. A run whose folder moved, or was replaced, is replaced. */
static int check_one_folder(struct store *s, const struct run_in *run, struct strbuf *err)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT run_dir FROM runs WHERE run_id = ?", &st, err) < 0)
		return STORE_EDB;
	sqlite3_bind_text(st, 1, run->run_id, -1, SQLITE_TRANSIENT);
	int rc = store_step(s, st, "looking up a run id", err);
	char *stored = rc == STORE_ROW ? store_column_str(st, 0) : NULL;
	sqlite3_finalize(st);
	if (rc < 0)
		return rc;
	rc = 0;
	if (stored && strcmp(stored, run->dir)) {
		struct strbuf why = STRBUF_INIT;
		json_t *other = run_folder_load(stored, &why);
		const char *id = json_string_value(json_object_get(other, "run_id"));
		if (id && !strcmp(id, run->run_id)) {
			strbuf_addf(err, "run id %s is stored from %s, which still holds it: %s is "
				    "another folder of the same id, not merged with it (give one a "
				    "run_id of its own in its run.json)", run->run_id, stored, run->dir);
			rc = STORE_EINPUT;
		}
		json_decref(other);
		strbuf_release(&why);
	}
	free(stored);
	return rc;
}

static int write_run(struct store *s, struct run_in *run, struct store_import_report *report,
		     struct strbuf *err)
{
	struct statements sts;
	int rc = prepare_all(s, &sts, err);
	if (rc < 0)
		goto out;
	if ((rc = store_exec(s, "BEGIN IMMEDIATE", err)) < 0)
		goto out;
	if ((rc = check_one_folder(s, run, err)) < 0)
		goto rollback;
	bind_text(sts.delete_run, ":run_id", run->run_id);
	sqlite3_int64 run_row;
	if ((rc = step_done(s, sts.delete_run, "deleting the run's old rows", err)) < 0 ||
	    (rc = insert_run(s, &sts, run, &run_row, err)) < 0 ||
	    (rc = insert_groups(s, &sts, run, run_row, err)) < 0)
		goto rollback;
	for (size_t i = 0; i < run->n_trials; i++)
		if ((rc = insert_trial(s, &sts, run, &run->trials[i], report, err)) < 0)
			goto rollback;
	if ((rc = step_done(s, sts.drop_profiles, "dropping unused profiles", err)) < 0)
		goto rollback;
	/* Statements must be done before COMMIT; they are (reset after each step). */
	if ((rc = store_exec(s, "COMMIT", err)) == 0)
		goto out;
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
out:
	finalize_all(&sts);
	return rc;
}

void store_import_report_clear(struct store_import_report *r)
{
	free(r->run_id);
	strlist_clear(&r->problems);
	memset(r, 0, sizeof(*r));
}

int store_import_run(struct store *s, const char *run_dir, struct store_import_report *report,
		     struct strbuf *err)
{
	struct run_in run = { 0 };
	if (report)
		memset(report, 0, sizeof(*report));
	int rc = read_run(&run, run_dir, report, err);
	if (rc == 0) {
		if (report)
			report->run_id = xstrdup(run.run_id);
		rc = write_run(s, &run, report, err);
		if (report)
			report->groups = rc == 0 ? run.n_groups : 0;
	}
	if (rc < 0 && report) {
		/* Nothing was stored: the counts would mislead. */
		report->trials = report->trials_unreadable = report->metrics = report->victims = 0;
	}
	run_in_clear(&run);
	return rc;
}
