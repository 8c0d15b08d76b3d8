/* test-run-merge.c - merging the shards of a run (lab/run/run-merge.c) and the
 * one rule for what a run folder holds (common/run-folder.c), on run
 * folders made in a temporary folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/run/run-data.h"
#include "common/run-folder.h"
#include "lab/run/run-merge.h"

static char *tmp_dir(void)
{
	char tmpl[] = "/tmp/oomlab-test-merge.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

/* A shard run folder: run.json for shard K of N and the given trials, each
 * a folder with a trial.json naming its group and index. */
static char *make_shard_with(const char *base, int k, int n, unsigned seed, const char *const *trials,
			     json_t *extra);

static char *make_shard(const char *base, int k, int n, unsigned seed, const char *const *trials)
{
	return make_shard_with(base, k, n, seed, trials, NULL);
}

/* The same with EXTRA's keys (taken) over run.json's. */
static char *make_shard_with(const char *base, int k, int n, unsigned seed, const char *const *trials,
			     json_t *extra)
{
	char *dir = xasprintf("%s/shard%d", base, k);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	json_t *order = json_array();
	for (const char *const *t = trials; *t; t++) {
		char *tdir = xasprintf("%s/%s", dir, *t);
		assert_int_equal(mkdir_p(tdir, 0755), 0);
		char *label = xstrndup(*t, strcspn(*t, "/"));
		char *record = xasprintf("{\"outcome\": {\"outcome\": \"ok\"}, \"metrics\": "
					 "[{\"name\": \"trial_path\", \"value\": %d, \"unit\": \"count\"}]}",
					 atoi(strchr(*t, '/') + 1));
		char *path = xasprintf("%s/trial.json", tdir);
		assert_int_equal(write_file_str(path, record), 0);
		json_array_append_new(order, json_pack("{s:s, s:i}", "label", label, "index",
						       atoi(strchr(*t, '/') + 1)));
		free(label);
		free(record);
		free(path);
		free(tdir);
	}
	json_t *run = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:[{s:s, s:s}, {s:s, s:s}], s:o, s:{s:i, s:i}}",
				"run_id", "quick-shard", "experiment", "quick", "profile", "phone-512m",
				"baseline", "stock", "trials_per_group", 3, "seed", (int)seed, "groups",
				"label", "stock", "variant", "stock", "label", "binder-kcalloc", "variant",
				"binder-kcalloc", "order", order, "shard", "k", k, "n", n);
	if (extra) {
		json_object_update(run, extra);
		json_decref(extra);
	}
	char *path = xasprintf("%s/run.json", dir);
	assert_int_equal(json_dump_file(run, path, JSON_INDENT(2)), 0);
	json_decref(run);
	free(path);
	return dir;
}

static void test_merge_links_every_trial(void **state)
{
	(void)state;
	char *base = tmp_dir();
	static const char *const one[] = { "stock/000", "binder-kcalloc/001", "stock/002", NULL };
	static const char *const two[] = { "binder-kcalloc/000", "stock/001", "binder-kcalloc/002", NULL };
	struct strlist shards = STRLIST_INIT;
	strlist_push_owned(&shards, make_shard(base, 1, 2, 7, one));
	strlist_push_owned(&shards, make_shard(base, 2, 2, 7, two));
	char *out = xasprintf("%s/merged", base);
	struct strbuf err = STRBUF_INIT;
	if (run_merge(&shards, out, &err) != 0)
		fail_msg("%s", err.buf);

	/* every trial is there once, as a link to the shard's folder */
	char *link = xasprintf("%s/binder-kcalloc/002", out);
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_non_null(strstr(target, "/shard2/binder-kcalloc/002"));
	free(link);
	char *run_json = xasprintf("%s/run.json", out);
	json_t *run = json_load_file(run_json, 0, NULL);
	free(run_json);
	assert_non_null(run);
	assert_string_equal(json_string_value(json_object_get(run, "run_id")), "merged");
	assert_int_equal(json_array_size(json_object_get(run, "order")), 6);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(run, "shard"), "n")), 1);
	assert_int_equal(json_array_size(json_object_get(run, "merged_from")), 2);
	json_decref(run);

	/* and the merged run loads like any other: three trials a group, in index order */
	struct run_data rd = { 0 };
	assert_int_equal(run_data_add(&rd, out, &err), 0);
	assert_int_equal(rd.n, 6);
	for (size_t i = 0; i < rd.n; i++)
		assert_int_equal(rd.trials[i].index, i % 3);
	size_t nv, nother;
	double *v = run_data_values(&rd, "trial_path", "stock", &nv, &nother, NULL);
	assert_int_equal(nv, 3);
	assert_true(v[0] == 0 && v[1] == 1 && v[2] == 2);
	free(v);
	run_data_free(&rd);

	/* merging into a folder that exists is refused */
	strbuf_reset(&err);
	assert_int_equal(run_merge(&shards, out, &err), -1);
	assert_non_null(strstr(err.buf, "already exists"));
	strlist_clear(&shards);
	strbuf_release(&err);
	free(out);
	remove_tree(base);
	free(base);
}

static void test_merge_refuses(void **state)
{
	(void)state;
	char *base = tmp_dir();
	static const char *const one[] = { "stock/000", NULL };
	static const char *const dup[] = { "stock/000", NULL };
	struct strbuf err = STRBUF_INIT;
	char *out = xasprintf("%s/merged", base);

	struct strlist shards = STRLIST_INIT;
	strlist_push_owned(&shards, make_shard(base, 1, 2, 7, one));
	assert_int_equal(run_merge(&shards, out, &err), -1);           /* one shard */
	assert_non_null(strstr(err.buf, "at least two"));

	strlist_push_owned(&shards, make_shard(base, 2, 2, 7, dup));
	strbuf_reset(&err);
	assert_int_equal(run_merge(&shards, out, &err), -1);           /* a trial twice */
	assert_non_null(strstr(err.buf, "trial stock/000 is in two shards"));
	assert_false(path_exists(out));                                 /* nothing half-made left */

	remove_tree(shards.items[1]);
	strlist_clear(&shards);
	static const char *const other[] = { "stock/001", NULL };
	strlist_push_owned(&shards, make_shard(base, 1, 2, 7, one));
	strlist_push_owned(&shards, make_shard(base, 2, 2, 8, other));  /* another seed */
	strbuf_reset(&err);
	assert_int_equal(run_merge(&shards, out, &err), -1);
	assert_non_null(strstr(err.buf, "its seed differs"));

	remove_tree(shards.items[1]);                                   /* not a run any more */
	strbuf_reset(&err);
	assert_int_equal(run_merge(&shards, out, &err), -1);
	assert_non_null(strstr(err.buf, "shard2: not a run (no run.json)"));
	strlist_clear(&shards);
	strbuf_release(&err);
	free(out);
	remove_tree(base);
	free(base);
}

/* Two shards, the second's run.json with SECOND's keys (and the first's with
 * FIRST's); the merge's error, or "" when it merged. */
static char *merge_two(json_t *first, json_t *second)
{
	char *base = tmp_dir();
	static const char *const one[] = { "stock/000", "binder-kcalloc/001", NULL };
	static const char *const two[] = { "binder-kcalloc/000", "stock/001", NULL };
	struct strlist shards = STRLIST_INIT;
	strlist_push_owned(&shards, make_shard_with(base, 1, 2, 7, one, first));
	strlist_push_owned(&shards, make_shard_with(base, 2, 2, 7, two, second));
	char *out = xasprintf("%s/merged", base);
	struct strbuf err = STRBUF_INIT;
	int rc = run_merge(&shards, out, &err);
	assert_int_equal(rc, err.len ? -1 : 0);
	if (rc < 0)
		assert_false(path_exists(out));
	/* the message names the shard folder as given: the base is random, cut it */
	char *said = xstrdup(strbuf_str(&err));
	for (char *at; (at = strstr(said, base));)
		memmove(at, at + strlen(base), strlen(at + strlen(base)) + 1);
	strlist_clear(&shards);
	strbuf_release(&err);
	free(out);
	remove_tree(base);
	free(base);
	return said;
}

static json_t *groups_with_hashes(const char *stock, const char *kcalloc)
{
	return json_pack("{s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}]}", "groups", "label", "stock", "variant",
			 "stock", "hash", stock, "label", "binder-kcalloc", "variant", "binder-kcalloc",
			 "hash", kcalloc);
}

/* One design, one clock, one platform, the same kernels: what differs is
 * named, with the shard's folder; what may differ between machines merges. */
static void test_merge_checks_what_must_agree(void **state)
{
	(void)state;
	char *said;
	/* the clock: icount against a run.json without one (realtime) */
	said = merge_two(NULL, json_pack("{s:{s:s, s:s, s:s}}", "clock", "name", "icount", "settings",
					 "shift=0,sleep=off,align=off", "from", "--clock"));
	assert_string_equal(said, "/shard2 is not a shard of the same run as /shard1: its clock is "
			    "icount (shift=0,sleep=off,align=off), /shard1's realtime");
	free(said);
	/* realtime said and realtime unsaid (a run from before clocks) are one clock;
	 * where each machine read it from may differ */
	said = merge_two(json_pack("{s:{s:s, s:s}}", "clock", "name", "realtime", "from", "/a/x.conf"),
			 json_pack("{s:{s:s, s:s}}", "clock", "name", "realtime", "from", "/b/x.conf"));
	assert_string_equal(said, "");
	free(said);
	said = merge_two(json_pack("{s:{s:s}}", "clock", "name", "realtime"), NULL);
	assert_string_equal(said, "");
	free(said);
	/* the same clock under other settings is another clock */
	said = merge_two(json_pack("{s:{s:s, s:s}}", "clock", "name", "icount", "settings", "shift=0"),
			 json_pack("{s:{s:s, s:s}}", "clock", "name", "icount", "settings", "shift=2"));
	assert_non_null(strstr(said, "its clock is icount (shift=2), /shard1's icount (shift=0)"));
	free(said);
	/* the platform */
	said = merge_two(NULL, json_pack("{s:s, s:i}", "arch", "arm64", "page_size", 16384));
	assert_string_equal(said, "/shard2 is not a shard of the same run as /shard1: its platform is "
			    "arm64, 16384-byte pages, /shard1's x86_64, 4096-byte pages");
	free(said);
	said = merge_two(json_pack("{s:s, s:i}", "arch", "x86_64", "page_size", 4096), NULL);
	assert_string_equal(said, "");
	free(said);
	/* the kernels: one group's hash */
	said = merge_two(groups_with_hashes("aaaa", "bbbb"), groups_with_hashes("aaaa", "cccc"));
	assert_string_equal(said, "/shard2 is not a shard of the same run as /shard1: its kernel of "
			    "group binder-kcalloc is cccc, /shard1's bbbb");
	free(said);
	said = merge_two(groups_with_hashes("aaaa", "bbbb"), groups_with_hashes("aaaa", "bbbb"));
	assert_string_equal(said, "");
	free(said);
	/* the design: the headline metrics, the sequential design, the guests' files */
	said = merge_two(json_pack("{s:[s]}", "metrics", "trial_ok"),
			 json_pack("{s:[s, s]}", "metrics", "trial_ok", "oom_kills"));
	assert_non_null(strstr(said, "/shard2 is not a shard of the same run as /shard1: its headline "
			       "metrics differ"));
	free(said);
	said = merge_two(NULL, json_pack("{s:{s:i, s:i}}", "sequential", "first_look", 3, "max_trials", 20));
	assert_non_null(strstr(said, "its sequential design differs"));
	free(said);
	said = merge_two(json_pack("{s:{s:s, s:s}}", "files", "hash", "f1", "base", "/a"),
			 json_pack("{s:{s:s, s:s}}", "files", "hash", "f2", "base", "/a"));
	assert_non_null(strstr(said, "its guests' files differ"));
	free(said);
	said = merge_two(json_pack("{s:{s:s, s:s}}", "files", "hash", "f1", "base", "/a"),
			 json_pack("{s:{s:s, s:s}}", "files", "hash", "f1", "base", "/b"));
	assert_string_equal(said, "");
	free(said);
}

static void count_trial(const char *group, unsigned index, const char *path, void *ctx)
{
	(void)group;
	(void)path;
	struct strlist *seen = ctx;
	strlist_push_owned(seen, xasprintf("%u", index));
}

/* The one rule: digits only, at most nine, a folder (a file named 003 is
 * not a trial), in index order (9 before 10). */
static void test_trial_folder_rule(void **state)
{
	(void)state;
	unsigned index;
	assert_true(run_folder_trial_name("000", &index) && index == 0);
	assert_true(run_folder_trial_name("123456789", &index) && index == 123456789);
	assert_false(run_folder_trial_name("1234567890", &index));
	assert_false(run_folder_trial_name("+1", &index));
	assert_false(run_folder_trial_name(" 1", &index));
	assert_false(run_folder_trial_name("", &index));
	assert_false(run_folder_trial_name("01a", &index));

	char *base = tmp_dir();
	static const char *const dirs[] = { "stock/10", "stock/9", "stock/000", "stock/.hidden",
					    "stock/notes", NULL };
	for (const char *const *d = dirs; *d; d++) {
		char *p = xasprintf("%s/%s", base, *d);
		assert_int_equal(mkdir_p(p, 0755), 0);
		free(p);
	}
	char *file = xasprintf("%s/stock/003", base);
	assert_int_equal(write_file_str(file, "not a folder"), 0);
	free(file);
	struct strlist seen = STRLIST_INIT;
	assert_int_equal(run_folder_each_trial(base, "stock", count_trial, &seen), 3);
	assert_string_equal(seen.items[0], "0");
	assert_string_equal(seen.items[1], "9");
	assert_string_equal(seen.items[2], "10");
	assert_int_equal(run_folder_each_trial(base, "no-such-group", count_trial, &seen), 0);
	strlist_clear(&seen);

	struct strbuf err = STRBUF_INIT;
	assert_false(run_folder_is_run(base));
	assert_null(run_folder_load(base, &err));
	assert_string_equal(err.buf, "no run.json");
	char *rj = xasprintf("%s/run.json", base);
	write_file_str(rj, "[1]");
	strbuf_reset(&err);
	assert_null(run_folder_load(base, &err));
	assert_string_equal(err.buf, "run.json is not a JSON object");
	write_file_str(rj, "{\"run_id\": ");
	strbuf_reset(&err);
	assert_null(run_folder_load(base, &err));
	assert_true(starts_with(err.buf, "run.json:1: "));      /* the file and its line */
	assert_true(run_folder_is_run(base));
	free(rj);
	strbuf_release(&err);
	remove_tree(base);
	free(base);
}

int main(void)
{
	quiet = true;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_links_every_trial),
		cmocka_unit_test(test_merge_refuses),
		cmocka_unit_test(test_merge_checks_what_must_agree),
		cmocka_unit_test(test_trial_folder_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
