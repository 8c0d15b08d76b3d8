/*
 * lab bisect: the first commit of a git range that moved a metric, each
 * step a sequential run of the midpoint against the endpoints' trials, the
 * error budget spread over the steps (bisect-plan.h; docs/STATISTICS.md,
 * "Bisection"). Every run is an ordinary `lab run` child (its folder one
 * that compare, report and export read); the bisect folder keeps the
 * settings (bisect.json), the variants and experiments it made, and a log.
 */
#include <errno.h>
#include <stdarg.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/compare/compare.h"
#include "analysis/compare/compare_verdict.h"
#include "analysis/run/run-data.h"
#include "analysis/stats/stats.h"
#include "lab/bisect/bisect-loop.h"
#include "lab/bisect/bisect-plan.h"
#include "builtin.h"
#include "lab/run/experiment-compose.h"
#include "common/json-file.h"
#include "common/paths.h"
#include "common/proto/name-rule.h"
#include "common/run-command.h"
#include "lab/run/experiment.h"
#include "lab/kernel/git-tree.h"
#include "lab/cli/options.h"
#include "lab/machine/vm.h"

#define BISECT_JSON "bisect.json"
#define DEFAULT_MAX_STEP_TRIALS 8
#define DEFAULT_SKIPS 2
#define BISECT_ALPHA 0.05
/* exit statuses beside 0 (named), 1 (error) and 2 (bad input) */
#define EXIT_NO_DIFFERENCE 3
#define EXIT_NOT_NARROWED 4

static const char bisect_usage_head[] =
	"usage: lab bisect --git DIR --good REF --bad REF --experiment E --metric M [options]\n"
	"       lab bisect --resume FOLDER\n"
	"\n"
	"Finds the first bad commit between good and bad (first-parent history) on the\n"
	"metric M of experiment E, as git bisect does, with steps that know the noise:\n"
	"  1. good and bad run in rounds, as one run, a look after each from the third:\n"
	"     the sequential test of bad against good on M at --alpha (0.05) with\n"
	"     O'Brien-Fleming boundaries; unless they differ by --max-trials, the\n"
	"     bisection stops: good and bad do not differ on M.\n"
	"  2. each step builds the midpoint commit (a variant 'git DIR COMMIT') and runs\n"
	"     its trials in rounds; at each look from the third trial it tests them\n"
	"     against good's trials and against bad's, each at the step's level\n"
	"     alpha/K with O'Brien-Fleming boundaries: like bad when it differs from\n"
	"     good the way bad does, like good when it differs from bad towards good.\n"
	"     K = ceil(log2(candidates)) + skips is the most steps the bisection takes,\n"
	"     so it names a wrong commit at most alpha of the time.\n"
	"  3. a step that stays undecided at --max-trials, or differs from both, a\n"
	"     commit that does not build and a kernel that does not boot are skipped\n"
	"     (git bisect skip): they stay in the range, the next step takes the\n"
	"     untested commit nearest the middle.\n"
	"Every run is an ordinary run folder (compare, report, export read it) under\n"
	"the bisect folder, which holds bisect.json and a log (in the spirit of git\n"
	"bisect log). Exit status: 0 the first bad commit is named; 3 good and bad do\n"
	"not differ on M; 4 the steps (or skips) ran out before one commit was left:\n"
	"the candidates left are listed; 1 an error; 2 bad input.\n"
	"\n";

struct bisect {
	char *dir;
	json_t *meta;		/* bisect.json */
	const char *repo, *metric, *exp_name;
	size_t max_trials;
	unsigned skips, jobs;
	double alpha;
	struct strlist commits, subjects;	/* the candidates, oldest first */
	char *good, *bad;	/* commit ids */
	char *endpoints;	/* the endpoint run's folder */
	size_t endpoint_rounds;	/* the rounds it has run */
	bool endpoints_judged;	/* before: a resumed bisection's */
	struct compare_margin margin;	/* the experiment's equivalence margin for the metric */
	FILE *log;
};

static char *commit_subject(const char *repo, const char *commit)
{
	struct strbuf out = STRBUF_INIT;
	const char *args[] = { "log", "-1", "--format=%s", commit, NULL };
	char *s = xstrdup(git_capture(repo, args, &out) == 0 ? strbuf_first_line(&out) : "");
	strbuf_release(&out);
	return s;
}

static char *short_id(const char *commit)
{
	return xstrndup(commit, 12);
}

/* A child `lab` (this binary) with the bisect's variants on its path. */
static int run_lab(const struct bisect *b, const char *const *args, const char *out_path,
		   const char *err_path)
{
	const char *old = getenv("OOMLAB_VARIANT_PATH");
	char *path = old && *old ? xasprintf("OOMLAB_VARIANT_PATH=%s/variants:%s", b->dir, old)
				 : xasprintf("OOMLAB_VARIANT_PATH=%s/variants", b->dir);
	const char *env[] = { path, NULL };
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, lab_binary());
	if (quiet)
		strlist_push(&argv, "--quiet");
	for (const char *const *a = args; *a; a++)
		strlist_push(&argv, *a);
	struct child_process cp = { .argv = strlist_argv(&argv), .env = env, .out_path = out_path,
				    .err_path = err_path };
	int rc = run_command(&cp);
	strlist_clear(&argv);
	free(path);
	if (interrupted_by)
		exit(128 + interrupted_by);
	return rc;
}

/* The variant NAME, COMMIT of the repository, in the bisect folder. */
static void make_variant(const struct bisect *b, const char *name, const char *commit)
{
	char *dir = xasprintf("%s/variants/%s", b->dir, name);
	char *source = xasprintf("%s/source", dir), *readme = xasprintf("%s/README", dir);
	char *line = xasprintf("git %s %s\n", b->repo, commit);
	char *about = xasprintf("%s: commit %s of %s (lab bisect)\n", name, commit, b->repo);
	if (mkdir_p(dir, 0755) < 0 || write_file_str(source, line) < 0 || write_file_str(readme, about) < 0)
		die("bisect: cannot write %s: %s", dir, strerror(errno));
	free(dir);
	free(source);
	free(readme);
	free(line);
	free(about);
}

/* The user's experiment with the bisect's design: its variants, the metric
 * as the only headline (and the primary of the endpoint run), the trials.
 * Everything else (profile, clock, workloads, margins) as the user wrote it. */
static char *make_experiment(const struct bisect *b, const char *name, const char *variants,
			     bool endpoints)
{
	static const char *const replaced[] = { "variants", "baseline", "aa", "debug", "trials",
						"until_decided", "max_trials", "metrics", "primary",
						"parametric", NULL };
	const char *text = json_string_value(json_object_get(b->meta, "experiment_text"));
	struct strbuf out = STRBUF_INIT;
	char *kept = experiment_text_without(text, replaced);
	strbuf_addstr(&out, kept);
	free(kept);
	strbuf_addf(&out, "# lab bisect's design\nvariants = %s\nmetrics = %s\n", variants, b->metric);
	if (json_is_true(json_object_get(b->meta, "parametric")))
		strbuf_addf(&out, "parametric = %s\n", b->metric);
	/* lab bisect looks at the trials itself: each run goes by --rounds up to its trials */
	if (endpoints)
		strbuf_addf(&out, "primary = %s\n", b->metric);
	strbuf_addf(&out, "trials = %zu\n", b->max_trials);
	char *dir = xasprintf("%s/experiments", b->dir);
	char *path = xasprintf("%s/%s.conf", dir, name);
	if (mkdir_p(dir, 0755) < 0 || write_file_str(path, out.buf) < 0)
		die("bisect: cannot write %s: %s", path, strerror(errno));
	free(dir);
	strbuf_release(&out);
	return path;
}

static void save_meta(const struct bisect *b)
{
	char *path = xasprintf("%s/" BISECT_JSON, b->dir);
	struct strbuf err = STRBUF_INIT;
	if (json_file_write(path, b->meta, &err) < 0)
		die("bisect: %s", strbuf_str(&err));
	strbuf_release(&err);
	free(path);
}

static void logf_(struct bisect *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct bisect *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(b->log, fmt, ap);
	va_end(ap);
	fflush(b->log);
}

/* ---- a new bisection: the range, the design, the folder ---- */

static void resolve_or_die(const char *repo, const char *ref, const char *option, char **commit)
{
	char *tree = NULL;
	struct strbuf err = STRBUF_INIT;
	if (git_resolve(repo, ref, &tree, commit, &err) < 0)
		die_usage("bisect: %s %s: %s", option, ref, err.buf);
	if (!**commit)
		die_usage("bisect: %s %s: a tree, not a commit", option, ref);
	free(tree);
}

static void list_candidates(struct bisect *b)
{
	struct strbuf out = STRBUF_INIT;
	const char *anc[] = { "merge-base", "--is-ancestor", b->good, b->bad, NULL };
	if (git_capture(b->repo, anc, &out) != 0)
		die_usage("bisect: --good %.12s is not an ancestor of --bad %.12s", b->good, b->bad);
	char *range = xasprintf("%s..%s", b->good, b->bad);
	const char *args[] = { "rev-list", "--first-parent", "--reverse", range, NULL };
	struct strlist lines = STRLIST_INIT;
	if (git_capture_lines(b->repo, args, &lines) != 0)
		die("bisect: git rev-list %s failed: %s", range, lines.n ? trim(lines.items[0]) : "");
	/* up to the first empty line, as ever */
	for (size_t i = 0; i < lines.n && *lines.items[i]; i++)
		strlist_push(&b->commits, lines.items[i]);
	strlist_clear(&lines);
	if (!b->commits.n)
		die_usage("bisect: --good and --bad are the same commit");
	free(range);
	strbuf_release(&out);
}

/* The candidates' subjects from one git log of the range (its first-parent
 * list is the candidates'), not a git per commit: a kernel range holds
 * thousands. Blank when git does not give one a line each. */
static void list_subjects(struct bisect *b)
{
	char *range = xasprintf("%s..%s", b->good, b->bad);
	const char *args[] = { "log", "--first-parent", "--reverse", "--format=%s", range, NULL };
	if (git_capture_lines(b->repo, args, &b->subjects) != 0 || b->subjects.n != b->commits.n) {
		strlist_clear(&b->subjects);
		for (size_t i = 0; i < b->commits.n; i++)
			strlist_push(&b->subjects, "");
	}
	free(range);
}

static bool parametric_metric(const struct experiment *e, const char *metric)
{
	for (size_t i = 0; i < e->parametric.n; i++)
		if (!fnmatch(e->parametric.items[i], metric, 0))
			return true;
	return false;
}

static void setup_new(struct bisect *b, const char *repo, const char *good, const char *bad,
		      const char *experiment, const char *out)
{
	char real[PATH_MAX];
	if (!realpath(repo, real))
		die_usage("bisect: --git %s: %s", repo, strerror(errno));
	b->repo = xstrdup(real);
	resolve_or_die(b->repo, good, "--good", &b->good);
	resolve_or_die(b->repo, bad, "--bad", &b->bad);
	list_candidates(b);
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	if (experiment_load(&e, experiment, &err) < 0)
		die_usage("bisect: %s", err.buf);
	char stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	b->dir = out ? xstrdup(out) : xasprintf("%s/bisect-%s-%s-%.6s", results_root(), e.name, stamp, b->bad);
	char *meta_path = xasprintf("%s/" BISECT_JSON, b->dir);
	if (path_exists(meta_path))
		die_usage("bisect: --out %s holds a bisection (lab bisect --resume %s goes on)", b->dir,
			  b->dir);
	free(meta_path);
	char *other = folder_first_entry(b->dir);
	if (other)
		die_usage("bisect: --out %s holds other files (%s) and no bisection: a bisection goes "
			  "into a new or empty folder", b->dir, other);
	path_plain_or_die("bisect", "the bisect folder", b->dir);
	path_plain_or_die("bisect", "the kernel cache", cache_root());
	if (mkdir_p(b->dir, 0755) < 0)
		die("bisect: cannot create %s: %s", b->dir, strerror(errno));
	b->meta = json_object();
	json_object_set_new(b->meta, "git", json_string(b->repo));
	json_object_set_new(b->meta, "good_ref", json_string(good));
	json_object_set_new(b->meta, "bad_ref", json_string(bad));
	json_object_set_new(b->meta, "good", json_string(b->good));
	json_object_set_new(b->meta, "bad", json_string(b->bad));
	json_object_set_new(b->meta, "experiment", json_string(e.name));
	json_object_set_new(b->meta, "experiment_file", json_string(e.path));
	json_object_set_new(b->meta, "experiment_text", json_string(e.text));
	json_object_set_new(b->meta, "metric", json_string(b->metric));
	json_object_set_new(b->meta, "parametric", json_boolean(parametric_metric(&e, b->metric)));
	json_object_set_new(b->meta, "max_trials", json_integer((json_int_t)b->max_trials));
	json_object_set_new(b->meta, "skips", json_integer(b->skips));
	json_object_set_new(b->meta, "jobs", json_integer(b->jobs));
	json_object_set_new(b->meta, "alpha", json_real(b->alpha));
	json_t *c = json_array();
	for (size_t i = 0; i < b->commits.n; i++)
		json_array_append_new(c, json_string(b->commits.items[i]));
	json_object_set_new(b->meta, "candidates", c);
	json_object_set_new(b->meta, "steps", json_array());
	/* the margin the endpoint check's equivalence verdict takes, as run.json's would be */
	for (size_t i = 0; i < e.margin_globs.n; i++)
		if (!fnmatch(e.margin_globs.items[i], b->metric, 0)) {
			json_object_set_new(b->meta, "margin", json_string(e.margins.items[i]));
			compare_margin_parse(e.margins.items[i], &b->margin);	/* parsed on loading */
			break;
		}
	experiment_clear(&e);
	save_meta(b);
}

/* The metric's name goes into the generated experiment as a key's value: the
 * one name rule (name-rule.h), so that no newline adds keys. WHERE: the option or file. */
static void check_metric_name(const char *metric, const char *where)
{
	const char *why = name_rule_refusal(metric, NAME_PLAIN);
	if (why) {
		char *shown = name_rule_shown(metric);
		die_usage("bisect: %s '%s': %s", where, shown, why);
	}
}

static void setup_resume(struct bisect *b, const char *folder)
{
	b->dir = xstrdup(folder);
	b->margin = (struct compare_margin){ .value = NAN };
	char *path = xasprintf("%s/" BISECT_JSON, folder);
	json_error_t je;
	b->meta = json_load_file(path, 0, &je);
	if (!b->meta)
		die_usage("bisect: --resume %s: %s", folder, je.text);
	b->repo = json_string_value(json_object_get(b->meta, "git"));
	b->metric = json_string_value(json_object_get(b->meta, "metric"));
	const char *good = json_string_value(json_object_get(b->meta, "good"));
	const char *bad = json_string_value(json_object_get(b->meta, "bad"));
	if (!b->repo || !b->metric || !good || !bad)
		die_usage("bisect: %s: not a bisection's settings", path);
	check_metric_name(b->metric, path);
	b->good = xstrdup(good);
	b->bad = xstrdup(bad);
	b->max_trials = (size_t)json_integer_value(json_object_get(b->meta, "max_trials"));
	b->skips = (unsigned)json_integer_value(json_object_get(b->meta, "skips"));
	if (!b->jobs)
		b->jobs = (unsigned)json_integer_value(json_object_get(b->meta, "jobs"));
	b->alpha = json_real_value(json_object_get(b->meta, "alpha"));
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(b->meta, "candidates"), i, c)
		strlist_push(&b->commits, json_string_value(c));
	const char *margin = json_string_value(json_object_get(b->meta, "margin"));
	if (!b->commits.n || b->max_trials < SEQUENTIAL_FIRST_LOOK || !(b->alpha > 0) ||
	    (margin && compare_margin_parse(margin, &b->margin) != 0))
		die_usage("bisect: %s: not a bisection's settings", path);
	free(path);
}

/* ---- before anything boots: the budget and whether a step can decide ---- */

static void say_design(const struct bisect *b)
{
	/* bisect_loop_run takes the same K and alpha_s */
	unsigned max_steps = bisect_max_steps(b->commits.n, b->skips);
	double step_alpha = bisect_step_alpha(b->alpha, max_steps);
	note("bisect %s: %zu candidate commit%s after good %.12s up to bad %.12s", b->dir, b->commits.n,
	     b->commits.n == 1 ? "" : "s", b->good, b->bad);
	note("budget: K = %u steps at most (ceil(log2 %zu) = %u halvings + %u skips), each step's "
	     "tests at alpha/K = %.4g/%u = %.4g, so a wrong first bad commit at most %.4g of the time",
	     max_steps, b->commits.n, max_steps ? max_steps - b->skips : 0, b->skips, b->alpha,
	     max_steps ? max_steps : 1, step_alpha, b->alpha);
	struct compare_options o;
	compare_options_default(&o);
	bool parametric = json_is_true(json_object_get(b->meta, "parametric"));
	struct stats_design d = { .n = b->max_trials, .rows = 1, .parametric = parametric,
				  .alpha = step_alpha, .seq_first = SEQUENTIAL_FIRST_LOOK,
				  .min_trials = o.min_trials, .perm = o.perm };
	struct stats_design_answer a;
	bool can = stats_design_check(&d, &a);
	note("design: at most %zu trials a step; the smallest p a step's test can reach there is %.3g "
	     "(%s), its level at the last look %.3g: %s", b->max_trials, a.min_p,
	     parametric ? "Student's t: no floor" : "permutations and Fisher: 2/C(2n,n) at best",
	     a.level, can ? "a step can decide" : "no step can decide");
	if (!can) {
		if (a.smallest_n)
			warning("bisect: at %zu trials a step no step can decide at %.3g: every commit "
				"would be skipped; --max-trials %zu could, or a parametric metric "
				"(the experiment's parametric = %s)", b->max_trials, step_alpha,
				a.smallest_n, b->metric);
		else
			warning("bisect: no step can decide at %.3g with %s", step_alpha,
				parametric ? "these trials" : "permutation tests: make the metric "
				"parametric (parametric = M)");
	}
}

/* ---- the trial source: run folders brought up to N rounds by lab run ---- */

static char *jobs_text(const struct bisect *b)
{
	return xasprintf("%u", b->jobs ? b->jobs : 1);
}

/* Brings RUN (a new one from CONF) to its first N rounds; lab run's status. */
static int run_rounds(const struct bisect *b, const char *run, const char *conf, size_t n,
		      const char *out)
{
	char *rounds = xasprintf("%zu", n), *jobs = jobs_text(b);
	char *run_json = xasprintf("%s/run.json", run);
	int rc;
	if (!path_exists(run_json)) {
		const char *args[] = { "run", "-x", conf, "-o", run, "--rounds", rounds, "-j", jobs, NULL };
		rc = run_lab(b, args, out, NULL);
	} else {
		const char *args[] = { "run", "--resume", run, "--rounds", rounds, "-j", jobs, NULL };
		rc = run_lab(b, args, out, NULL);
	}
	free(rounds);
	free(jobs);
	free(run_json);
	if (rc == EXIT_USAGE)
		exit(EXIT_USAGE);
	return rc;
}

/* The trials of RUN's first N rounds of each of the N_GROUPS groups LABELS
 * into T, as lab compare reads them: one load of the folder for them all. */
static int read_trials(const struct bisect *b, const char *run, size_t n, const char *const *labels,
		       struct bisect_trials *t, size_t n_groups, struct strbuf *err)
{
	struct run_data rd = { .quiet = true };
	if (run_data_add(&rd, run, err) < 0) {
		run_data_free(&rd);
		return -1;
	}
	run_data_keep_rounds(&rd, (unsigned)n);
	for (size_t g = 0; g < n_groups; g++) {
		const char *unit = NULL;
		memset(&t[g], 0, sizeof(t[g]));
		t[g].values = run_data_values(&rd, b->metric, labels[g], &t[g].n, &t[g].n_other, &unit);
		snprintf(t[g].unit, sizeof(t[g].unit), "%s", unit ? unit : "");
		for (size_t i = 0; i < rd.n; i++)
			if (!strcmp(rd.trials[i].label, labels[g]) && rd.trials[i].outcome &&
			    !strcmp(rd.trials[i].outcome, vm_outcome_name(VM_BOOT_FAILURE)))
				t[g].boot_failures++;
	}
	run_data_free(&rd);
	return 0;
}

/* good's and bad's trials of the endpoint run's first N rounds. */
static int read_endpoints(const struct bisect *b, size_t n, struct bisect_trials *good,
			  struct bisect_trials *bad, struct strbuf *err)
{
	static const char *const labels[] = { "good", "bad" };
	struct bisect_trials t[2];
	if (read_trials(b, b->endpoints, n, labels, t, 2, err) < 0)
		return -1;
	*good = t[0];
	*bad = t[1];
	return 0;
}

/* The endpoint check's last look as it was judged: its table, at --alpha
 * and that look's boundary. (lab compare of the endpoint folder judges the
 * same trials as a run of one look at 0.05, which can say otherwise.) */
static void print_endpoint_table(const struct bisect *b, const struct bisect_metric *m)
{
	struct bisect_trials good, bad;
	struct compare_table t;
	struct strbuf err = STRBUF_INIT;
	if (read_endpoints(b, b->endpoint_rounds, &good, &bad, &err) < 0)
		die("bisect: %s", err.buf);
	if (bisect_endpoint_table(m, b->alpha, &good, &bad, &t) < 0)
		die("bisect: the endpoint check's table could not be built");
	printf("the endpoint check's last look: %zu round%s of good and bad (run endpoints)\n",
	       b->endpoint_rounds, b->endpoint_rounds == 1 ? "" : "s");
	compare_format_text(stdout, &t, isatty(fileno(stdout)) && !getenv("NO_COLOR"));
	compare_table_free(&t);
	bisect_trials_free(&good);
	bisect_trials_free(&bad);
	strbuf_release(&err);
}

static int source_endpoints(void *ctx, size_t n, struct bisect_trials *good, struct bisect_trials *bad,
			    struct strbuf *err)
{
	struct bisect *b = ctx;
	/* a check judged before has its rounds: read, not run */
	if (n > b->endpoint_rounds) {
		char *out = xasprintf("%s/endpoints.out", b->dir);
		char *conf = xasprintf("%s/experiments/endpoints.conf", b->dir);
		if (!path_exists(conf)) {
			make_variant(b, "good", b->good);
			make_variant(b, "bad", b->bad);
			free(make_experiment(b, "endpoints", "good bad", true));
			note("endpoints: good %.12s and bad %.12s in rounds on %s, a look after each "
			     "from the third (alpha %.4g)", b->good, b->bad, b->metric, b->alpha);
		}
		int rc = run_rounds(b, b->endpoints, conf, n, out);
		if (rc != 0)
			die("bisect: the endpoint run %s stopped (status %d): see above; lab bisect "
			    "--resume %s goes on", b->endpoints, rc, b->dir);
		b->endpoint_rounds = n;
		free(out);
		free(conf);
	}
	return read_endpoints(b, n, good, bad, err);
}

static void endpoint_look(void *ctx, const struct bisect_endpoint_look *l, bool final)
{
	struct bisect *b = ctx;
	if (b->endpoints_judged)
		return;		/* the looks of a check judged before, again */
	const char *verdict = compare_verdict_word(l->verdict);
	note("endpoints: %zu trial%s a side: bad against good p %.3g: %s%s", l->n, l->n == 1 ? "" : "s",
	     l->p, verdict, final ? "" : ", looking again");
	if (!final)
		return;
	json_object_set_new(b->meta, "endpoints",
			    json_pack("{s:s, s:s, s:i, s:i}", "run", "endpoints", "verdict", verdict,
				      "direction", l->bad_dir, "rounds", (int)b->endpoint_rounds));
	save_meta(b);
	logf_(b, "# endpoints: bad against good on %s: %s at %zu trials a side (run endpoints)\n",
	      b->metric, verdict, l->n);
	if (!l->differs) {
		logf_(b, "# good and bad do not differ on %s: no bisection\n", b->metric);
		return;
	}
	char *gs = commit_subject(b->repo, b->good), *bs = commit_subject(b->repo, b->bad);
	logf_(b, "git bisect good %s # %s\ngit bisect bad %s # %s\n", b->good, gs, b->bad, bs);
	free(gs);
	free(bs);
	note("endpoints: bad is %s than good on %s (%s): bisecting", l->bad_dir > 0 ? "higher" : "lower",
	     b->metric, verdict);
}

static void last_line_of(const char *path, struct strbuf *buf)
{
	char *text = read_file(path, NULL);
	if (!text)
		return;
	trim(text);
	const char *last = strrchr(text, '\n');
	strbuf_addstr(buf, last ? last + 1 : text);
	free(text);
}

/* Step STEP's names for candidate I: its variant, run folder and experiment. */
struct step_names {
	char *variant, *run_name, *run, *conf;
};

static void step_names(const struct bisect *b, size_t step, size_t i, struct step_names *s)
{
	char *sid = short_id(b->commits.items[i]);
	s->variant = xasprintf("c-%s", sid);
	s->run_name = xasprintf("step-%zu-%s", step, sid);
	s->run = xasprintf("%s/%s", b->dir, s->run_name);
	s->conf = xasprintf("%s/experiments/%s.conf", b->dir, s->run_name);
	free(sid);
}

static void step_names_free(struct step_names *s)
{
	free(s->variant);
	free(s->run_name);
	free(s->run);
	free(s->conf);
}

static int source_build(void *ctx, size_t step, size_t i, struct strbuf *why, struct strbuf *err)
{
	(void)err;
	struct bisect *b = ctx;
	struct step_names s;
	step_names(b, step, i, &s);
	make_variant(b, s.variant, b->commits.items[i]);
	free(make_experiment(b, s.run_name, s.variant, false));
	note("step %zu: building %.12s (%s)", step, b->commits.items[i], b->subjects.items[i]);
	char *build_log = xasprintf("%s/%s.build.log", b->dir, s.run_name);
	const char *build[] = { "kernel", "build", s.variant, NULL };
	int rc = 0;
	if (run_lab(b, build, build_log, build_log) != 0) {
		last_line_of(build_log, why);
		rc = 1;
	}
	free(build_log);
	step_names_free(&s);
	return rc;
}

static int source_trials(void *ctx, size_t step, size_t i, size_t n, struct bisect_trials *m,
			 struct strbuf *err)
{
	struct bisect *b = ctx;
	struct step_names s;
	step_names(b, step, i, &s);
	char *out = xasprintf("%s/%s.out", b->dir, s.run_name);
	const char *label = s.variant;
	int rc = run_rounds(b, s.run, s.conf, n, out), read = read_trials(b, s.run, n, &label, m, 1, err);
	/* a kernel that does not boot is the step's answer (a skip), whatever the run's status */
	if (!(read == 0 && m->boot_failures) && rc != 0)
		die("bisect: the run %s stopped (status %d): see above; lab bisect --resume %s goes on",
		    s.run, rc, b->dir);
	free(out);
	step_names_free(&s);
	return read;
}

static void step_look(void *ctx, size_t step, size_t i, const struct bisect_look *l)
{
	const struct bisect *b = ctx;
	note("step %zu: %zu trial%s of %.12s: against good p %.3g (%+.1f), against bad p %.3g; "
	     "level %.3g: %s", step, l->n, l->n == 1 ? "" : "s", b->commits.items[i], l->p_good,
	     l->diff_good, l->p_bad, l->level, bisect_call_name(l->call));
}

static const char *mark_word(enum bisect_mark m)
{
	return m == BISECT_GOOD ? "good" : m == BISECT_BAD ? "bad" : m == BISECT_SKIP ? "skip" : "-";
}

static void interval_text(const struct bisect *b, const struct bisect_range *r, char *buf, size_t size)
{
	const char *lo = r->last_good < 0 ? b->good : b->commits.items[r->last_good];
	snprintf(buf, size, "%.12s..%.12s (%ld left)", lo, b->commits.items[r->first_bad],
		 r->first_bad - r->last_good);
}

/* A number, or null for none (NAN: no test; a build failure: no look). */
static json_t *number(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static void stepped(void *ctx, size_t step, size_t i, const struct bisect_step *s,
		    const struct bisect_range *r)
{
	struct bisect *b = ctx;
	struct step_names names;
	step_names(b, step, i, &names);
	const char *commit = b->commits.items[i];
	/* a build failure has no look: n 0 */
	json_array_append_new(json_object_get(b->meta, "steps"),
			      json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:s}", "commit", commit,
					"run", names.run_name, "mark", mark_word(s->mark), "trials",
					(int)s->trials, "n", (int)s->look.n, "p_good", number(s->look.p_good),
					"p_bad", number(s->look.p_bad), "level", number(s->look.level),
					"why", s->why));
	save_meta(b);
	char interval[96];
	interval_text(b, r, interval, sizeof(interval));
	logf_(b, "# step %zu: %s: %zu trials: %s; first bad in %s\ngit bisect %s %s\n", step,
	      b->subjects.items[i], s->trials, s->why, interval, mark_word(s->mark), commit);
	note("step %zu: %.12s is %s (%s); the first bad commit is in %s", step, commit,
	     s->mark == BISECT_SKIP ? "skipped" : mark_word(s->mark), s->why, interval);
	step_names_free(&names);
}

/* ---- the answer ---- */

/* The steps so far (bisect.json) as a table. */
static void print_steps(const struct bisect *b)
{
	json_t *steps = json_object_get(b->meta, "steps");
	size_t k;
	json_t *s;
	printf("\n%-4s %-12s %-6s %6s  %s\n", "step", "commit", "mark", "trials", "why");
	json_array_foreach(steps, k, s)
		printf("%-4zu %-12.12s %-6s %6d  %s\n", k + 1,
		       json_string_value(json_object_get(s, "commit")),
		       json_string_value(json_object_get(s, "mark")),
		       (int)json_integer_value(json_object_get(s, "trials")),
		       json_string_value(json_object_get(s, "why")));
}

static enum bisect_mark mark_of(const char *word)
{
	return !strcmp(word, "good") ? BISECT_GOOD : !strcmp(word, "bad") ? BISECT_BAD : BISECT_SKIP;
}

static size_t index_of(const struct bisect *b, const char *commit)
{
	for (size_t i = 0; commit && i < b->commits.n; i++)
		if (!strcmp(b->commits.items[i], commit))
			return i;
	die("bisect: %s: a step's commit %s is not a candidate", b->dir, commit ? commit : "(none)");
}

static int say_answer(struct bisect *b, const struct bisect_design *d, const struct bisect_result *res)
{
	const struct bisect_range *r = &res->range;
	bool ended_before = json_object_get(b->meta, "result") != NULL;
	if (res->end == BISECT_END_NO_DIFFERENCE) {
		print_endpoint_table(b, &d->metric);
		printf("\ngood and bad do not differ on %s (bad against good: %s): nothing to bisect\n",
		       b->metric, compare_verdict_word(res->endpoints.verdict));
		printf("bisect: %s\n", b->dir);
		return EXIT_NO_DIFFERENCE;
	}
	int status;
	if (res->end == BISECT_END_FOUND) {
		const char *first = b->commits.items[r->first_bad];
		char *subject = commit_subject(b->repo, first);
		if (!ended_before) {
			logf_(b, "# first bad commit: [%s] %s\n", first, subject);
			json_object_set_new(b->meta, "result", json_pack("{s:s}", "first_bad", first));
			save_meta(b);
		}
		print_steps(b);
		printf("\n%s is the first bad commit\n    %s\n", first, subject);
		free(subject);
		status = 0;
	} else {
		bool skipped = res->end == BISECT_END_ONLY_SKIPPED;
		if (!ended_before) {
			json_t *left = json_array();
			for (long i = r->last_good + 1; i <= r->first_bad; i++)
				json_array_append_new(left, json_string(b->commits.items[i]));
			json_object_set_new(b->meta, "result", json_pack("{s:o}", "could_be_any_of", left));
			save_meta(b);
			if (skipped)
				logf_(b, "# only skipped commits left to test\n");
			else
				logf_(b, "# the budget of %u steps is spent\n", res->max_steps);
		}
		print_steps(b);
		printf("\n%s\nThe first bad commit could be any of:\n",
		       skipped ? "There are only 'skip'ped commits left to test."
			       : "The steps ran out (K steps taken).");
		for (long i = r->last_good + 1; i <= r->first_bad; i++)
			printf("%s %s\n", b->commits.items[i], b->subjects.items[i]);
		status = EXIT_NOT_NARROWED;
	}
	printf("bisect: %s (log: %s/log)\n", b->dir, b->dir);
	return status;
}

/* The endpoint check and the steps, by the loop the calibration measures. */
static int bisect_run(struct bisect *b)
{
	b->endpoints = xasprintf("%s/endpoints", b->dir);
	json_t *judged = json_object_get(b->meta, "endpoints");
	b->endpoints_judged = judged != NULL;
	b->endpoint_rounds = (size_t)json_integer_value(json_object_get(judged, "rounds"));
	if (b->endpoints_judged && !b->endpoint_rounds)
		die_usage("bisect: %s: the endpoint check of an older lab bisect (no rounds): start "
			  "the bisection again", b->dir);
	if (!b->endpoints_judged && path_exists(b->endpoints))
		note("endpoints: resuming %s", b->endpoints);
	struct bisect_design d = {
		.metric = { .name = b->metric, .parametric = json_is_true(json_object_get(b->meta, "parametric")),
			    .margin = b->margin, .max_trials = b->max_trials },
		.candidates = b->commits.n, .skips = b->skips, .alpha = b->alpha,
		.step_per_look = b->jobs > 1 ? b->jobs : 1,
	};
	/* the steps a resumed bisection took already */
	json_t *steps = json_object_get(b->meta, "steps"), *s;
	size_t n_prior = json_array_size(steps), k;
	struct bisect_prior *prior = xcalloc(n_prior ? n_prior : 1, sizeof(*prior));
	json_array_foreach(steps, k, s) {
		const char *mark = json_string_value(json_object_get(s, "mark"));
		prior[k].index = index_of(b, json_string_value(json_object_get(s, "commit")));
		prior[k].mark = mark_of(mark ? mark : "skip");
	}
	struct bisect_source src = { .ctx = b, .endpoints = source_endpoints, .build = source_build,
				     .trials = source_trials, .endpoint_look = endpoint_look,
				     .step_look = step_look, .stepped = stepped };
	struct bisect_result res;
	struct strbuf err = STRBUF_INIT;
	if (bisect_loop_run(&d, prior, n_prior, &src, &res, &err) < 0)
		die("bisect: %s", err.buf);
	free(prior);
	int status = say_answer(b, &d, &res);
	bisect_range_free(&res.range);
	return status;
}

int cmd_bisect(int argc, char **argv)
{
	const char *repo = NULL, *good = NULL, *bad = NULL, *experiment = NULL, *metric = NULL;
	const char *resume = NULL, *out = NULL;
	unsigned long max_trials = 0, skips = ULONG_MAX, jobs = 0;
	double alpha = 0;
	const struct opt opts[] = {
		OPT_STRING(0, "git", &repo, "DIR", "the git repository of the kernel source"),
		OPT_STRING(0, "good", &good, "REF", "a commit without the change"),
		OPT_STRING(0, "bad", &bad, "REF", "a later commit with it"),
		OPT_STRING('x', "experiment", &experiment, "E",
			   "the experiment whose profile, clock and workloads each step runs (its "
			   "variants, trials and metrics are the bisect's)"),
		OPT_STRING(0, "metric", &metric, "M", "the metric that moved (one name)"),
		OPT_ULONG(0, "max-trials", &max_trials, "N", SEQUENTIAL_FIRST_LOOK, 1000,
			  "at most N trials of a commit (default 8): the endpoint run's and each step's cap"),
		OPT_ULONG(0, "skips", &skips, "N", 0, 100,
			  "skipped steps the budget allows (default 2): K = ceil(log2 candidates) + N"),
		OPT_DOUBLE(0, "alpha", &alpha, "A", 1e-6, 0.5,
			   "the endpoint check's level, and the most often a wrong commit is named "
			   "(default 0.05)"),
		OPT_ULONG('j', "jobs", &jobs, "N", 1, 64, "trials at once (default 1)"),
		OPT_STRING('o', "out", &out, "DIR", "the bisect folder (default results/bisect-...)"),
		OPT_STRING(0, "resume", &resume, "FOLDER", "continue an interrupted bisection"),
		OPT_END(),
	};
	int operands = lab_parse_options("bisect", argc, argv, opts, bisect_usage_head, NULL);
	if (operands)
		die_usage("bisect: unexpected argument '%s' (see lab bisect --help)", argv[1]);
	struct bisect b = { .jobs = (unsigned)jobs, .commits = STRLIST_INIT, .subjects = STRLIST_INIT,
			    .margin = { .value = NAN } };
	if (resume) {
		if (repo || good || bad || experiment || metric || max_trials || skips != ULONG_MAX ||
		    out || alpha > 0)
			die_usage("bisect: --resume takes no other settings but -j: the bisection keeps its own");
		setup_resume(&b, resume);
	} else {
		if (!repo || !good || !bad || !experiment || !metric)
			die_usage("bisect: --git, --good, --bad, --experiment and --metric are needed "
				  "(see lab bisect --help)");
		check_metric_name(metric, "--metric");
		b.metric = metric;
		b.max_trials = max_trials ? max_trials : DEFAULT_MAX_STEP_TRIALS;
		b.skips = skips == ULONG_MAX ? DEFAULT_SKIPS : (unsigned)skips;
		b.alpha = alpha > 0 ? alpha : BISECT_ALPHA;
		setup_new(&b, repo, good, bad, experiment, out);
	}
	list_subjects(&b);
	char *log_path = xasprintf("%s/log", b.dir);
	b.log = fopen(log_path, "a");
	if (!b.log)
		die("bisect: cannot write %s: %s", log_path, strerror(errno));
	free(log_path);
	say_design(&b);
	note("interrupt at any time: lab bisect --resume %s continues it", b.dir);
	int status = bisect_run(&b);
	fclose(b.log);
	return status;
}
