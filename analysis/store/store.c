/* store.c - opening the results store, and listing and finding its runs.
 * The schema is in store_schema.c, the import in store_import.c and the
 * per-run summary in store_summary.c. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/paths.h"
#include "store.h"
#include "store_internal.h"

char *store_default_path(void)
{
	const char *env = getenv("OOMLAB_DB");
	if (env && *env)
		return xstrdup(env);
	return xasprintf("%s/oomlab.sqlite", results_root());
}

/* Switches to WAL. On a new file several processes may try at once and the
 * switch needs the file to itself, so a busy answer is waited out. */
static int use_wal(struct store *s, struct strbuf *err)
{
	double deadline = now_monotonic() + STORE_BUSY_TIMEOUT_MS / 1000.0;
	for (;;) {
		sqlite3_stmt *st;
		if (store_prepare(s, "PRAGMA journal_mode = WAL", &st, err) < 0)
			return STORE_EDB;
		int rc = sqlite3_step(st);
		char *mode = rc == SQLITE_ROW ? store_column_str(st, 0) : NULL;
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW) {
			bool ok = mode && (!strcmp(mode, "wal") || !strcmp(mode, "memory"));
			if (!ok && err)
				strbuf_addf(err, "%s: cannot use WAL mode (journal mode stays %s)", s->path,
					    mode ? mode : "unknown");
			free(mode);
			return ok ? 0 : STORE_EDB;
		}
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			return store_fail(s, err, "switching to WAL mode");
		if (now_monotonic() > deadline)
			return store_fail(s, err, "switching to WAL mode");
		struct timespec pause = { 0, 20 * 1000 * 1000 };
		nanosleep(&pause, NULL);
	}
}

static int foreign_keys_on(struct store *s, struct strbuf *err)
{
	sqlite3_stmt *st;
	if (store_exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL", err) < 0 ||
	    store_prepare(s, "PRAGMA foreign_keys", &st, err) < 0)
		return STORE_EDB;
	int on = store_step(s, st, "reading PRAGMA foreign_keys", NULL) == STORE_ROW &&
		 sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	if (!on && err)
		strbuf_addf(err, "%s: this SQLite cannot enforce foreign keys", s->path);
	return on ? 0 : STORE_EDB;
}

int store_open(const char *path, struct store **out, struct strbuf *err)
{
	*out = NULL;
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir, 0755) < 0) {
			strbuf_addf(err, "cannot create %s for the results database: %s", dir,
				    strerror(errno));
			free(dir);
			return STORE_EDB;
		}
	}
	free(dir);

	struct store *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		strbuf_addf(err, "cannot open the results database %s: %s", path,
			    s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		store_close(s);
		return STORE_EDB;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	if ((rc = use_wal(s, err)) < 0 || (rc = foreign_keys_on(s, err)) < 0 ||
	    (rc = store_schema_ensure(s, err)) < 0) {
		store_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close_v2(s->db);
	free(s->path);
	free(s);
}

sqlite3 *store_db(struct store *s)
{
	return s->db;
}

/* ---- runs ---- */

static const char run_select[] =
	"SELECT r.run_id, r.experiment, r.profile, r.baseline, r.run_dir, r.seed,\n"
	"       r.created_unix, r.imported_unix, r.shard_k, r.shard_n,\n"
	"       (SELECT count(*) FROM run_groups g WHERE g.run = r.id),\n"
	"       count(t.id),\n"
	"       count(t.id) FILTER (WHERE t.outcome = 'ok'),\n"
	"       count(t.id) FILTER (WHERE t.outcome IS NULL)\n"
	"FROM runs r\n"
	"LEFT JOIN run_groups g ON g.run = r.id\n"
	"LEFT JOIN trials t ON t.grp = g.id\n";

static void run_from_row(sqlite3_stmt *st, struct store_run *r)
{
	memset(r, 0, sizeof(*r));
	r->run_id = store_column_str(st, 0);
	r->experiment = store_column_str(st, 1);
	r->profile = store_column_str(st, 2);
	r->baseline = store_column_str(st, 3);
	r->run_dir = store_column_str(st, 4);
	r->has_seed = sqlite3_column_type(st, 5) != SQLITE_NULL;
	r->seed = sqlite3_column_int64(st, 5);
	r->has_created = sqlite3_column_type(st, 6) != SQLITE_NULL;
	r->created_unix = sqlite3_column_int64(st, 6);
	r->imported_unix = sqlite3_column_int64(st, 7);
	r->shard_k = sqlite3_column_int(st, 8);
	r->shard_n = sqlite3_column_int(st, 9);
	r->groups = sqlite3_column_int(st, 10);
	r->trials = sqlite3_column_int(st, 11);
	r->trials_ok = sqlite3_column_int(st, 12);
	r->trials_unreadable = sqlite3_column_int(st, 13);
}

void store_run_clear(struct store_run *r)
{
	free(r->run_id);
	free(r->experiment);
	free(r->profile);
	free(r->baseline);
	free(r->run_dir);
	memset(r, 0, sizeof(*r));
}

int store_list_runs(struct store *s, store_run_fn fn, void *ctx, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	strbuf_addf(&sql, "%sGROUP BY r.id\nORDER BY r.created_unix DESC, r.run_id DESC", run_select);
	sqlite3_stmt *st;
	int rc = store_prepare(s, sql.buf, &st, err);
	strbuf_release(&sql);
	if (rc < 0)
		return rc;
	while ((rc = store_step(s, st, "listing the runs", err)) == STORE_ROW) {
		struct store_run run;
		run_from_row(st, &run);
		int stop = fn(&run, ctx);
		store_run_clear(&run);
		if (stop) {
			sqlite3_finalize(st);
			return stop;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int store_find_run(struct store *s, const char *run_id, struct store_run *out, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	strbuf_addf(&sql, "%sWHERE r.run_id = ?\nGROUP BY r.id", run_select);
	sqlite3_stmt *st;
	int rc = store_prepare(s, sql.buf, &st, err);
	strbuf_release(&sql);
	if (rc < 0)
		return rc;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	rc = store_step(s, st, "looking up a run", err);
	if (rc == STORE_ROW)
		run_from_row(st, out);   /* 1: found */
	sqlite3_finalize(st);
	return rc;
}

int store_run_needs_import(struct store *s, const char *run_dir, char **run_id,
			   struct strbuf *err)
{
	char abs[PATH_MAX];
	if (run_id)
		*run_id = NULL;
	if (!realpath(run_dir, abs)) {
		strbuf_addf(err, "no run folder %s: %s", run_dir, strerror(errno));
		return STORE_EINPUT;
	}
	struct store_run_scan scan;
	int rc = store_scan_run(abs, &scan, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *st;
	static const char sql[] =
		"SELECT source_mtime_ns, source_files, run_id FROM runs WHERE run_dir = ?\n"
		"ORDER BY imported_unix DESC LIMIT 1";
	if ((rc = store_prepare(s, sql, &st, err)) == 0) {
		sqlite3_bind_text(st, 1, abs, -1, SQLITE_TRANSIENT);
		rc = store_step(s, st, "looking up a run folder", err);
		if (rc == STORE_ROW) {
			rc = sqlite3_column_int64(st, 0) != scan.mtime_ns ||
			     sqlite3_column_int64(st, 1) != scan.files;
			if (!rc && run_id)
				*run_id = store_column_str(st, 2);
		} else if (rc == 0) {
			rc = 1;   /* never imported */
		}
		sqlite3_finalize(st);
	}
	store_run_scan_clear(&scan);
	return rc;
}
