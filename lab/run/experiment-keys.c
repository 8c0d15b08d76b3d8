/*
 * The keys of an experiment (configs/experiments/NAME.conf): one row each,
 * with what lab keys says of it and the setter experiment_parse() calls
 * (key-table.h). Checks that take the whole file are experiment.c's.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare.h"
#include "experiment-keys.h"
#include "lab/trial/trial-restores.h"
#include "experiment-type.h"
#include "lab/keys/kvfile.h"
#include "lab/trial/perf-events.h"

#define MAX_TRIALS 1000
/* A number as the rows' texts write it (the bounds a row says are the ones kept). */
#define XSTR_(x) #x
#define XSTR(x) XSTR_(x)
/* max_trials' row says 4: one more than the first look, where a design can stop */
_Static_assert(SEQUENTIAL_FIRST_LOOK + 1 == 4, "max_trials' row: 4 to MAX_TRIALS");

static void split_words(const char *value, struct strlist *out)
{
	char *copy = xstrdup(value), *save = NULL;
	for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save))
		strlist_push(out, w);
	free(copy);
}

/* "yes" or "no" into *OUT. */
static const char *yes_or_no(const char *v, bool *out)
{
	if (strcmp(v, "yes") && strcmp(v, "no"))
		return "wants yes or no";
	*out = !strcmp(v, "yes");
	return NULL;
}

static void replace(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static const char *set_description(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	replace(&e->description, v);
	return NULL;
}

static const char *set_variants(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	strlist_clear(&e->variants);
	split_words(v, &e->variants);
	if (!e->variants.n)
		return "wants one or more variant names";
	for (size_t i = 0; i < e->variants.n; i++)
		if (strchr(e->variants.items[i], '#'))
			return "variant names have no '#' (use aa = yes for an A/A group)";
	return NULL;
}

static const char *set_baseline(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	replace(&e->baseline, v);
	return NULL;
}

static const char *set_aa(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	return yes_or_no(v, &e->aa);
}

static const char *set_debug(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	return yes_or_no(v, &e->debug);
}

static const char *set_profile(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	replace(&e->profile, v);
	return NULL;
}

static const char *set_trials(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul))
		return "wants a whole number";
	e->trials = (unsigned)ul;
	return NULL;
}

static const char *set_target_order(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul))
		return "wants a whole number";
	e->target_order = (int)ul;
	return NULL;
}

static const char *set_target_max_free_blocks(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul))
		return "wants a whole number";
	e->target_max_free_blocks = (long)ul;
	e->has_target = true;
	return NULL;
}

static const char *set_until_decided(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	return yes_or_no(v, &e->until_decided);
}

static const char *set_max_trials(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul))
		return "wants a whole number";
	e->max_trials = (unsigned)ul;
	return NULL;
}

static const char *set_jobs(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul))
		return "wants a whole number";
	e->jobs = (unsigned)ul;
	return NULL;
}

static const char *set_trial_timeout(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	double d;
	(void)key, (void)line;
	if (!parse_double(v, &d))
		return "wants a number of seconds";
	e->trial_timeout = d;
	return NULL;
}

static const char *set_restores(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul) || ul > MAX_RESTORES)
		return "wants a whole number, 0 to " XSTR(MAX_RESTORES);
	e->restores = (unsigned)ul;
	return NULL;
}

static const char *set_fault(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	return fault_key_set(&e->faults, e->path, key, v, line);
}

static const char *set_prepare(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	free(e->prepare);
	e->prepare = strcmp(v, "none") ? xstrdup(v) : NULL;
	e->prepare_line = line;
	return NULL;
}

static const char *set_workload(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	strlist_push(&e->workloads, v);
	REALLOC_ARRAY(e->workload_lines, e->workloads.n);
	e->workload_lines[e->workloads.n - 1] = line;
	return NULL;
}

/* `files = DIR`: an existing folder, made absolute. The reason is built in
 * a buffer of its own: the parse is one at a time, the message used at once. */
static const char *set_files(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	static char why[PATH_MAX + 128];
	char *path = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", e->files_base, v);
	char *real = realpath(path, NULL);
	const char *bad = NULL;
	(void)key;
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
		REALLOC_ARRAY(e->files_lines, e->files.n);
		e->files_lines[e->files.n - 1] = line;
	}
	free(real);
	free(path);
	return bad;
}

static const char *set_metrics(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	strlist_clear(&e->metrics);
	split_words(v, &e->metrics);
	e->metrics_line = line;
	return NULL;
}

static const char *set_parametric(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	strlist_clear(&e->parametric);
	split_words(v, &e->parametric);
	if (!e->parametric.n)
		return "wants one or more metric names or globs";
	e->parametric_line = line;
	return NULL;
}

static const char *set_primary(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	if (strpbrk(v, " \t*?["))
		return "wants one metric name (not a glob)";
	replace(&e->primary, v);
	e->primary_line = line;
	return NULL;
}

static const char *set_perf_events(void *ctx, const char *key, const char *value, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
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

static const char *set_arch(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	if (arch_parse(v, &e->platform.arch) < 0)
		return "wants x86_64 or arm64";
	e->platform_line = line;
	return NULL;
}

static const char *set_page_size(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key;
	if (page_size_parse(v, &e->platform.page_kib) < 0)
		return "wants 4k, 16k or 64k";
	e->platform_line = line;
	return NULL;
}

static const char *set_clock(void *ctx, const char *key, const char *v, int line)
{
	struct experiment *e = ctx;
	(void)key, (void)line;
	if (guest_clock_parse(v, &e->clock) < 0)
		return guest_clock_bad_value;
	e->clock_given = true;
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
	REALLOC_ARRAY(e->margin_lines, n + 1);
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

#define EQUIVALENCE_PREFIX "equivalence."

static const char *set_equivalence(void *ctx, const char *key, const char *v, int line)
{
	(void)key;
	return set_margin(ctx, "*", v, line);
}

static const char *set_equivalence_glob(void *ctx, const char *key, const char *v, int line)
{
	return set_margin(ctx, key + strlen(EQUIVALENCE_PREFIX), v, line);
}

#define MARGINS "2% (of the baseline), 0.5 (the metric's unit), 10pp (shares)"

/* The defaults here are experiment_parse_at()'s in experiment.c, as a file
 * says them; test-experiment-keys parses each and compares. */
static const struct key_def rows[] = {
	KEY("description", "text", KEY_REQUIRED, "", "one line saying what the experiment asks",
	    set_description),
	KEY("variants", "words", KEY_REQUIRED, "variant names (lab kernel list)",
	    "the kernels compared, each a group of trials", set_variants),
	KEY("baseline", "word", "(the first variant)", "one of variants",
	    "the variant the others are compared against", set_baseline),
	KEY("aa", "bool", "no", "yes | no",
	    "also run the baseline as a second group (BASELINE#2): an A/A check of the noise", set_aa),
	KEY("debug", "bool", "no", "yes | no",
	    "also run every variant on its debug build (VARIANT+debug)", set_debug),
	KEY("profile", "word", KEY_REQUIRED, "a profile name (lab profiles)",
	    "the machine the trials boot", set_profile),
	KEY("trials", "count", "3", "1 to " XSTR(MAX_TRIALS), "trials a group (unless until_decided = yes)",
	    set_trials),
	KEY("until_decided", "bool", "no", "yes | no",
	    "rounds of trials until every headline metric is decided, at most max_trials a group",
	    set_until_decided),
	KEY("max_trials", "count", "(20 with until_decided)", "4 to " XSTR(MAX_TRIALS),
	    "the most trials a group with until_decided = yes (the first look is at 3)",
	    set_max_trials),
	KEY("jobs", "count", "(as many as the host holds)", "1 to " XSTR(MAX_JOBS),
	    "trials at once (lab run -j wins); the trials and their order stay the same", set_jobs),
	KEY("trial_timeout", "seconds", "600", "10 to 86400",
	    "seconds one boot may take, all included (docs/CLOCKS.md: scaled under icount)",
	    set_trial_timeout),
	KEY("restores", "count", "0", "0 to " XSTR(MAX_RESTORES),
	    "each trial boots once, saved at the agent's ready, and runs the workloads in this many "
	    "trials restored from it, each with a seed of its own; the boot is the unit, its figures "
	    "their means (docs/CLOCKS.md); 0: every trial boots", set_restores),
	KEY_MEMBERS("fail_page_alloc, failslab", set_fault, fault_key_member),
	KEY("prepare", "command", "none", "a command line, or none",
	    "shapes the machine before the workloads (fragment, say), held to their end",
	    set_prepare),
	KEY("target_order", "count", "3", "1 to 10", "the page order of the prepare step's target",
	    set_target_order),
	KEY("target_max_free_blocks", "count", "(no target)", "0 to 1000000",
	    "at most this many free blocks of order >= target_order as the workload starts, else "
	    "the trial is off-target (needs prepare)", set_target_max_free_blocks),
	KEY_REPEATED("workload", "command", KEY_REQUIRED, "a command line (oomlab-workload --list)",
		     "a command the guest runs, after those before it", set_workload),
	KEY_REPEATED("files", "folder", "(none)", "a folder, relative to the experiment file's",
		     "a folder brought into the guest (docs/PROGRAMS.md)", set_files),
	KEY("metrics", "globs", "(every metric that varies)", "metric names or globs",
	    "the headline: the rows lab run prints, the family Holm's correction is over",
	    set_metrics),
	KEY("primary", "metric", "(none)", "a metric one of metrics matches",
	    "the headline metric tested first, at the full alpha (docs/STATISTICS.md)", set_primary),
	KEY("parametric", "globs", "(none)", "globs of headline metrics, no shares",
	    "their rows take Welch's t test, not the permutation test (docs/STATISTICS.md)",
	    set_parametric),
	KEY("perf_events", "events", "default", "default | none | EVENT [if FILTER]; ...",
	    "the trace events the guest's perf records", set_perf_events),
	KEY("arch", "word", "x86_64", "x86_64 | arm64", "the guest's architecture", set_arch),
	KEY("page_size", "word", "4k", "4k | 16k | 64k", "the guest kernel's page size (arm64)",
	    set_page_size),
	KEY("clock", "word", "(the profile's)", "realtime | icount",
	    "what a guest second is (docs/CLOCKS.md); wins over the profile's", set_clock),
	KEY("equivalence", "margin", "(none)", MARGINS,
	    "every headline metric's equivalence margin: within it, a row can be equivalent",
	    set_equivalence),
	KEY_FAMILY(EQUIVALENCE_PREFIX "GLOB", "margin", "(equivalence's)", MARGINS,
		   "the equivalence margin of the metrics GLOB matches (the first such key wins)",
		   set_equivalence_glob, EQUIVALENCE_PREFIX),
};

const struct key_table experiment_keys = { "experiment", "configs/experiments/NAME.conf", rows,
					   sizeof(rows) / sizeof(rows[0]) };
