/* test-store.c - unit tests for the results store (analysis/store/store*.c).
 *
 * Each test builds synthetic run folders (docs/FORMATS.md) in a temporary
 * folder: run.json and two groups of three trials, one of which panicked
 * with a partial record and one of which has a corrupt trial.json. The
 * expected values below were worked out by hand from those files. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/store/store.h"

/* ---- helpers ---- */

struct fixture {
	char *dir;	/* temporary folder */
	char *db;	/* <dir>/store.sqlite */
};

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	struct fixture *f = xcalloc(1, sizeof(*f));
	f->dir = xasprintf("%s/oomlab-test-store.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	f->db = xasprintf("%s/store.sqlite", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	remove_tree(f->dir);
	free(f->dir);
	free(f->db);
	free(f);
	return 0;
}

static void write_text(const char *path, const char *text)
{
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	free(dir);
	assert_int_equal(write_file_str(path, text), 0);
}

/* A trial.json; METRICS and VICTIMS are the inside of their JSON arrays,
 * CLOCK more of the environment (its clock, its files), or "" for a record
 * from before. */
static char *trial_json(const char *outcome, bool partial, int min_free_kbytes,
			const char *metrics, const char *victims, const char *clock)
{
	return xasprintf(
		"{\n"
		"  \"environment\": {\"variant\": \"v\", \"variant_hash\": \"h\", \"accelerator\": \"kvm\",\n"
		"    %s%s\n"
		"    \"started_unix\": 1796030400, \"command\": \"oom-hog\",\n"
		"    \"profile\": {\"name\": \"phone-512m\", \"memory_bytes\": \"536870912\",\n"
		"                \"min_free_kbytes\": \"%d\", \"description\": \"a phone\"}},\n"
		"  \"outcome\": {\"outcome\": \"%s\", \"exit_status\": %d, \"detail\": \"%s\",\n"
		"    \"wall_seconds_to_ready\": 1.5, \"guest_uptime_at_ready\": 0.75,\n"
		"    \"wall_seconds_total\": 12.25, \"qemu_status\": 0},\n"
		"  \"partial\": %s,\n"
		"  \"metrics\": [%s],\n"
		"  \"victims\": [%s],\n"
		"  \"lost_events\": 3\n"
		"}\n",
		clock, *clock ? "," : "", min_free_kbytes, outcome, strcmp(outcome, "ok") ? 1 : 0,
		strcmp(outcome, "ok") ? "Kernel panic - not syncing" : "", partial ? "true" : "false",
		metrics, victims);
}

#define METRIC(name, value, unit) \
	"{\"name\": \"" name "\", \"value\": " #value ", \"unit\": \"" unit "\", \"source\": \"test\"}"
#define VICTIM(pid, comm) \
	"{\"pid\": " #pid ", \"comm\": \"" comm "\", \"constraint\": \"CONSTRAINT_MEMCG\", " \
	"\"anon_rss_kb\": 1024, \"file_rss_kb\": 8, \"shmem_rss_kb\": 0, \"oom_score_adj\": 0, " \
	"\"killed_ns\": 1000, \"mark_victim_ns\": 1100, \"wake_reaper_ns\": 1200, " \
	"\"start_reaping_ns\": 1300, \"finish_reaping_ns\": 1900, \"exit_ns\": 2500, " \
	"\"reaped_before_exit\": true}"

/*
 * The run: groups "stock" and "new", three trials each.
 *   stock/000 ok     oom_kills 1  latency_ms 10.5  2 victims
 *   stock/001 panic  oom_kills 7  latency_ms 99  warnings 2  partial (left out of the figures)
 *   stock/002 ok     oom_kills 3  latency_ms 12.5
 *   new/000   ok     oom_kills 0  alloc_ns 5 and 9 (reported twice); another profile
 *   new/001   ok     oom_kills 4  alloc_ns 7       1 victim
 *   new/002   corrupt trial.json
 * Per group, ok trials only:
 *   stock oom_kills {1, 3}: n 2, median 2, min 1, max 3, 1 other
 *   stock latency_ms {10.5, 12.5}: median 11.5; stock warnings {}: n 0, 1 other
 *   new oom_kills {0, 4}: median 2; new alloc_ns {5, 7, 9}: median 7
 */
#define RUN_METRICS 12	/* 2 + 3 + 2 + 3 + 2 */
#define RUN_VICTIMS 3

static char *make_run(const char *parent, const char *run_id, long created)
{
	char *dir = xasprintf("%s/%s", parent, run_id);
	char *path = xasprintf("%s/run.json", dir);
	char *text = xasprintf(
		"{\"run_id\": \"%s\", \"experiment\": \"quick\",\n"
		" \"experiment_file\": \"configs/experiments/quick.conf\", \"profile\": \"phone-512m\",\n"
		" \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\", \"hash\": \"aaaa\"},\n"
		"            {\"label\": \"new\", \"variant\": \"new\", \"hash\": \"bbbb\"}],\n"
		" \"baseline\": \"stock\", \"trials_per_group\": 3, \"seed\": 12345,\n"
		" \"order\": [{\"label\": \"new\", \"index\": 0}, {\"label\": \"stock\", \"index\": 0},\n"
		"           {\"label\": \"stock\", \"index\": 1}, {\"label\": \"new\", \"index\": 1},\n"
		"           {\"label\": \"new\", \"index\": 2}, {\"label\": \"stock\", \"index\": 2}],\n"
		" \"shard\": {\"k\": 1, \"n\": 1}, \"created_unix\": %ld}\n",
		run_id, created);
	write_text(path, text);
	free(text);
	free(path);

	static const struct {
		const char *name, *outcome;
		bool partial;
		int mfk;
		const char *metrics, *victims, *clock;
	} trials[] = {
		{ "stock/000", "ok", false, 2048,
		  METRIC("oom_kills", 1, "count") "," METRIC("latency_ms", 10.5, "ms"),
		  VICTIM(101, "hog") "," VICTIM(102, "hog2"), "" },
		{ "stock/001", "panic", true, 2048,
		  METRIC("oom_kills", 7, "count") "," METRIC("latency_ms", 99, "ms") ","
		  METRIC("warnings", 2, "count"), "", "" },
		{ "stock/002", "ok", false, 2048,
		  METRIC("oom_kills", 3, "count") "," METRIC("latency_ms", 12.5, "ms"), "", "" },
		{ "new/000", "ok", false, 4096,
		  METRIC("oom_kills", 0, "count") "," METRIC("alloc_ns", 9, "ns") ","
		  METRIC("alloc_ns", 5, "ns"), "",
		  "\"files\": {\"hash\": \"f1f1\", \"dirs\": [\"/home/u/repro\"]}" },
		{ "new/001", "ok", false, 2048,
		  METRIC("oom_kills", 4, "count") "," METRIC("alloc_ns", 7, "ns"), VICTIM(201, "hog"),
		  "\"clock\": {\"name\": \"icount\", \"settings\": \"shift=0,sleep=off,align=off\"}" },
	};
	for (size_t i = 0; i < sizeof(trials) / sizeof(trials[0]); i++) {
		path = xasprintf("%s/%s/trial.json", dir, trials[i].name);
		text = trial_json(trials[i].outcome, trials[i].partial, trials[i].mfk, trials[i].metrics,
				  trials[i].victims, trials[i].clock);
		write_text(path, text);
		free(text);
		free(path);
	}
	path = xasprintf("%s/new/002/trial.json", dir);
	write_text(path, "{\"environment\": {\"variant\": \"new\"}, \"outcome\": {\"outc");
	free(path);
	return dir;
}

static struct store *open_store(const char *path)
{
	struct store *s = NULL;
	struct strbuf err = STRBUF_INIT;
	int rc = store_open(path, &s, &err);
	if (rc < 0)
		print_error("store_open: %s\n", strbuf_str(&err));
	assert_int_equal(rc, 0);
	strbuf_release(&err);
	return s;
}

static void import_ok(struct store *s, const char *dir, struct store_import_report *r)
{
	struct strbuf err = STRBUF_INIT;
	int rc = store_import_run(s, dir, r, &err);
	if (rc < 0)
		print_error("store_import_run: %s\n", strbuf_str(&err));
	assert_int_equal(rc, 0);
	strbuf_release(&err);
}

/* The single integer a query returns; ARG (may be NULL) binds its '?'. */
static sqlite3_int64 sql_int(struct store *s, const char *sql, const char *arg)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	sqlite3_int64 v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static double sql_double(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	double v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *sql_text(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	const unsigned char *t = sqlite3_column_text(st, 0);
	char *v = xstrdup(t ? (const char *)t : "(null)");
	sqlite3_finalize(st);
	return v;
}

static void assert_sql_text(struct store *s, const char *sql, const char *expected)
{
	char *v = sql_text(s, sql);
	assert_string_equal(v, expected);
	free(v);
}

/* Row counts of every table, to compare before and after a second import. */
static void table_counts(struct store *s, sqlite3_int64 counts[6])
{
	static const char *const sql[] = {
		"SELECT count(*) FROM runs",	 "SELECT count(*) FROM run_groups",
		"SELECT count(*) FROM trials",	 "SELECT count(*) FROM metrics",
		"SELECT count(*) FROM victims", "SELECT count(*) FROM profiles",
	};
	for (int i = 0; i < 6; i++)
		counts[i] = sql_int(s, sql[i], NULL);
}

static void assert_close(double actual, double expected)
{
	if (!(fabs(actual - expected) <= 1e-9 * fmax(1.0, fabs(expected)))) {
		print_error("%.17g, expected %.17g\n", actual, expected);
		fail();
	}
}

static const struct store_metric_summary *find_metric(const struct store_group_summary *g,
						      const char *name)
{
	for (size_t i = 0; i < g->n_metrics; i++)
		if (!strcmp(g->metrics[i].name, name))
			return &g->metrics[i];
	fail_msg("no metric %s in group %s", name, g->label);
	return NULL;
}

/* ---- tests ---- */

static void test_import_counts_and_values(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-20261130-101500", 1796030301);
	struct store *s = open_store(f->db);
	struct store_import_report r;
	import_ok(s, run, &r);

	assert_string_equal(r.run_id, "quick-20261130-101500");
	assert_int_equal(r.groups, 2);
	assert_int_equal(r.trials, 6);
	assert_int_equal(r.trials_unreadable, 1);
	assert_int_equal(r.metrics, RUN_METRICS);
	assert_int_equal(r.victims, RUN_VICTIMS);
	assert_int_equal(r.problems.n, 1);
	assert_non_null(strstr(r.problems.items[0], "new/002"));
	store_import_report_clear(&r);

	/* The schema's own promises. */
	assert_int_equal(sql_int(s, "PRAGMA user_version", NULL), 3);
	assert_int_equal(sql_int(s, "SELECT max(version) FROM schema_version", NULL), 3);
	assert_int_equal(sql_int(s, "PRAGMA foreign_keys", NULL), 1);
	assert_sql_text(s, "PRAGMA journal_mode", "wal");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM pragma_foreign_key_check", NULL), 0);

	/* The API's view. */
	struct store_run info;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(store_find_run(s, "quick-20261130-101500", &info, &err), 1);
	assert_string_equal(info.experiment, "quick");
	assert_string_equal(info.profile, "phone-512m");
	assert_string_equal(info.baseline, "stock");
	assert_true(info.has_seed);
	assert_int_equal(info.seed, 12345);
	assert_int_equal(info.created_unix, 1796030301);
	assert_int_equal(info.groups, 2);
	assert_int_equal(info.trials, 6);
	assert_int_equal(info.trials_ok, 4);
	assert_int_equal(info.trials_unreadable, 1);
	assert_int_equal(info.shard_k, 1);
	assert_int_equal(info.shard_n, 1);
	store_run_clear(&info);
	assert_int_equal(store_find_run(s, "no-such-run", &info, &err), 0);

	/* Raw SQL. */
	assert_int_equal(sql_int(s, "SELECT count(*) FROM runs", NULL), 1);
	assert_sql_text(s, "SELECT group_concat(label, ',') FROM "
			   "(SELECT label FROM run_groups ORDER BY position)", "stock,new");
	assert_sql_text(s, "SELECT kernel_hash FROM run_groups WHERE label = 'new'", "bbbb");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials", NULL), 6);
	assert_sql_text(s,
			"SELECT t.outcome || ' ' || t.partial || ' ' || t.exit_status || ' ' || t.detail "
			"FROM trials t JOIN run_groups g ON g.id = t.grp "
			"WHERE g.label = 'stock' AND t.trial_index = 1",
			"panic 1 1 Kernel panic - not syncing");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE partial = 1", NULL), 1);
	assert_sql_text(s, "SELECT label || '/' || trial_index FROM trial_list WHERE partial = 1",
			"stock/1");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE outcome IS NULL", NULL), 1);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials t JOIN run_groups g ON g.id = t.grp "
				    "WHERE g.label = 'new' AND t.trial_index = 2 "
				    "AND t.record_error LIKE 'trial.json: line %'", NULL), 1);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE outcome = 'ok'", NULL), 4);
	assert_close(sql_double(s, "SELECT sum(wall_seconds_total) FROM trials"), 5 * 12.25);
	assert_close(sql_double(s, "SELECT min(guest_uptime_at_ready) FROM trials"), 0.75);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE accelerator = 'kvm' "
				    "AND started_unix = 1796030400 AND lost_events = 3", NULL), 5);
	/* The clock: as recorded, realtime for records from before clocks,
	 * NULL without a record. */
	assert_sql_text(s, "SELECT clock || ' ' || clock_settings FROM trial_list "
			   "WHERE label = 'new' AND trial_index = 1", "icount shift=0,sleep=off,align=off");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE clock = 'realtime' "
				    "AND clock_settings = ''", NULL), 4);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE clock IS NULL "
				    "AND outcome IS NULL", NULL), 1);
	/* The user's files: their hash where the guest had them, NULL elsewhere. */
	assert_sql_text(s, "SELECT label || '/' || trial_index FROM trial_list WHERE files_hash = 'f1f1'",
			"new/0");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE files_hash IS NULL", NULL), 5);
	/* stock/002 is the sixth in info.json's order; new/002 the fifth. */
	assert_int_equal(sql_int(s, "SELECT order_position FROM trials t JOIN run_groups g "
				    "ON g.id = t.grp WHERE g.label = ? AND t.trial_index = 2", "stock"), 5);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE trial_dir LIKE '%/new/002'",
				 NULL), 1);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM metrics", NULL), RUN_METRICS);
	assert_close(sql_double(s, "SELECT value FROM metric_values WHERE label = 'stock' "
				   "AND trial_index = 2 AND name = 'latency_ms'"), 12.5);
	assert_sql_text(s, "SELECT unit || '/' || source FROM metrics WHERE name = 'alloc_ns' LIMIT 1",
			"ns/test");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM victims", NULL), RUN_VICTIMS);
	assert_sql_text(s, "SELECT group_concat(comm, ',') FROM (SELECT v.comm FROM victims v "
			   "JOIN trials t ON t.id = v.trial JOIN run_groups g ON g.id = t.grp "
			   "WHERE g.label = 'stock' ORDER BY v.position)", "hog,hog2");
	assert_int_equal(sql_int(s, "SELECT finish_reaping_ns - killed_ns FROM victims WHERE pid = 201",
				 NULL), 900);
	assert_int_equal(sql_int(s, "SELECT reaped_before_exit FROM victims WHERE pid = 201", NULL), 1);
	assert_sql_text(s, "SELECT oom_constraint FROM victims WHERE pid = 101", "CONSTRAINT_MEMCG");
	/* Two distinct profile contents among five readable trials. */
	assert_int_equal(sql_int(s, "SELECT count(*) FROM profiles", NULL), 2);
	assert_int_equal(sql_int(s, "SELECT count(DISTINCT profile) FROM trials", NULL), 2);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE environment_json "
				    "LIKE '%profile%'", NULL), 0);
	char *run_json = sql_text(s, "SELECT run_json FROM runs");
	assert_non_null(strstr(run_json, "\"seed\": 12345"));
	free(run_json);

	strbuf_release(&err);
	store_close(s);
	free(run);
}

static void test_reimport_does_not_duplicate(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-1", 100);
	struct store *s = open_store(f->db);
	import_ok(s, run, NULL);
	sqlite3_int64 before[6], after[6];
	table_counts(s, before);
	assert_int_equal(before[0], 1);
	assert_int_equal(before[2], 6);
	import_ok(s, run, NULL);
	table_counts(s, after);
	for (int i = 0; i < 6; i++)
		assert_int_equal(after[i], before[i]);

	/* A third import through another connection, through a symlinked path. */
	store_close(s);
	char *link = xasprintf("%s/link-to-run", f->dir);
	assert_int_equal(symlink(run, link), 0);
	s = open_store(f->db);
	import_ok(s, link, NULL);
	table_counts(s, after);
	for (int i = 0; i < 6; i++)
		assert_int_equal(after[i], before[i]);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM pragma_foreign_key_check", NULL), 0);
	store_close(s);
	free(link);
	free(run);
}

/* Two folders of one run id are two runs: the second is refused, not merged
 * over the first; once the first folder is gone, the run has moved. */
static void test_two_folders_of_one_id(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-3", 100);
	char *copy = xasprintf("%s/copy-of-quick-3", f->dir);
	char *cmd = xasprintf("cp -R '%s' '%s'", run, copy);
	assert_int_equal(system(cmd), 0);
	struct store *s = open_store(f->db);
	import_ok(s, run, NULL);
	sqlite3_int64 before[6], after[6];
	table_counts(s, before);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(store_import_run(s, copy, NULL, &err), STORE_EINPUT);
	assert_non_null(strstr(err.buf, "not merged"));
	assert_non_null(strstr(err.buf, copy));
	table_counts(s, after);
	for (int i = 0; i < 6; i++)
		assert_int_equal(after[i], before[i]);
	char *dir = sql_text(s, "SELECT run_dir FROM runs");
	assert_non_null(strstr(dir, "/quick-3"));
	free(dir);
	assert_int_equal(remove_tree(run), 0);
	import_ok(s, copy, NULL);
	dir = sql_text(s, "SELECT run_dir FROM runs");
	assert_non_null(strstr(dir, "/copy-of-quick-3"));
	table_counts(s, after);
	for (int i = 0; i < 6; i++)
		assert_int_equal(after[i], before[i]);
	free(dir);
	store_close(s);
	strbuf_release(&err);
	free(cmd);
	free(copy);
	free(run);
}

static void test_changed_folder_is_reimported(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-2", 100);
	struct store *s = open_store(f->db);
	struct strbuf err = STRBUF_INIT;
	char *id = NULL;
	assert_int_equal(store_run_needs_import(s, run, &id, &err), 1);
	assert_null(id);
	import_ok(s, run, NULL);
	assert_int_equal(store_run_needs_import(s, run, &id, &err), 0);
	assert_string_equal(id, "quick-2");
	free(id);

	/* The corrupt trial gets written properly (as a finished trial would). */
	char *path = xasprintf("%s/new/002/trial.json", run);
	char *text = trial_json("ok", false, 2048, METRIC("oom_kills", 6, "count"), "", "");
	write_text(path, text);
	struct timespec later[2] = { { 2000000000, 0 }, { 2000000000, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, path, later, 0), 0);
	assert_int_equal(store_run_needs_import(s, run, NULL, &err), 1);
	import_ok(s, run, NULL);
	assert_int_equal(store_run_needs_import(s, run, NULL, &err), 0);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE outcome IS NULL", NULL), 0);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials", NULL), 6);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM metrics", NULL), RUN_METRICS + 1);

	/* A removed trial folder disappears from the store too. */
	char *trial = xasprintf("%s/stock/002", run);
	assert_int_equal(remove_tree(trial), 0);
	assert_int_equal(store_run_needs_import(s, run, NULL, &err), 1);
	import_ok(s, run, NULL);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials", NULL), 5);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM metrics", NULL), RUN_METRICS + 1 - 2);

	strbuf_release(&err);
	store_close(s);
	free(trial);
	free(text);
	free(path);
	free(run);
}

static void test_summary_medians(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-3", 100);
	struct store *s = open_store(f->db);
	import_ok(s, run, NULL);
	struct store_summary sum;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(store_run_summary(s, "quick-3", &sum, &err), 1);
	assert_string_equal(sum.run.run_id, "quick-3");
	assert_int_equal(sum.n_groups, 2);

	const struct store_group_summary *stock = &sum.groups[0], *new = &sum.groups[1];
	assert_string_equal(stock->label, "stock");
	assert_string_equal(stock->kernel_hash, "aaaa");
	assert_int_equal(stock->trials, 3);
	assert_int_equal(stock->partial, 1);
	assert_int_equal(store_group_outcome(stock, "ok"), 2);
	assert_int_equal(store_group_outcome(stock, "panic"), 1);
	assert_int_equal(store_group_outcome(stock, "unreadable"), 0);
	assert_string_equal(stock->outcomes[0].outcome, "ok");
	assert_int_equal(stock->n_metrics, 3);

	const struct store_metric_summary *m = find_metric(stock, "oom_kills");
	assert_string_equal(m->unit, "count");
	assert_int_equal(m->n, 2);
	assert_int_equal(m->n_other, 1);
	assert_close(m->median, 2);
	assert_close(m->min, 1);
	assert_close(m->max, 3);
	m = find_metric(stock, "latency_ms");
	assert_close(m->median, 11.5);
	assert_close(m->min, 10.5);
	assert_close(m->max, 12.5);
	m = find_metric(stock, "warnings");
	assert_int_equal(m->n, 0);
	assert_int_equal(m->n_other, 1);
	assert_true(isnan(m->median) && isnan(m->min) && isnan(m->max));
	/* Sorted by name. */
	assert_string_equal(stock->metrics[0].name, "latency_ms");
	assert_string_equal(stock->metrics[2].name, "warnings");

	assert_string_equal(new->label, "new");
	assert_int_equal(new->trials, 3);
	assert_int_equal(new->partial, 0);
	assert_int_equal(store_group_outcome(new, "ok"), 2);
	assert_int_equal(store_group_outcome(new, "unreadable"), 1);
	m = find_metric(new, "oom_kills");
	assert_int_equal(m->n, 2);
	assert_int_equal(m->n_other, 0);
	assert_close(m->median, 2);
	assert_close(m->min, 0);
	assert_close(m->max, 4);
	m = find_metric(new, "alloc_ns");
	assert_int_equal(m->n, 3);
	assert_close(m->median, 7);
	assert_close(m->min, 5);
	assert_close(m->max, 9);
	store_summary_clear(&sum);

	assert_int_equal(store_run_summary(s, "quick-nope", &sum, &err), 0);
	strbuf_release(&err);
	store_close(s);
	free(run);
}

struct listed {
	char ids[4][64];
	long ok[4], total[4];
	int n;
};

static int collect(const struct store_run *r, void *data)
{
	struct listed *l = data;
	if (l->n < 4) {
		snprintf(l->ids[l->n], sizeof(l->ids[0]), "%s", r->run_id);
		l->ok[l->n] = r->trials_ok;
		l->total[l->n] = r->trials;
	}
	l->n++;
	return 0;
}

static void test_list_newest_first(void **state)
{
	struct fixture *f = *state;
	char *a = make_run(f->dir, "quick-old", 1000), *b = make_run(f->dir, "quick-new", 3000),
	     *c = make_run(f->dir, "quick-mid", 2000);
	struct store *s = open_store(f->db);
	import_ok(s, a, NULL);
	import_ok(s, b, NULL);
	import_ok(s, c, NULL);
	struct listed l = { 0 };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(store_list_runs(s, collect, &l, &err), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.ids[0], "quick-new");
	assert_string_equal(l.ids[1], "quick-mid");
	assert_string_equal(l.ids[2], "quick-old");
	assert_int_equal(l.ok[0], 4);
	assert_int_equal(l.total[0], 6);
	strbuf_release(&err);
	store_close(s);
	free(a);
	free(b);
	free(c);
}

/* An ok icount trial of TIMER (environment.apic_timer.name) that took SECONDS. */
static void put_timed_trial(const char *run, const char *name, const char *timer, double seconds)
{
	char *path = xasprintf("%s/%s/trial.json", run, name);
	char *text = xasprintf(
		"{\"environment\": {\"variant\": \"v\", \"variant_hash\": \"h\", \"accelerator\": \"tcg\",\n"
		"  \"clock\": {\"name\": \"icount\", \"settings\": \"shift=0,sleep=off,align=off\"},\n"
		"  \"apic_timer\": {\"name\": \"%s\", \"from\": \"the default\"},\n"
		"  \"started_unix\": 1796030400, \"command\": \"spawn\",\n"
		"  \"profile\": {\"name\": \"phone-512m\", \"memory_bytes\": \"536870912\",\n"
		"              \"min_free_kbytes\": \"2048\", \"description\": \"a phone\"}},\n"
		" \"outcome\": {\"outcome\": \"ok\", \"exit_status\": 0, \"detail\": \"\",\n"
		"  \"wall_seconds_to_ready\": 1.5, \"guest_uptime_at_ready\": 0.3,\n"
		"  \"wall_seconds_total\": %.1f, \"qemu_status\": 0},\n"
		" \"partial\": false, \"metrics\": [], \"victims\": [], \"lost_events\": 0}\n",
		timer, seconds);
	write_text(path, text);
	free(text);
	free(path);
}

/* The estimate of a planned trial's time counts the trials of its APIC
 * timer only: a calibrated icount boot took 25 s more to ready than a given
 * one (make bench's phases), a seed run's trial 16-18 s more. */
static void test_trial_seconds_of_one_apic_timer(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-timers", 1000);
	/* ok: three given (4, 5, 6 s) and one calibrated (20 s); the rest are not ok */
	put_timed_trial(run, "stock/000", "given", 5);
	put_timed_trial(run, "stock/002", "given", 6);
	put_timed_trial(run, "new/000", "given", 4);
	put_timed_trial(run, "new/001", "calibrated", 20);
	struct store *s = open_store(f->db);
	import_ok(s, run, NULL);
	struct strbuf err = STRBUF_INIT;
	struct store_trial_seconds t;
	assert_int_equal(store_trial_seconds(s, "quick", "phone-512m", "icount", "given", &t, &err), 0);
	assert_int_equal(t.n, 3);
	assert_close(t.median, 5);
	assert_false(t.any_experiment);
	/* one calibrated trial is too few for an estimate, of this experiment or any */
	assert_int_equal(store_trial_seconds(s, "quick", "phone-512m", "icount", "calibrated", &t, &err), 0);
	assert_int_equal(t.n, 0);
	/* NULL: any timer */
	assert_int_equal(store_trial_seconds(s, "quick", "phone-512m", "icount", NULL, &t, &err), 0);
	assert_int_equal(t.n, 4);
	assert_close(t.median, 5.5);
	assert_int_equal(store_trial_seconds(s, "quick", "phone-512m", "realtime", "given", &t, &err), 0);
	assert_int_equal(t.n, 0);
	strbuf_release(&err);
	store_close(s);
	free(run);
}

static void test_bad_input(void **state)
{
	struct fixture *f = *state;
	struct store *s = open_store(f->db);
	struct strbuf err = STRBUF_INIT;
	struct store_import_report r;

	char *nodir = xasprintf("%s/absent", f->dir);
	assert_int_equal(store_import_run(s, nodir, &r, &err), STORE_EINPUT);
	store_import_report_clear(&r);
	/* A folder without run.json, and one with a broken run.json. */
	char *run = make_run(f->dir, "quick-4", 100);
	char *json = xasprintf("%s/run.json", run);
	assert_int_equal(unlink(json), 0);
	strbuf_reset(&err);
	assert_int_equal(store_import_run(s, run, &r, &err), STORE_EINPUT);
	assert_non_null(strstr(strbuf_str(&err), "run.json"));
	store_import_report_clear(&r);
	write_text(json, "{\"run_id\": \"quick-4\", \"experiment\": ");
	strbuf_reset(&err);
	assert_int_equal(store_import_run(s, run, &r, &err), STORE_EINPUT);
	store_import_report_clear(&r);
	write_text(json, "{\"run_id\": \"quick-4\", \"experiment\": \"q\", \"shard\": {\"k\": 3, \"n\": 2}}");
	strbuf_reset(&err);
	assert_int_equal(store_import_run(s, run, &r, &err), STORE_EINPUT);
	store_import_report_clear(&r);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM runs", NULL), 0);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials", NULL), 0);
	store_close(s);

	/* Databases that are not ours, or newer than this code. */
	char *other = xasprintf("%s/other.sqlite", f->dir);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	strbuf_reset(&err);
	assert_int_equal(store_open(other, &s, &err), STORE_EINPUT);
	assert_null(s);
	s = open_store(f->db);
	assert_int_equal(sqlite3_exec(store_db(s), "PRAGMA user_version = 99", NULL, NULL, NULL),
			 SQLITE_OK);
	store_close(s);
	strbuf_reset(&err);
	assert_int_equal(store_open(f->db, &s, &err), STORE_EINPUT);
	assert_non_null(strstr(strbuf_str(&err), "newer"));

	strbuf_release(&err);
	free(other);
	free(json);
	free(run);
	free(nodir);
}

/* Children import into one new database file at once, each through its own
 * connection; two of them import the same run. */
#define CHILDREN 4
#define ROUNDS 5

static int child_import(const char *db, const char *run)
{
	struct store *s = NULL;
	struct strbuf err = STRBUF_INIT;
	int rc = store_open(db, &s, &err);
	for (int i = 0; rc == 0 && i < ROUNDS; i++)
		rc = store_import_run(s, run, NULL, &err);
	if (rc < 0)
		fprintf(stderr, "child %d: %s\n", (int)getpid(), strbuf_str(&err));
	store_close(s);
	return rc == 0 ? 0 : 1;
}

static void test_concurrent_imports(void **state)
{
	struct fixture *f = *state;
	char *runs[CHILDREN];
	runs[0] = make_run(f->dir, "quick-a", 1);
	runs[1] = make_run(f->dir, "quick-b", 2);
	runs[2] = make_run(f->dir, "quick-c", 3);
	runs[3] = xstrdup(runs[0]);
	int gate[2];
	assert_int_equal(pipe(gate), 0);
	pid_t pids[CHILDREN];
	for (int i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			char c;
			close(gate[1]);
			/* Wait until the parent opens the gate: all start together. */
			while (read(gate[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(child_import(f->db, runs[i]));
		}
	}
	close(gate[0]);
	close(gate[1]);
	int failures = 0;
	for (int i = 0; i < CHILDREN; i++) {
		int status;
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		failures += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	assert_int_equal(failures, 0);

	struct store *s = open_store(f->db);
	assert_sql_text(s, "PRAGMA integrity_check", "ok");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM pragma_foreign_key_check", NULL), 0);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM runs", NULL), 3);
	assert_int_equal(sql_int(s, "SELECT count(DISTINCT run_id) FROM runs", NULL), 3);
	static const char *const ids[] = { "quick-a", "quick-b", "quick-c" };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sql_int(s, "SELECT count(*) FROM runs WHERE run_id = ?", ids[i]), 1);
		assert_int_equal(sql_int(s, "SELECT count(*) FROM trials t JOIN run_groups g "
					    "ON g.id = t.grp JOIN runs r ON r.id = g.run "
					    "WHERE r.run_id = ?", ids[i]), 6);
		assert_int_equal(sql_int(s, "SELECT count(*) FROM metric_values WHERE run_id = ?",
					 ids[i]), RUN_METRICS);
	}
	assert_int_equal(sql_int(s, "SELECT count(*) FROM run_groups", NULL), 6);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM victims", NULL), 3 * RUN_VICTIMS);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM profiles", NULL), 2);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM schema_version", NULL), 3);
	store_close(s);
	for (int i = 0; i < CHILDREN; i++)
		free(runs[i]);
}

/* A store of version 1 (before clocks and files) is migrated in place: its
 * trials get the clock their record names, realtime when it names none, and
 * the hash of the files it names. */
static void test_migrates_a_version_1_store(void **state)
{
	struct fixture *f = *state;
	char *run = make_run(f->dir, "quick-old", 7);
	struct store *s = open_store(f->db);
	import_ok(s, run, NULL);
	store_close(s);

	/* Back to version 1: no clock or files columns, no index, the old view. */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	static const char downgrade[] =
		"DROP VIEW trial_list; DROP INDEX trials_by_clock; DROP INDEX trials_by_files;"
		"ALTER TABLE trials DROP COLUMN clock; ALTER TABLE trials DROP COLUMN clock_settings;"
		"ALTER TABLE trials DROP COLUMN files_hash;"
		"CREATE VIEW trial_list AS SELECT trial_index FROM trials;"
		"DELETE FROM schema_version WHERE version >= 2; PRAGMA user_version = 1;";
	char *msg = NULL;
	if (sqlite3_exec(db, downgrade, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("downgrade: %s", msg);
	sqlite3_close(db);

	s = open_store(f->db);
	assert_int_equal(sql_int(s, "PRAGMA user_version", NULL), 3);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM schema_version", NULL), 3);
	assert_sql_text(s, "SELECT files_hash FROM trial_list WHERE label = 'new' AND trial_index = 0",
			"f1f1");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE files_hash IS NULL", NULL), 5);
	assert_sql_text(s, "SELECT clock FROM trial_list WHERE label = 'new' AND trial_index = 1",
			"icount");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trial_list WHERE clock = 'realtime'", NULL),
			 4);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE clock IS NULL", NULL), 1);
	/* and the store takes runs as before */
	import_ok(s, run, NULL);
	assert_int_equal(sql_int(s, "SELECT count(*) FROM trials WHERE clock = 'icount'", NULL), 1);
	store_close(s);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import_counts_and_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reimport_does_not_duplicate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_changed_folder_is_reimported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_folders_of_one_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_medians, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_newest_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trial_seconds_of_one_apic_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_imports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrates_a_version_1_store, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
