/* store.h - the results store: every imported run in one SQLite database.
 *
 * A run folder (docs/FORMATS.md) is the record of truth; the store is an
 * index over many of them that analysis can query with SQL. Importing a run
 * replaces that run's rows inside one transaction, so importing twice (or
 * from several processes at once) never duplicates anything.
 *
 * The database: $OOMLAB_DB, else <results_root()>/oomlab.sqlite. It is opened
 * in WAL mode with foreign keys on and a busy timeout, so several lab
 * processes may read and import at the same time. The schema is in
 * store_schema.c (tables runs, groups, profiles, trials, metrics, victims;
 * PRAGMA user_version and the schema_version table give its version).
 *
 * Usage:
 *   struct store *s;
 *   struct strbuf err = STRBUF_INIT;
 *   char *path = store_default_path();
 *   if (store_open(path, &s, &err) < 0 ||
 *       store_import_run(s, "results/quick-20261130-101500", NULL, &err) < 0)
 *           die("%s", err.buf);
 *   store_close(s);
 *
 * Errors: functions returning int give -1 (STORE_EDB) for a database or
 * system failure and -2 (STORE_EINPUT) for unusable input (no such run
 * folder, unreadable run.json); a one-line message is appended to ERR.
 */
#ifndef OOMLAB_STORE_H
#define OOMLAB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "common/util.h"
#include "store_errors.h"

/* Milliseconds a connection waits for another process's lock. */
#define STORE_BUSY_TIMEOUT_MS 10000

struct store;

/* $OOMLAB_DB, else <results_root()>/oomlab.sqlite; malloc'd. */
char *store_default_path(void);

/* Opens (and creates, with its parent folder) the database at PATH, brings
 * its schema up to date, and returns it in *OUT. A database of a newer
 * schema than this lab knows, or not made by oomlab, is an error. */
int store_open(const char *path, struct store **out, struct strbuf *err);
void store_close(struct store *s);
/* The connection, for SQL the API does not cover (tests, ad hoc analysis). */
sqlite3 *store_db(struct store *s);

/* What an import found. Trials whose trial.json is missing or unreadable
 * are stored with outcome NULL and their record_error, counted in
 * trials_unreadable, and described one a line in problems. */
struct store_import_report {
	char *run_id;
	size_t groups, trials, trials_unreadable, metrics, victims;
	struct strlist problems;
};
void store_import_report_clear(struct store_import_report *r);

/* Imports the run folder RUN_DIR: run.json and every <label>/<index>/
 * trial.json under it. REPORT may be NULL. */
int store_import_run(struct store *s, const char *run_dir, struct store_import_report *report,
		     struct strbuf *err);

/* 1 when the run folder RUN_DIR must be imported for the store to be up to
 * date (no run was imported from it, or it changed since), else 0 and, when
 * RUN_ID is not NULL, the stored run's id in *RUN_ID (malloc'd). */
int store_run_needs_import(struct store *s, const char *run_dir, char **run_id,
			   struct strbuf *err);

/* One stored run, as listed. Strings are NULL when run.json lacked them. */
struct store_run {
	char *run_id, *experiment, *profile, *baseline, *run_dir;
	int64_t seed, created_unix, imported_unix;
	bool has_seed, has_created;
	int shard_k, shard_n;
	long groups, trials, trials_ok, trials_unreadable;
};
void store_run_clear(struct store_run *r);

/* Calls FN for every run, newest (created) first; FN returning nonzero
 * stops the listing and that value is returned. */
typedef int (*store_run_fn)(const struct store_run *run, void *ctx);
int store_list_runs(struct store *s, store_run_fn fn, void *ctx, struct strbuf *err);
/* 1 and *OUT filled when RUN_ID is stored, 0 when not. */
int store_find_run(struct store *s, const char *run_id, struct store_run *out, struct strbuf *err);

/* A run's summary. Metric statistics use the trials whose outcome is "ok"
 * (as the comparison does); n_other counts the values that trials ending
 * otherwise reported, which are left out. median is the middle value, or
 * the mean of the middle two; with n == 0 median/min/max are NAN. */
struct store_outcome_count {
	char *outcome;			/* "ok", "panic", ...; "unreadable" */
	long n;
};

struct store_metric_summary {
	char *name, *unit;		/* unit: "" when none was given */
	long n, n_other;
	double median, min, max;
};

struct store_group_summary {
	char *label, *variant, *kernel_hash;
	long trials, partial;
	struct store_outcome_count *outcomes;	/* "ok" first, then by name */
	size_t n_outcomes, alloc_outcomes;
	struct store_metric_summary *metrics;	/* by name */
	size_t n_metrics, alloc_metrics;
};

struct store_summary {
	struct store_run run;
	struct store_group_summary *groups;	/* in run.json's order */
	size_t n_groups;
};

/* 1 and *OUT filled when RUN_ID is stored, 0 when not. */
int store_run_summary(struct store *s, const char *run_id, struct store_summary *out,
		      struct strbuf *err);
void store_summary_clear(struct store_summary *sum);
/* Trials of outcome OUTCOME in G (0 when none). */
long store_group_outcome(const struct store_group_summary *g, const char *outcome);

/* How long trials like a planned one took before: the wall time (boot to
 * the end, trial.json's wall_seconds_total) of the stored ok trials of
 * PROFILE on CLOCK with APIC_TIMER (environment.apic_timer.name; NULL: any:
 * a calibrated icount trial took 16-18 s more than a given one in the seed
 * runs of docs/CLOCKS.md), of EXPERIMENT;
 * with fewer than STORE_ESTIMATE_MIN_TRIALS of those, of any experiment
 * (ANY_EXPERIMENT), else none (n 0, median NAN). The trials ran at
 * whatever -j their runs had. */
#define STORE_ESTIMATE_MIN_TRIALS 3
struct store_trial_seconds {
	long n;
	double median, p90;
	bool any_experiment;
};
int store_trial_seconds(struct store *s, const char *experiment, const char *profile, const char *clock,
			const char *apic_timer, struct store_trial_seconds *out, struct strbuf *err);

#endif
