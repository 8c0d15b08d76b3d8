/* Experiments: parsing and validation (their keys: experiment-keys.c). */
#include "analysis/metrics/metric_catalog.h"
#include "experiment.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/glob.h"
#include "lab/keys/kvfile.h"
#include "common/paths.h"
#include "common/proto/workload-line.h"
#include "lab/trial/perf-events.h"
#include "lab/kernel/variant.h"

/* True when a headline glob matches the primary metric. */
static bool primary_in_metrics(const struct experiment *e)
{
	for (size_t i = 0; i < e->metrics.n; i++)
		if (!fnmatch(e->metrics.items[i], e->primary, 0))
			return true;
	return false;
}

/* True when the known-metrics table takes NAME for rare events or an
 * outcome: a share, whose test is Fisher's, never Student's t. */
static bool is_share(const char *name)
{
	const struct metric_def *known = metric_catalog_lookup(name);
	return known && (known->kind == METRIC_EVENTS || known->kind == METRIC_OUTCOME);
}

/* Why a `parametric` glob is refused, or NULL: it must be able to match a
 * name some headline glob matches (glob.h: so that it names headline
 * metrics, not a typo), and a glob the known-metrics table takes for rare
 * events or outcomes is refused. */
static const char *parametric_refused(const struct experiment *e, const char *glob)
{
	if (is_share(glob))
		return "is a share (events or outcomes take Fisher's test, never Student's t)";
	/* a malformed glob is metric-check's to name, with its file and line */
	if (glob_malformed(glob))
		return NULL;
	for (size_t i = 0; i < e->metrics.n; i++)
		if (glob_malformed(e->metrics.items[i]) || glob_intersects(e->metrics.items[i], 0, glob))
			return NULL;
	return "matches none of the metrics (the headline, metrics = ...)";
}

/* True when a parametric glob takes the metric NAME (experiment_parametric_rows). */
static bool parametric_takes(const struct experiment *e, const char *name)
{
	if (is_share(name))
		return false;
	for (size_t i = 0; i < e->parametric.n; i++)
		if (!fnmatch(e->parametric.items[i], name, 0))
			return true;
	return false;
}

size_t experiment_parametric_metrics(const struct experiment *e)
{
	size_t n = 0;
	if (e->primary)
		return parametric_takes(e, e->primary);
	for (size_t i = 0; i < e->metrics.n; i++)
		n += parametric_takes(e, e->metrics.items[i]);
	return n;
}

json_t *experiment_parametric_json(const struct experiment *e)
{
	json_t *globs = json_array();
	for (size_t i = 0; i < e->parametric.n; i++)
		json_array_append_new(globs, json_string(e->parametric.items[i]));
	return globs;
}

int experiment_parse(struct experiment *e, const char *name, const char *file, const char *text,
		     struct strbuf *err)
{
	char *dir = xstrdup(file);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';   /* "/x.conf" is in "/" */
	int rc = experiment_parse_at(e, name, file, slash ? dir : ".", text, err);
	free(dir);
	return rc;
}

int experiment_parse_at(struct experiment *e, const char *name, const char *file, const char *base,
			const char *text, struct strbuf *err)
{
	/* each key's default; experiment-keys.c's table says them */
	memset(e, 0, sizeof(*e));
	e->files_base = realpath(base, NULL);
	if (!e->files_base)
		e->files_base = xstrdup(base);
	e->name = xstrdup(name);
	e->path = xstrdup(file);
	e->text = xstrdup(text);
	e->trials = 3;
	e->trial_timeout = 600;
	e->target_order = 3;
	e->platform = PLATFORM_DEFAULT;
	perf_default_events(&e->perf_events);
	/* the name makes the run id, a folder name written into scripts: the one name rule */
	if (kvfile_name_check(name, "experiment", file, err) < 0)
		return -1;
	/* '#' starts a comment only at the start of a line: commands may hold one. */
	const struct kvfile_options opts = { .inline_comments = false };
	if (kvfile_parse(file, text, &opts, &experiment_keys, e, err) < 0)
		return -1;
	if (!e->description || !e->variants.n || !e->profile || !e->workloads.n) {
		strbuf_addf(err, "%s: description, variants, profile and at least one workload are required",
			    file);
		return -1;
	}
	struct strbuf why = STRBUF_INIT;
	if (platform_check(&e->platform, &why) < 0) {
		strbuf_addf(err, "%s:%d: %s", file, e->platform_line, why.buf);
		strbuf_release(&why);
		return -1;
	}
	if (e->has_target && !e->prepare) {
		strbuf_addf(err, "%s: target_max_free_blocks is the prepare step's target: it needs prepare",
			    file);
		return -1;
	}
	if (e->max_trials && !e->until_decided) {
		strbuf_addf(err, "%s: max_trials goes with until_decided = yes", file);
		return -1;
	}
	if (e->primary && !primary_in_metrics(e)) {
		strbuf_addf(err, "%s:%d: primary = %s: not one of the metrics (the headline, "
			    "metrics = ...)", file, e->primary_line, e->primary);
		return -1;
	}
	for (size_t i = 0; i < e->parametric.n; i++) {
		const char *why = parametric_refused(e, e->parametric.items[i]);
		if (why) {
			strbuf_addf(err, "%s:%d: parametric = %s: %s", file, e->parametric_line,
				    e->parametric.items[i], why);
			return -1;
		}
	}
	if (e->until_decided && !e->max_trials)
		e->max_trials = DEFAULT_MAX_TRIALS;
	if (!e->baseline)
		e->baseline = xstrdup(e->variants.items[0]);
	else if (!strlist_has(&e->variants, e->baseline)) {
		strbuf_addf(err, "%s: baseline '%s' is not one of the variants", file, e->baseline);
		return -1;
	}
	return 0;
}

int experiment_load(struct experiment *e, const char *name, struct strbuf *err)
{
	/* A path names a file outside configs/experiments/; its base name is the experiment's. */
	if (strchr(name, '/') || ends_with(name, ".conf")) {
		char *text = read_file(name, NULL);
		if (!text) {
			strbuf_addf(err, "%s: %s", name, strerror(errno));
			memset(e, 0, sizeof(*e));
			return -1;
		}
		const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		char *short_name = xstrndup(base, ends_with(base, ".conf") ? strlen(base) - 5 : strlen(base));
		int rc = experiment_parse(e, short_name, name, text, err);
		free(short_name);
		free(text);
		return rc;
	}
	char *file, *text;
	int rc = kvfile_read_named("experiments", "experiment", name, &file, &text, err);
	if (rc < 0)
		memset(e, 0, sizeof(*e));
	else
		rc = experiment_parse(e, name, file, text, err);
	free(text);
	free(file);
	return rc;
}

void experiment_names(struct strlist *names)
{
	kvfile_names("experiments", names);
}

void experiment_groups(const struct experiment *e, struct strlist *labels)
{
	for (size_t i = 0; i < e->variants.n; i++)
		strlist_push(labels, e->variants.items[i]);
	for (size_t i = 0; e->debug && i < e->variants.n; i++)
		strlist_push_owned(labels, xasprintf("%s%s", e->variants.items[i],
						     build_target_suffix(&(struct build_target){ .companion = BUILD_DEBUG })));
	if (e->aa)
		strlist_push_owned(labels, xasprintf("%s#2", e->baseline));
}

char *group_variant(const char *label)
{
	return xstrndup(label, strcspn(label, "#"));
}

char *experiment_command(const struct experiment *e)
{
	/*
	 * Each line runs under the agent's line runner (common/proto/
	 * workload-line.h), which says how it ended and what it took: its
	 * status, signal, wall time, the workload cgroup's memory peak and OOM
	 * kills, as metrics <workload>.*. A line that ends by a signal or with
	 * an error status (its opener OOM-killed, say) is a result of the
	 * trial; only a broken experiment (a usage error, a missing program)
	 * fails the trial, and lab run's first round stops a run whose line
	 * failed alike in every trial (first-round.h). This script is the
	 * lab's, not the workload's: it keeps out of the OOM killer's way, and
	 * the runner starts each workload at oom_score_adj 0.
	 */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb,
		      "echo -1000 > /proc/self/oom_score_adj\n"
		      "rc=0\n"
		      "oomlab_line=0\n"
		      "run() {\n"
		      "\toomlab_line=$((oomlab_line + 1))\n"
		      "\t" LINE_RUNNER_PATH " " LINE_RUNNER_OPTION " $oomlab_line \"$@\"\n"
		      "\ts=$?\n"
		      "\tcase $s in 2|126|127) rc=$s ;; esac\n"
		      "}\n");
	for (size_t i = 0; i < e->workloads.n; i++)
		strbuf_addf(&sb, "run %s\n", e->workloads.items[i]);
	strbuf_addstr(&sb, "exit $rc\n");
	return strbuf_detach(&sb);
}

void experiment_clear(struct experiment *e)
{
	free(e->name);
	free(e->path);
	free(e->text);
	free(e->description);
	strlist_clear(&e->variants);
	free(e->baseline);
	free(e->profile);
	free(e->prepare);
	strlist_clear(&e->workloads);
	free(e->workload_lines);
	strlist_clear(&e->perf_events);
	strlist_clear(&e->metrics);
	free(e->primary);
	strlist_clear(&e->parametric);
	strlist_clear(&e->margin_globs);
	strlist_clear(&e->margins);
	free(e->margin_lines);
	strlist_clear(&e->files);
	free(e->files_lines);
	free(e->files_base);
	memset(e, 0, sizeof(*e));
}
