/* store_schema.c - the results store's tables and their migrations.
 *
 * PRAGMA user_version is the schema version (the schema_version table
 * records when each was applied); PRAGMA application_id marks the file as an
 * oomlab store. migrations[i] takes a database from version i to i + 1; a
 * new version appends a step here and bumps STORE_SCHEMA_VERSION.
 *
 * Ownership: runs own their groups, groups their trials, trials their
 * metrics and victims (ON DELETE CASCADE), so deleting a run's row removes
 * everything imported from its folder. Profiles are shared by content
 * between trials and runs; the import drops the ones nothing refers to.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store_errors.h"
#include "store_internal.h"

static const char schema_v1[] =
	"CREATE TABLE schema_version (\n"
	"	version      INTEGER PRIMARY KEY,\n"
	"	applied_unix INTEGER NOT NULL\n"
	");\n"
	/* One row per run folder; run_json is run.json as read. source_* is
	 * what the folder looked like when imported (store_scan_run). */
	"CREATE TABLE runs (\n"
	"	id               INTEGER PRIMARY KEY,\n"
	"	run_id           TEXT    NOT NULL UNIQUE,\n"
	"	experiment       TEXT    NOT NULL,\n"
	"	experiment_file  TEXT,\n"
	"	profile          TEXT,\n"
	"	baseline         TEXT,\n"
	"	trials_per_group INTEGER,\n"
	"	seed             INTEGER,\n"
	"	created_unix     INTEGER,\n"
	"	shard_k          INTEGER NOT NULL DEFAULT 1,\n"
	"	shard_n          INTEGER NOT NULL DEFAULT 1,\n"
	"	run_json         TEXT    NOT NULL,\n"
	"	run_dir          TEXT    NOT NULL,\n"
	"	source_mtime_ns  INTEGER NOT NULL,\n"
	"	source_files     INTEGER NOT NULL,\n"
	"	imported_unix    INTEGER NOT NULL,\n"
	"	CHECK (shard_n >= 1 AND shard_k BETWEEN 1 AND shard_n)\n"
	");\n"
	"CREATE INDEX runs_by_created ON runs (created_unix DESC, run_id DESC);\n"
	"CREATE INDEX runs_by_experiment ON runs (experiment, created_unix);\n"
	"CREATE INDEX runs_by_dir ON runs (run_dir);\n"
	/* A group is a variant run under a label ("stock", "stock#2" for A/A);
	 * position is its place in run.json's groups. in_run_json is always 1:
	 * folders run.json does not name are no groups (common/run-folder.h);
	 * the column stays so that older stores read the same. */
	"CREATE TABLE run_groups (\n"
	"	id          INTEGER PRIMARY KEY,\n"
	"	run         INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
	"	label       TEXT    NOT NULL,\n"
	"	variant     TEXT    NOT NULL,\n"
	"	kernel_hash TEXT,\n"
	"	position    INTEGER NOT NULL,\n"
	"	in_run_json INTEGER NOT NULL DEFAULT 1 CHECK (in_run_json IN (0, 1)),\n"
	"	UNIQUE (run, label)\n"
	");\n"
	"CREATE INDEX run_groups_by_variant ON run_groups (variant, kernel_hash);\n"
	/* A machine profile as a trial loaded it: canonical JSON (compact, keys
	 * sorted), so equal profiles are one row. */
	"CREATE TABLE profiles (\n"
	"	id           INTEGER PRIMARY KEY,\n"
	"	name         TEXT NOT NULL,\n"
	"	profile_json TEXT NOT NULL,\n"
	"	UNIQUE (name, profile_json)\n"
	");\n"
	/* One row per trial folder. outcome is NULL exactly when trial.json was
	 * missing or unusable, and record_error says why. environment_json is
	 * trial.json's environment without the profile (that is in profiles). */
	"CREATE TABLE trials (\n"
	"	id                    INTEGER PRIMARY KEY,\n"
	"	grp                   INTEGER NOT NULL REFERENCES run_groups (id) ON DELETE CASCADE,\n"
	"	trial_index           INTEGER NOT NULL CHECK (trial_index >= 0),\n"
	"	order_position        INTEGER,\n"
	"	outcome               TEXT,\n"
	"	exit_status           INTEGER,\n"
	"	qemu_status           INTEGER,\n"
	"	detail                TEXT,\n"
	"	partial               INTEGER NOT NULL DEFAULT 0 CHECK (partial IN (0, 1)),\n"
	"	wall_seconds_to_ready REAL,\n"
	"	guest_uptime_at_ready REAL,\n"
	"	wall_seconds_total    REAL,\n"
	"	accelerator           TEXT,\n"
	"	variant_hash          TEXT,\n"
	"	started_unix          INTEGER,\n"
	"	lost_events           INTEGER,\n"
	"	profile               INTEGER REFERENCES profiles (id),\n"
	"	environment_json      TEXT,\n"
	"	trial_dir             TEXT    NOT NULL,\n"
	"	record_error          TEXT,\n"
	"	UNIQUE (grp, trial_index),\n"
	"	CHECK ((outcome IS NULL) <> (record_error IS NULL))\n"
	");\n"
	"CREATE INDEX trials_by_outcome ON trials (outcome);\n"
	"CREATE INDEX trials_by_profile ON trials (profile);\n"
	/* Flat metric names (docs/FORMATS.md); a name may repeat in a trial. */
	"CREATE TABLE metrics (\n"
	"	id     INTEGER PRIMARY KEY,\n"
	"	trial  INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,\n"
	"	name   TEXT    NOT NULL,\n"
	"	value  REAL    NOT NULL,\n"
	"	unit   TEXT    NOT NULL DEFAULT '',\n"
	"	source TEXT\n"
	");\n"
	"CREATE INDEX metrics_by_trial ON metrics (trial, name);\n"
	"CREATE INDEX metrics_by_name ON metrics (name, trial);\n"
	/* OOM victims in trial.json's order; times are guest CLOCK_MONOTONIC ns. */
	"CREATE TABLE victims (\n"
	"	id                 INTEGER PRIMARY KEY,\n"
	"	trial              INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,\n"
	"	position           INTEGER NOT NULL,\n"
	"	pid                INTEGER,\n"
	"	comm               TEXT,\n"
	"	oom_constraint     TEXT,\n"
	"	anon_rss_kb        INTEGER,\n"
	"	file_rss_kb        INTEGER,\n"
	"	shmem_rss_kb       INTEGER,\n"
	"	oom_score_adj      INTEGER,\n"
	"	killed_ns          INTEGER,\n"
	"	mark_victim_ns     INTEGER,\n"
	"	wake_reaper_ns     INTEGER,\n"
	"	start_reaping_ns   INTEGER,\n"
	"	finish_reaping_ns  INTEGER,\n"
	"	skip_reaping_ns    INTEGER,\n"
	"	exit_ns            INTEGER,\n"
	"	reaped_before_exit INTEGER CHECK (reaped_before_exit IN (0, 1)),\n"
	"	UNIQUE (trial, position)\n"
	");\n"
	"CREATE INDEX victims_by_comm ON victims (comm);\n"
	/* For ad hoc SQL: every trial and every metric value with the names
	 * that locate it. */
	"CREATE VIEW trial_list AS\n"
	"	SELECT r.run_id, r.experiment, g.label, g.variant, t.trial_index, t.outcome,\n"
	"	       t.exit_status, t.detail, t.partial, t.wall_seconds_total, t.accelerator,\n"
	"	       t.started_unix, t.trial_dir, t.record_error\n"
	"	FROM trials t JOIN run_groups g ON g.id = t.grp JOIN runs r ON r.id = g.run;\n"
	"CREATE VIEW metric_values AS\n"
	"	SELECT r.run_id, r.experiment, g.label, g.variant, t.trial_index, t.outcome,\n"
	"	       t.partial, m.name, m.value, m.unit, m.source\n"
	"	FROM metrics m JOIN trials t ON t.id = m.trial\n"
	"	JOIN run_groups g ON g.id = t.grp JOIN runs r ON r.id = g.run;\n";

/* Version 2: the guest clock each trial ran on (trial.json
 * environment.clock; docs/FORMATS.md). Trials stored before had no clock
 * in their record and ran on the host's: realtime. NULL where there is no
 * record at all. */
static const char schema_v2[] =
	"ALTER TABLE trials ADD COLUMN clock TEXT;\n"
	"ALTER TABLE trials ADD COLUMN clock_settings TEXT;\n"
	"UPDATE trials SET\n"
	"	clock = coalesce(json_extract(environment_json, '$.clock.name'), 'realtime'),\n"
	"	clock_settings = coalesce(json_extract(environment_json, '$.clock.settings'), '')\n"
	"	WHERE environment_json IS NOT NULL;\n"
	"CREATE INDEX trials_by_clock ON trials (clock);\n"
	"DROP VIEW trial_list;\n"
	"CREATE VIEW trial_list AS\n"
	"	SELECT r.run_id, r.experiment, g.label, g.variant, t.trial_index, t.outcome,\n"
	"	       t.exit_status, t.detail, t.partial, t.wall_seconds_total, t.accelerator,\n"
	"	       t.clock, t.clock_settings, t.started_unix, t.trial_dir, t.record_error\n"
	"	FROM trials t JOIN run_groups g ON g.id = t.grp JOIN runs r ON r.id = g.run;\n";

/* Version 3: the content hash of the user's files the trial's guest had
 * (trial.json environment.files.hash; docs/FORMATS.md); NULL for a trial
 * without files, or without a record. */
static const char schema_v3[] =
	"ALTER TABLE trials ADD COLUMN files_hash TEXT;\n"
	"UPDATE trials SET files_hash = json_extract(environment_json, '$.files.hash')\n"
	"	WHERE environment_json IS NOT NULL;\n"
	"CREATE INDEX trials_by_files ON trials (files_hash);\n"
	"DROP VIEW trial_list;\n"
	"CREATE VIEW trial_list AS\n"
	"	SELECT r.run_id, r.experiment, g.label, g.variant, t.trial_index, t.outcome,\n"
	"	       t.exit_status, t.detail, t.partial, t.wall_seconds_total, t.accelerator,\n"
	"	       t.clock, t.clock_settings, t.files_hash, t.started_unix, t.trial_dir,\n"
	"	       t.record_error\n"
	"	FROM trials t JOIN run_groups g ON g.id = t.grp JOIN runs r ON r.id = g.run;\n";

static const char *const migrations[STORE_SCHEMA_VERSION] = { schema_v1, schema_v2, schema_v3 };

static int pragma_int(struct store *s, const char *pragma, int *value, struct strbuf *err)
{
	sqlite3_stmt *st;
	char sql[64];
	snprintf(sql, sizeof(sql), "PRAGMA %s", pragma);
	if (store_prepare(s, sql, &st, err) < 0)
		return STORE_EDB;
	int rc = store_step(s, st, pragma, err);
	if (rc == STORE_ROW)
		*value = sqlite3_column_int(st, 0);
	else if (rc == 0)
		rc = store_fail(s, err, pragma);   /* a PRAGMA that gives no row */
	sqlite3_finalize(st);
	return rc < 0 ? rc : 0;
}

/* Whether the database has any table, index or view at all. */
static int has_objects(struct store *s, bool *any, struct strbuf *err)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT count(*) FROM sqlite_schema", &st, err) < 0)
		return STORE_EDB;
	int rc = store_step(s, st, "reading the schema", err);
	if (rc == STORE_ROW)
		*any = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return rc < 0 ? rc : 0;   /* count(*) always gives its row */
}

static int check_version(struct store *s, int version, int app_id, struct strbuf *err)
{
	if (version > STORE_SCHEMA_VERSION) {
		strbuf_addf(err, "%s: schema version %d is newer than this lab knows (%d)", s->path,
			    version, STORE_SCHEMA_VERSION);
		return STORE_EINPUT;
	}
	if (version > 0 && app_id != STORE_APPLICATION_ID) {
		strbuf_addf(err, "%s: not an oomlab results database", s->path);
		return STORE_EINPUT;
	}
	return 0;
}

static int record_version(struct store *s, int version, struct strbuf *err)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "INSERT INTO schema_version (version, applied_unix) VALUES (?, ?)", &st,
			  err) < 0)
		return STORE_EDB;
	sqlite3_bind_int(st, 1, version);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)time(NULL));
	int rc = store_step(s, st, "recording the schema version", err);
	sqlite3_finalize(st);
	return rc;
}

static int migrate(struct store *s, int from, struct strbuf *err)
{
	for (int v = from; v < STORE_SCHEMA_VERSION; v++)
		if (store_exec(s, migrations[v], err) < 0 || record_version(s, v + 1, err) < 0)
			return STORE_EDB;
	/* PRAGMA takes no bound parameters; both values are constants of ours. */
	char sql[96];
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	return store_exec(s, sql, err);
}

int store_schema_ensure(struct store *s, struct strbuf *err)
{
	int version, app_id, rc;
	if (pragma_int(s, "user_version", &version, err) < 0 ||
	    pragma_int(s, "application_id", &app_id, err) < 0)
		return STORE_EDB;
	if ((rc = check_version(s, version, app_id, err)) < 0)
		return rc;
	if (version == STORE_SCHEMA_VERSION)
		return 0;
	/* Another process may be creating or migrating it right now: take the
	 * write lock first, then look again. */
	if (store_exec(s, "BEGIN IMMEDIATE", err) < 0)
		return STORE_EDB;
	if (pragma_int(s, "user_version", &version, err) < 0 ||
	    pragma_int(s, "application_id", &app_id, err) < 0) {
		rc = STORE_EDB;
		goto rollback;
	}
	if ((rc = check_version(s, version, app_id, err)) < 0)
		goto rollback;
	if (version == 0) {
		bool any = false;
		if ((rc = has_objects(s, &any, err)) < 0)
			goto rollback;
		if (any) {
			strbuf_addf(err, "%s: not an oomlab results database (it has tables of its own)",
				    s->path);
			rc = STORE_EINPUT;
			goto rollback;
		}
	}
	if (version < STORE_SCHEMA_VERSION && (rc = migrate(s, version, err)) < 0)
		goto rollback;
	return store_exec(s, "COMMIT", err);
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
