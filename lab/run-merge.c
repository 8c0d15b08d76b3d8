/* Merging the shards of one run into a single run folder. */
#include "run-merge.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/run/run-data.h"
#include "common/run-folder.h"

static const char *const must_agree[] = { "experiment", "experiment_text", "profile", "baseline",
					  "seed", "trials_per_group", "groups", NULL };

/* json_equal() calls two absent keys different; two shards that both lack one agree. */
static bool agree(json_t *a, json_t *b)
{
	return (!a && !b) || json_equal(a, b);
}

struct linking {
	const char *out_dir;
	struct strbuf *err;
	int rc;
};

/* Links one trial folder of a shard into the merged run, under its own name. */
static void link_trial(const char *label, unsigned index, const char *from, void *ctx)
{
	(void)index;
	struct linking *l = ctx;
	if (l->rc < 0)
		return;
	const char *name = strrchr(from, '/') + 1;
	char *to = xasprintf("%s/%s/%s", l->out_dir, label, name);
	char real[PATH_MAX];
	if (path_exists(to)) {
		strbuf_addf(l->err, "trial %s/%s is in two shards", label, name);
		l->rc = -1;
	} else if (!realpath(from, real) || symlink(real, to) < 0) {
		strbuf_addf(l->err, "cannot link %s: %s", to, strerror(errno));
		l->rc = -1;
	}
	free(to);
}

static int link_trials(const char *shard_dir, const char *out_dir, json_t *groups, struct strbuf *err)
{
	struct linking l = { out_dir, err, 0 };
	size_t i;
	json_t *g;
	json_array_foreach(groups, i, g) {
		const char *label = json_string_value(json_object_get(g, "label"));
		char *odir = xasprintf("%s/%s", out_dir, label);
		mkdir_p(odir, 0755);
		free(odir);
		run_folder_each_trial(shard_dir, label, link_trial, &l);
		if (l.rc < 0)
			return -1;
	}
	return 0;
}

int run_merge(const struct strlist *shards, const char *out_dir, struct strbuf *err)
{
	if (shards->n < 2) {
		strbuf_addstr(err, "merging needs at least two shard runs");
		return -1;
	}
	if (path_exists(out_dir)) {
		strbuf_addf(err, "%s already exists", out_dir);
		return -1;
	}
	json_t *first = NULL, *order = json_array(), *from = json_array();
	int rc = 0;
	json_int_t shard_n = 0;
	struct strlist dirs = STRLIST_INIT;
	for (size_t i = 0; i < shards->n && rc == 0; i++) {
		char *dir = run_dir_resolve(shards->items[i]);
		struct strbuf why = STRBUF_INIT;
		json_t *run = run_folder_load(dir, &why);
		strlist_push_owned(&dirs, dir);
		if (!run) {
			strbuf_addf(err, "%s: not a run (%s)", shards->items[i], why.buf);
			strbuf_release(&why);
			rc = -1;
			break;
		}
		json_t *shard = json_object_get(run, "shard");
		json_int_t n = json_integer_value(json_object_get(shard, "n"));
		if (!first) {
			first = json_incref(run);
			shard_n = n;
		}
		for (const char *const *k = must_agree; *k && rc == 0; k++)
			if (!agree(json_object_get(run, *k), json_object_get(first, *k))) {
				strbuf_addf(err, "%s is not a shard of the same run as %s: its %s differs",
					    shards->items[i], shards->items[0], *k);
				rc = -1;
			}
		if (rc == 0 && n != shard_n) {
			strbuf_addf(err, "%s was cut into %lld shards, %s into %lld", shards->items[i],
				    (long long)n, shards->items[0], (long long)shard_n);
			rc = -1;
		}
		json_array_extend(order, json_object_get(run, "order"));
		json_array_append_new(from, json_string(dirs.items[dirs.n - 1]));
		json_decref(run);
	}
	if (rc == 0 && mkdir_p(out_dir, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", out_dir, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < dirs.n && rc == 0; i++)
		rc = link_trials(dirs.items[i], out_dir, json_object_get(first, "groups"), err);
	if (rc == 0) {
		json_t *merged = json_deep_copy(first);
		const char *slash = strrchr(out_dir, '/');
		json_object_set_new(merged, "run_id", json_string(slash ? slash + 1 : out_dir));
		json_object_set_new(merged, "order", json_incref(order));
		json_object_set_new(merged, "shard", json_pack("{s:i, s:i}", "k", 1, "n", 1));
		json_object_set_new(merged, "merged_from", json_incref(from));
		char *path = xasprintf("%s/" RUN_JSON, out_dir);
		if (json_dump_file(merged, path, JSON_INDENT(2)) < 0) {
			strbuf_addf(err, "cannot write %s", path);
			rc = -1;
		}
		free(path);
		json_decref(merged);
	}
	if (rc < 0 && is_dir(out_dir))
		remove_tree(out_dir);
	json_decref(first);
	json_decref(order);
	json_decref(from);
	strlist_clear(&dirs);
	return rc;
}
