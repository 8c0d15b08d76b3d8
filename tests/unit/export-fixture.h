/* export-fixture.h - a small run folder for the report and export tests,
 * built in a temporary folder from the real trial lines in
 * tests/samples/export/ (see its README):
 *
 *   <tmp>/run/run.json            groups "stock" and "binder-kcalloc"
 *   <tmp>/run/stock/000/          the sample trial; its trial.json has no
 *                                 metrics array (they get computed)
 *   <tmp>/run/binder-kcalloc/000/ the same files, and a trial.json with
 *                                 FIXTURE_KCALLOC_METRICS metrics
 *
 * Included by one test file each (static functions).
 */
#ifndef TESTS_EXPORT_FIXTURE_H
#define TESTS_EXPORT_FIXTURE_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define FIXTURE_KCALLOC_METRICS 3

static const char *const fixture_files[] = {
	"perf.script", "ctl.jsonl", "out.log", "kmsg.log", "trial.json", "files/before/buddyinfo",
	NULL,
};

static char *fixture_samples(void)
{
	const char *env = getenv("OOMLAB_SAMPLES");
	if (env && *env)
		return xstrdup(env);
	if (is_dir("tests/samples/export"))
		return xstrdup("tests/samples/export");
	return xstrdup("../../tests/samples/export");    /* run from build/tests */
}

static int fixture_copy_trial(const char *samples, const char *dir)
{
	for (const char *const *f = fixture_files; *f; f++) {
		char *from = xasprintf("%s/%s", samples, *f);
		char *to = xasprintf("%s/%s", dir, *f);
		char *parent = xstrdup(to);
		*strrchr(parent, '/') = '\0';
		int rc = mkdir_p(parent, 0755) < 0 || copy_file(from, to) < 0 ? -1 : 0;
		free(from);
		free(to);
		free(parent);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Makes <tmp>/run; returns the temporary folder (malloc'd) or NULL. */
static char *fixture_make_run(void)
{
	const char *tmp = getenv("TMPDIR");
	char *base = xasprintf("%s/oomlab-test-export.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(base)) {
		free(base);
		return NULL;
	}
	char *samples = fixture_samples();
	char *run = xasprintf("%s/run", base);
	char *stock = xasprintf("%s/stock/000", run);
	char *kcalloc = xasprintf("%s/binder-kcalloc/000", run);
	int rc = mkdir_p(stock, 0755) | mkdir_p(kcalloc, 0755);
	rc |= fixture_copy_trial(samples, stock) | fixture_copy_trial(samples, kcalloc);
	char *path = xasprintf("%s/run.json", run);
	rc |= write_file_str(path,
		"{\"run_id\": \"fixture-20261130-000000\", \"experiment\": \"fixture\",\n"
		" \"profile\": \"phone-512m\", \"baseline\": \"stock\", \"trials_per_group\": 1,\n"
		" \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\", \"hash\": \"aaaa\"},\n"
		"   {\"label\": \"binder-kcalloc\", \"variant\": \"binder-kcalloc\", \"hash\": \"bbbb\"}],\n"
		" \"seed\": 1, \"shard\": {\"k\": 1, \"n\": 1}, \"created_unix\": 1796031505,\n"
		" \"experiment_text\": \"description = a <fixture> & its \\\"quotes\\\"\\n\"}\n");
	free(path);
	/* binder-kcalloc's trial.json carries its own metrics (and another variant) */
	path = xasprintf("%s/trial.json", kcalloc);
	json_t *t = json_load_file(path, 0, NULL);
	if (t) {
		json_t *env = json_object_get(t, "environment");
		json_object_set_new(env, "variant", json_string("binder-kcalloc"));
		json_object_set_new(env, "variant_hash", json_string("bbbb"));
		json_t *m = json_loads(
			"[{\"name\": \"oom_kills\", \"value\": 2, \"unit\": \"count\", \"source\": \"kmsg\"},"
			" {\"name\": \"a,b \\\"c\\\"\", \"value\": 0.1, \"unit\": \"ms\", \"source\": \"test\"},"
			" {\"name\": \"binder-sendvec.sendvec_ns_per_rt.size=4\", \"value\": 900000,"
			"  \"unit\": \"ns\", \"source\": \"out.log\"}]", 0, NULL);
		json_object_set_new(t, "metrics", m);
		rc |= json_dump_file(t, path, JSON_INDENT(2));
		json_decref(t);
	} else {
		rc = -1;
	}
	free(path);
	free(samples);
	free(run);
	free(stock);
	free(kcalloc);
	if (rc) {
		remove_tree(base);
		free(base);
		return NULL;
	}
	return base;
}

#endif
