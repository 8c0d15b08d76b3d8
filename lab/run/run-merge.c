/* Merging the shards of one run into a single run folder. */
#include "run-merge.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/run/run-data.h"
#include "common/json-file.h"
#include "common/run-folder.h"

/* The design: what every shard's run.json must hold alike, and its name in messages. */
static const struct {
	const char *key, *what;
} design[] = {
	{ "experiment", "experiment" },
	{ "experiment_text", "experiment text" },
	{ "profile", "profile" },
	{ "baseline", "baseline" },
	{ "seed", "seed" },
	{ "trials_per_group", "trials per group" },
	{ "metrics", "headline metrics" },
	{ "primary", "primary metric" },
	{ "parametric", "parametric metrics" },
	{ "equivalence", "equivalence margins" },
	{ "sequential", "sequential design" },
	{ "fault_injection", "fault injection" },
};

/* json_equal() calls two absent keys different; two shards that both lack one agree. */
static bool agree(json_t *a, json_t *b)
{
	return (!a && !b) || json_equal(a, b);
}

static const char *str_or(json_t *v, const char *absent)
{
	const char *s = json_string_value(v);
	return s ? s : absent;
}

/* A run's clock as "name (settings)"; a run.json from before clocks ran on realtime. */
static char *clock_text(json_t *run)
{
	json_t *clock = json_object_get(run, "clock");
	const char *settings = str_or(json_object_get(clock, "settings"), "");
	return xasprintf("%s%s%s%s", str_or(json_object_get(clock, "name"), "realtime"),
			 *settings ? " (" : "", settings, *settings ? ")" : "");
}

/* A run's platform as "arch, N-byte pages"; x86_64 and 4096 when run.json names none. */
static char *platform_text(json_t *run)
{
	json_t *size = json_object_get(run, "page_size");
	return xasprintf("%s, %lld-byte pages", str_or(json_object_get(run, "arch"), "x86_64"),
			 size ? (long long)json_integer_value(size) : 4096LL);
}

/* Whether RUN's groups are FIRST's with the same kernels; what differs in ERR. */
static bool same_groups(json_t *run, json_t *first, const char *name, const char *first_name,
			struct strbuf *err)
{
	json_t *a = json_object_get(run, "groups"), *b = json_object_get(first, "groups");
	size_t n = json_array_size(a);
	bool same_labels = n == json_array_size(b);
	for (size_t i = 0; same_labels && i < n; i++)
		same_labels = agree(json_object_get(json_array_get(a, i), "label"),
				    json_object_get(json_array_get(b, i), "label")) &&
			      agree(json_object_get(json_array_get(a, i), "variant"),
				    json_object_get(json_array_get(b, i), "variant"));
	if (!same_labels) {
		strbuf_addf(err, "%s is not a shard of the same run as %s: its groups differ", name,
			    first_name);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *ga = json_array_get(a, i), *gb = json_array_get(b, i);
		const char *ha = str_or(json_object_get(ga, "hash"), "none");
		const char *hb = str_or(json_object_get(gb, "hash"), "none");
		if (strcmp(ha, hb)) {
			strbuf_addf(err, "%s is not a shard of the same run as %s: its kernel of group "
				    "%s is %.16s, %s's %.16s", name, first_name,
				    str_or(json_object_get(ga, "label"), "?"), ha, first_name, hb);
			return false;
		}
	}
	return true;
}

/* Whether RUN (the shard NAME) is a part of the same run as FIRST: one design,
 * one clock, one platform, the same kernels; what differs in ERR. */
static bool same_run(json_t *run, json_t *first, const char *name, const char *first_name,
		     struct strbuf *err)
{
	for (size_t k = 0; k < sizeof(design) / sizeof(design[0]); k++)
		if (!agree(json_object_get(run, design[k].key), json_object_get(first, design[k].key))) {
			strbuf_addf(err, "%s is not a shard of the same run as %s: its %s differs", name,
				    first_name, design[k].what);
			return false;
		}
	/* the files the guests got: the same content, wherever each machine keeps it */
	if (!agree(json_object_get(json_object_get(run, "files"), "hash"),
		   json_object_get(json_object_get(first, "files"), "hash"))) {
		strbuf_addf(err, "%s is not a shard of the same run as %s: its guests' files differ",
			    name, first_name);
		return false;
	}
	const struct {
		const char *what;
		char *(*text)(json_t *);
	} facts[] = { { "clock", clock_text }, { "platform", platform_text } };
	for (size_t k = 0; k < sizeof(facts) / sizeof(facts[0]); k++) {
		char *a = facts[k].text(run), *b = facts[k].text(first);
		bool same = !strcmp(a, b);
		if (!same)
			strbuf_addf(err, "%s is not a shard of the same run as %s: its %s is %s, %s's %s",
				    name, first_name, facts[k].what, a, first_name, b);
		free(a);
		free(b);
		if (!same)
			return false;
	}
	return same_groups(run, first, name, first_name, err);
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
		if (!same_run(run, first, shards->items[i], shards->items[0], err))
			rc = -1;
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
		rc = json_file_write(path, merged, err);
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
