/* Experiments: parsing and validation. */
#include "analysis/metrics/metric_catalog.h"
#include "experiment.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare.h"
#include "glob.h"
#include "kvfile.h"
#include "common/paths.h"
#include "common/proto/workload-line.h"
#include "perf-events.h"
#include "variant.h"

#define MAX_TRIALS 1000

static void split_words(const char *value, struct strlist *out)
{
	char *copy = xstrdup(value), *save = NULL;
	for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save))
		strlist_push(out, w);
	free(copy);
}

static const char *set_perf_events(struct experiment *e, const char *value)
{
	strlist_clear(&e->perf_events);
	if (!strcmp(value, "none"))
		return NULL;
	if (!strcmp(value, "default")) {
		perf_default_events(&e->perf_events);
		return NULL;
	}
	/* A list separated by ';' since filters may hold commas. */
	char *copy = xstrdup(value), *save = NULL;
	for (char *spec = strtok_r(copy, ";", &save); spec; spec = strtok_r(NULL, ";", &save)) {
		char *t = trim(spec);
		if (!*t)
			continue;
		if (perf_event_check(t)) {
			free(copy);
			return "wants default, none, or events separated by ';' such as "
			       "oom:mark_victim; kmem:mm_page_alloc if order > 0";
		}
		strlist_push(&e->perf_events, t);
	}
	free(copy);
	return NULL;
}

/* `equivalence = M` and `equivalence.GLOB = M` (at LINE); the default is
 * kept last, since the first glob that matches a metric wins. */
static const char *set_margin(struct experiment *e, const char *glob, const char *v, int line)
{
	struct compare_margin m;

	if (compare_margin_parse(v, &m) != 0)
		return "wants a margin: a percentage of the baseline such as 2%, or a number in "
		       "the metric's unit (pp for shares) such as 0.5 or 10pp";
	if (!*glob)
		return "wants a metric name or glob after 'equivalence.'";
	size_t n = e->margin_globs.n;
	e->margin_lines = xrealloc(e->margin_lines, (n + 1) * sizeof(int));
	if (!strcmp(glob, "*") || !n || strcmp(e->margin_globs.items[n - 1], "*")) {
		strlist_push(&e->margin_globs, glob);
		strlist_push(&e->margins, v);
		e->margin_lines[n] = line;
		return NULL;
	}
	/* a default already given stays last */
	char *last_glob = e->margin_globs.items[n - 1];
	char *last = e->margins.items[n - 1];
	e->margin_globs.items[n - 1] = xstrdup(glob);
	e->margins.items[n - 1] = xstrdup(v);
	strlist_push_owned(&e->margin_globs, last_glob);
	strlist_push_owned(&e->margins, last);
	e->margin_lines[n] = e->margin_lines[n - 1];
	e->margin_lines[n - 1] = line;
	return NULL;
}

/* `files = DIR`: an existing folder, made absolute. The reason is built in
 * a buffer of its own: the parse is one at a time, the message used at once. */
static const char *add_files(struct experiment *e, const char *v, int line)
{
	static char why[PATH_MAX + 128];
	char *path = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", e->files_base, v);
	char *real = realpath(path, NULL);
	const char *bad = NULL;
	if (!real || !is_dir(real)) {
		snprintf(why, sizeof(why), "wants a folder: %s %s%s", path,
			 real ? "is not a folder" : "does not exist",
			 v[0] == '/' ? "" : " (relative to the experiment file's folder)");
		bad = why;
	} else if (strlist_has(&e->files, real)) {
		snprintf(why, sizeof(why), "names %s a second time", real);
		bad = why;
	} else {
		strlist_push(&e->files, real);
		e->files_lines = xrealloc(e->files_lines, e->files.n * sizeof(int));
		e->files_lines[e->files.n - 1] = line;
	}
	free(real);
	free(path);
	return bad;
}

static const char *set_key(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	double d;
	if (!strcmp(key, "description")) {
		free(e->description);
		e->description = xstrdup(v);
	} else if (!strcmp(key, "variants")) {
		strlist_clear(&e->variants);
		split_words(v, &e->variants);
		if (!e->variants.n)
			return "wants one or more variant names";
		for (size_t i = 0; i < e->variants.n; i++)
			if (strchr(e->variants.items[i], '#'))
				return "variant names have no '#' (use aa = yes for an A/A group)";
	} else if (!strcmp(key, "baseline")) {
		free(e->baseline);
		e->baseline = xstrdup(v);
	} else if (!strcmp(key, "aa")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return "wants yes or no";
		e->aa = !strcmp(v, "yes");
	} else if (!strcmp(key, "debug")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return "wants yes or no";
		e->debug = !strcmp(v, "yes");
	} else if (!strcmp(key, "profile")) {
		free(e->profile);
		e->profile = xstrdup(v);
	} else if (!strcmp(key, "trials")) {
		if (!parse_ulong(v, &ul) || ul < 1 || ul > MAX_TRIALS)
			return "wants a number of trials from 1 to 1000";
		e->trials = (unsigned)ul;
	} else if (!strcmp(key, "target_order")) {
		if (!parse_ulong(v, &ul) || ul < 1 || ul > 10)
			return "wants a page order from 1 to 10";
		e->target_order = (int)ul;
	} else if (!strcmp(key, "target_max_free_blocks")) {
		if (!parse_ulong(v, &ul) || ul > 1000000)
			return "wants a number of free blocks from 0 to 1000000";
		e->target_max_free_blocks = (long)ul;
		e->has_target = true;
	} else if (!strcmp(key, "until_decided")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return "wants yes or no";
		e->until_decided = !strcmp(v, "yes");
	} else if (!strcmp(key, "max_trials")) {
		if (!parse_ulong(v, &ul) || ul <= SEQUENTIAL_FIRST_LOOK || ul > MAX_TRIALS)
			return "wants a number of trials from 4 to 1000 (the first look is at 3)";
		e->max_trials = (unsigned)ul;
	} else if (!strcmp(key, "jobs")) {
		if (!parse_ulong(v, &ul) || ul < 1 || ul > MAX_JOBS)
			return "wants a number of trials at once from 1 to 64";
		e->jobs = (unsigned)ul;
	} else if (!strcmp(key, "trial_timeout")) {
		if (!parse_double(v, &d) || d < 10 || d > 86400)
			return "wants seconds from 10 to 86400";
		e->trial_timeout = d;
	} else if (fault_capability_of_key(key) >= 0) {
		return fault_key_set(&e->faults, e->path, key, v, line);
	} else if (!strcmp(key, "prepare")) {
		free(e->prepare);
		e->prepare = strcmp(v, "none") ? xstrdup(v) : NULL;
		e->prepare_line = line;
	} else if (!strcmp(key, "workload")) {
		strlist_push(&e->workloads, v);
		e->workload_lines = xrealloc(e->workload_lines, e->workloads.n * sizeof(int));
		e->workload_lines[e->workloads.n - 1] = line;
	} else if (!strcmp(key, "files")) {
		return add_files(e, v, line);
	} else if (!strcmp(key, "metrics")) {
		strlist_clear(&e->metrics);
		split_words(v, &e->metrics);
		e->metrics_line = line;
	} else if (!strcmp(key, "parametric")) {
		strlist_clear(&e->parametric);
		split_words(v, &e->parametric);
		if (!e->parametric.n)
			return "wants one or more metric names or globs";
		e->parametric_line = line;
	} else if (!strcmp(key, "primary")) {
		if (strpbrk(v, " \t*?["))
			return "wants one metric name (not a glob)";
		free(e->primary);
		e->primary = xstrdup(v);
		e->primary_line = line;
	} else if (!strcmp(key, "perf_events")) {
		return set_perf_events(e, v);
	} else if (!strcmp(key, "arch")) {
		if (arch_parse(v, &e->platform.arch) < 0)
			return "wants x86_64 or arm64";
		e->platform_line = line;
	} else if (!strcmp(key, "page_size")) {
		if (page_size_parse(v, &e->platform.page_kib) < 0)
			return "wants 4k, 16k or 64k";
		e->platform_line = line;
	} else if (!strcmp(key, "clock")) {
		if (guest_clock_parse(v, &e->clock) < 0)
			return guest_clock_bad_value;
		e->clock_given = true;
	} else if (!strcmp(key, "equivalence")) {
		return set_margin(e, "*", v, line);
	} else if (starts_with(key, "equivalence.")) {
		return set_margin(e, key + strlen("equivalence."), v, line);
	} else {
		return kvfile_unknown_key;
	}
	return NULL;
}

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
	/* '#' starts a comment only at the start of a line: commands may hold one. */
	static const char *const repeatable[] = { "workload", "files", NULL };
	const struct kvfile_options opts = { .inline_comments = false, .repeatable = repeatable };
	if (kvfile_parse(file, text, &opts, set_key, e, err) < 0)
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
						     build_target_suffix(&(struct build_target){ .debug = true })));
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
