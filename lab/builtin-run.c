/* lab run: an experiment's trials, variants interleaved, then the comparison. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/compare/compare_verdict.h"
#include "builtin.h"
#include "lab/cli/options.h"
#include "common/paths.h"
#include "lab/run/run-asked.h"
#include "lab/run/run-plan.h"
#include "lab/slurm/slurm-run.h"

/* The usage's head, in pieces around what names verdicts (run_usage_head()
 * adds that from their table). */
static const char run_usage_lead[] =
	"usage: lab run [--experiment E] [options]\n"
	"       lab run --variant NAME=SPEC... -w LINE... [--baseline NAME] [options]\n"
	"       lab run [--experiment E] [options] --slurm [--slurm-shards N] [--sbatch OPT]...\n"
	"       lab run --resume RUN\n"
	"\n"
	"Runs an experiment (configs/experiments/E.conf): builds the kernels it needs,\n"
	"then boots one VM per trial, the variants interleaved in seeded shuffled\n"
	"rounds, and ends with the comparison table and where the results are.\n"
	"Each trial's folder is results/<run>/<variant>/<index>/ (see docs/FORMATS.md).\n"
	"\n"
	"Without a file: --variant names what is compared with the baseline (stock\n"
	"unless --baseline), -w what each trial runs. The run then goes until decided,\n"
	"at most 12 trials a variant, on tiny-256m unless -p, and its headline is the\n"
	"OOM kills and what each line reports (its status, signal, OOM kills, memory\n"
	"peak, wall time, its program's own metrics). With -x they replace the\n"
	"experiment's variants and workload lines. A --variant NAME=SPEC is kept in\n"
	"the run's variants/ folder, so lab run --resume needs nothing else:\n"
	"  lab run --variant mine=patch:fix.patch -w 'oom-hog --mib 200'\n"
	"\n"
	"With --until-decided (or until_decided = yes in the experiment) the run looks\n"
	"at its headline metrics after every round from the third on and stops when\n";
static const char run_usage_looks[] =
	"with a primary metric (primary = M), when the primary's rows are, the others\n"
	"judged at that look.\n"
	"The looks use O'Brien-Fleming boundaries (docs/STATISTICS.md), so looking\n"
	"often does not raise the error rate. A shard of such a run runs its whole\n"
	"slice of max-trials rounds without looking; the merged shards are judged at\n"
	"the look their trials reach.\n"
	"\n";
static const char run_usage_tail[] =
	"Every workload and prepare line is checked on the host first (docs/PROGRAMS.md: Bad\n"
	"input and faults); a first round that ends the same broken way in every\n"
	"group (failed with one status, or boot failures) stops the run.\n"
	"\n"
	"Exit status: 0; 1 on an error or a run the first round stopped; 2 on bad\n"
	"input; 3 when --fail-on names the verdict of a row of the closing table (the\n"
	"run, its table and its report are kept: lab compare gives the table again).\n"
	"\n"
	"With --slurm nothing runs here: the run is checked, its shards' folders are\n"
	"made in <run>.slurm/ beside the run's folder, and three jobs are submitted:\n"
	"a build of what the trials need into the cache the nodes share, a job array\n"
	"of the shards after it, and the merge (comparison and report) after them.\n"
	"lab results RUN shows the jobs; lab run --resume RUN submits again only what\n"
	"is missing. With --until-decided the jobs go round by round: after each, a\n"
	"decision job looks at the merged shards and submits the next round or the\n"
	"merge (docs/CLUSTER.md).\n"
	"\n";

static void run_usage_head(struct strbuf *head)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addstr(head, run_usage_lead);
	strbuf_addstr(&text, "each is ");
	compare_verdict_list(&text, VERDICTS_DECIDED, false);
	strbuf_addstr(&text, ", or at --max-trials a variant;");
	usage_add_paragraph(head, strbuf_str(&text));
	strbuf_addstr(head, run_usage_looks);
	strbuf_reset(&text);
	strbuf_addstr(&text, "A design that cannot decide any row ");
	compare_verdict_list(&text, VERDICTS_SIGNIFICANT, false);
	strbuf_addstr(&text, " (too few trials for the smallest p of the tests to pass the first "
		      "Holm level) gets a warning naming the smallest design that could, and runs "
		      "anyway: equivalence can still be decided, and short runs are made on purpose.");
	usage_add_paragraph(head, strbuf_str(&text));
	strbuf_addstr(head, "\n");
	strbuf_addstr(head, run_usage_tail);
	strbuf_release(&text);
}

static int shard_option(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct run_plan *p = o->target;
	if (parse_shard(value, &p->shard_k, &p->shard_n) < 0) {
		snprintf(err, err_size, "wants K/N with 1 <= K <= N, not '%s'", value);
		return -1;
	}
	return 0;
}

static void list_experiments(void)
{
	struct strlist names = STRLIST_INIT;
	experiment_names(&names);
	for (size_t i = 0; i < names.n; i++) {
		struct experiment e;
		struct strbuf err = STRBUF_INIT;
		if (experiment_load(&e, names.items[i], &err) < 0)
			die_usage("%s", err.buf);
		printf("%-28s %s\n", e.name, e.description);
		experiment_clear(&e);
	}
	strlist_clear(&names);
}

/* What lab run was asked: its options, before they are checked against each other. */
struct run_cli {
	const char *experiment, *profile, *out, *resume;
	struct run_asked asked;
	unsigned long trials, seed, max_trials, jobs;
	bool list, until_decided, dry_run, slurm_look;
	struct slurm_submit_options slurm;
	unsigned fail_on;
	struct clock_choice clock_option;
	struct run_plan *p;      /* the shard, --fail-page-alloc, --failslab, --build-only, --rounds */
};

static void parse_run_options(struct run_cli *c, int argc, char **argv)
{
	struct strbuf until_decided_help = STRBUF_INIT, head = STRBUF_INIT;
	strbuf_addstr(&until_decided_help, "run rounds until every headline metric (or the primary) "
		      "is decided (");
	compare_verdict_list(&until_decided_help, VERDICTS_DECIDED, false);
	strbuf_addstr(&until_decided_help, "), looking after each; see below");
	const struct opt opts[] = {
		OPT_STRING('x', "experiment", &c->experiment, "E",
			   "the experiment (default " DEFAULT_EXPERIMENT "), or the path of an "
			   "experiment file"),
		OPT_STRING('p', "profile", &c->profile, "P", "another machine profile than the experiment's"),
		OPT_CALL(0, "variant", &c->asked.variant_args, "NAME[=SPEC]", opt_push,
			 "a kernel to compare with the baseline, in place of the experiment's "
			 "variants (repeatable): a variant's name, or NAME=SPEC with SPEC another "
			 "variant's name, patch:FILE[,FILE...] (on top of the baseline), "
			 "git:DIR@REF, tree:DIR or bzimage:FILE"),
		OPT_STRING(0, "baseline", &c->asked.baseline, "NAME",
			   "the variant the others are compared with (default the experiment's, "
			   "else " DEFAULT_BASELINE ")"),
		OPT_CALL('w', "workload", &c->asked.workloads, "LINE", opt_push,
			 "a command line each trial runs, in place of the experiment's workload "
			 "lines (repeatable; lab workloads lists the lab's own)"),
		OPT_CALL(0, "files", &c->asked.files, "DIR", opt_push,
			 "a folder of programs brought into the guest, as the key files (repeatable)"),
		OPT_ULONG('n', "trials", &c->trials, "N", 1, ULONG_MAX,
			  "trials per variant instead of the experiment's (a fixed design also for "
			  "an experiment that runs until decided)"),
		OPT_CALL(0, "clock", &c->clock_option, "C", opt_clock,
			 "the guest's clock, realtime or icount, instead of the experiment's (or "
			 "else the profile's; docs/CLOCKS.md); under icount the trial timeout is "
			 "multiplied by 6"),
		OPT_FLAG(0, "until-decided", &c->until_decided, strbuf_str(&until_decided_help)),
		OPT_ULONG(0, "max-trials", &c->max_trials, "N", SEQUENTIAL_FIRST_LOOK + 1, 1000,
			  "with --until-decided: at most N trials a variant (default the experiment's "
			  "max_trials, else 20)"),
		OPT_ULONG('j', "jobs", &c->jobs, "N", 1, MAX_JOBS,
			  "trials at once (default the experiment's jobs, else as many as the host "
			  "holds: one per core, as many as its memory fits the profile's guest plus "
			  "384 MiB with 1 GiB kept free); the trials and their order are the same for "
			  "any N, and --resume may take another N"),
		OPT_STRING('o', "out", &c->out, "DIR",
			   "the run folder (default results/<run id>); one that holds a run is refused"),
		OPT_ULONG(0, "seed", &c->seed, "N", 1, ULONG_MAX,
			  "the shuffle's seed (default: derived from the experiment, profile and "
			  "trials, so shards agree)"),
		OPT_CALL(0, "shard", c->p, "K/N", shard_option,
			 "run only every N-th trial starting at the K-th: N machines each run one "
			 "shard of the same experiment"),
		OPT_STRING(0, "fail-page-alloc", &c->p->fault_text[FAULT_PAGE_ALLOC], "SPEC",
			   "fail the workload's page allocations in every trial, over the experiment's "
			   "and the profile's fail_page_alloc (the key's words: 'probability P[, "
			   "min-order K]...'; docs/KERNELS.md: Failure paths on demand)"),
		OPT_STRING(0, "failslab", &c->p->fault_text[FAULT_SLAB], "SPEC",
			   "fail its slab allocations, over the key failslab"),
		OPT_STRING(0, "resume", &c->resume, "RUN", "continue an interrupted run; finished trials stay "
			   "(a Slurm run: submit again what is missing)"),
		OPT_FLAG(0, "build-only", &c->p->build_only,
			 "with --resume: build the kernels, selftests and guest images the run needs, "
			 "boot nothing (a Slurm run's build job)"),
		OPT_ULONG(0, "rounds", &c->p->rounds, "R", 1, 100000,
			  "run only the trials of the first R rounds, then stop as an interrupted run "
			  "does (a sequential Slurm run's shards, round by round; lab bisect's looks)"),
		OPT_FLAG(0, "slurm", &c->slurm.on,
			 "submit the run to Slurm instead of running it here: a build job, a job array "
			 "of shards, a merge job; with --until-decided round by round, a decision job "
			 "after each (docs/CLUSTER.md)"),
		OPT_FLAG(0, "slurm-look", &c->slurm_look,
			 "with --resume on a sequential Slurm run: look after its last round and "
			 "submit the next one or the merge (its decision job)"),
		OPT_ULONG(0, "slurm-shards", &c->slurm.shards, "N", 1, 100000,
			  "with --slurm: N array tasks (default one per round: the trials a variant)"),
		OPT_STRING(0, "slurm-cache", &c->slurm.cache, "DIR",
			   "with --slurm: the kernel cache the nodes share (default this lab's cache)"),
		OPT_CALL(0, "sbatch", &c->slurm.sbatch, "OPTION", opt_push,
			 "with --slurm: an sbatch option for every job, as --partition=P, --time=T, "
			 "--account=A (repeatable)"),
		OPT_CALL(0, "fail-on", &c->fail_on, "WORDS", opt_fail_on, opt_fail_on_help()),
		OPT_FLAG(0, "dry-run", &c->dry_run,
			 "check everything and print the plan (groups, trials, kernels to build, the "
			 "design check, an estimate of the time from earlier trials), boot nothing"),
		OPT_FLAG(0, "list", &c->list, "list the experiments"),
		OPT_END(),
	};
	run_usage_head(&head);
	int operands = lab_parse_options("run", argc, argv, opts, strbuf_str(&head), NULL);
	strbuf_release(&head);
	strbuf_release(&until_decided_help);
	if (operands)
		die_usage("run: unexpected argument '%s' (see lab run --help)", argv[1]);
}

/* Options that do not go together, and folders QEMU could not be given,
 * refused before anything is built. */
static void check_run_options(const struct run_cli *c)
{
	const struct run_plan *p = c->p;
	if (!c->slurm.on && (c->slurm.shards || c->slurm.cache || c->slurm.sbatch.n))
		die_usage("run: --slurm-shards, --slurm-cache and --sbatch go with --slurm");
	if ((p->build_only || c->slurm_look) && !c->resume)
		die_usage("run: --build-only and --slurm-look go with --resume (the run)");
	/* the verdicts are the closing table's: a run that draws none here has none to gate on */
	if (c->fail_on && (c->slurm.on || p->build_only || p->rounds || c->slurm_look))
		die_usage("run: --fail-on judges the table a whole run ends with, not --slurm, "
			  "--slurm-look, --build-only or --rounds (lab compare --fail-on judges "
			  "such a run once it is whole)");
	if (c->dry_run && (c->resume || c->slurm.on))
		die_usage("run: --dry-run plans a new run here, not --resume or --slurm");
	if (c->slurm.on && (c->resume || p->shard_n > 1))
		die_usage("run: --slurm makes its own shards (--slurm-shards N); lab run --resume RUN "
			  "resubmits a Slurm run");
	/* the folders a trial's QEMU is given */
	path_plain_or_die("run", "the kernel cache", cache_root());
	if (c->resume)
		path_plain_or_die("run", "the run folder", c->resume);
	else if (c->out)
		path_plain_or_die("run", "--out", c->out);
	else
		path_plain_or_die("run", "the results folder", results_root());
	if (!c->resume)
		return;
	if (c->experiment || c->asked.variant_args.n || c->asked.baseline || c->asked.workloads.n ||
	    c->asked.files.n)
		die_usage("run: --resume takes no -x, --variant, --baseline, -w or --files: the run "
			  "keeps its own");
	if (c->profile || c->trials || c->out || c->seed || p->shard_n > 1 || c->until_decided ||
	    c->max_trials || c->clock_option.from || p->fault_text[FAULT_PAGE_ALLOC] ||
	    p->fault_text[FAULT_SLAB])
		die_usage("run: --resume takes no other settings: the run keeps its own");
}

/* A new run's plan: the experiment (or the one the options compose), with
 * the options' design over the file's. */
static void plan_new_run(struct run_cli *c)
{
	struct run_plan *p = c->p;
	struct experiment *e = &p->exp;
	struct strbuf err = STRBUF_INIT;
	if (fault_plan_parse_options(&p->asked, p->fault_text, &err) < 0)
		die_usage("run: %s", err.buf);
	if (run_asked_experiment(e, c->experiment, &c->asked, c->profile, &p->given, &err) < 0)
		die_usage("%s%s", starts_with(err.buf, "run: ") ? "" : "run: ", err.buf);
	if (c->max_trials && !c->until_decided && !e->until_decided)
		die_usage("run: --max-trials goes with --until-decided");
	if (c->trials && (c->until_decided || c->max_trials))
		die_usage("run: --trials and --until-decided: the run decides its trials "
			  "(--max-trials caps them)");
	/* --trials N on an experiment that runs until decided: N fixed trials instead */
	if (c->trials && e->until_decided) {
		note("run: --trials %lu: %lu fixed trial%s a variant instead of until_decided (%s)",
		     c->trials, c->trials, c->trials == 1 ? "" : "s", e->path);
		e->until_decided = false;
		e->max_trials = 0;
	}
	if (c->until_decided)
		e->until_decided = true;
	if (c->max_trials)
		e->max_trials = (unsigned)c->max_trials;
	else if (e->until_decided && !e->max_trials)
		e->max_trials = DEFAULT_MAX_TRIALS;
	if (c->trials)
		e->trials = (unsigned)c->trials;
	const char *profile_name = c->profile ? c->profile : e->profile;
	p->seed = c->seed ? c->seed : run_plan_derived_seed(e, profile_name, run_plan_rounds(e));
	run_plan_load(p, profile_name, c->clock_option);
	strbuf_release(&err);
}

/* What the run is about to do, in notes. */
static void say_run(const struct run_plan *p)
{
	char *platform = platform_name(&p->exp.platform);
	if (p->exp.until_decided)
		note("run %s: %s on %s (%s), clock %s, until %s%s is decided, at most "
		     "%u trials per variant, seed %lu%s", p->run_id, p->exp.name, p->profile.name, platform,
		     guest_clock_name(p->clock.clock),
		     p->exp.primary ? "the primary " : "every headline metric",
		     p->exp.primary ? p->exp.primary : "", p->exp.max_trials, p->seed,
		     p->shard_n > 1 ? " (one shard: its whole slice, no looks)" : "");
	else
		note("run %s: %s on %s (%s), clock %s, %u trial%s per variant, seed %lu%s", p->run_id,
		     p->exp.name, p->profile.name, platform, guest_clock_name(p->clock.clock), p->exp.trials,
		     p->exp.trials == 1 ? "" : "s", p->seed,
		     p->shard_n > 1 ? " (one shard)" : "");
	free(platform);
	if (guest_files_any(&p->files)) {
		struct strbuf dirs = STRBUF_INIT;
		for (size_t i = 0; i < p->files.dirs.n; i++)
			strbuf_addf(&dirs, "%s%s", i ? ", " : "", p->files.dirs.items[i]);
		note("files %.16s in the guest's " GUEST_FILES_DIR ": %s", p->files.hash, dirs.buf);
		strbuf_release(&dirs);
	}
	if (p->rounds)
		note("run %s: only the trials of its first %lu rounds (--rounds)", p->run_id, p->rounds);
	run_plan_say_jobs(p);
	note("interrupt at any time: lab run --resume %s continues it", p->dir);
	run_plan_warn_if_undecidable(p);
}

/* The run's end: the comparison table and the report beside its trials;
 * FAIL_ON's verdicts in the table give exit 3. */
static int compare_and_report(const struct run_plan *p, unsigned fail_on)
{
	struct strlist runs = STRLIST_INIT, globs = STRLIST_INIT;
	strlist_push(&runs, p->dir);
	/* --fail-on: exit 3 once the report is written; the run's data stay either way */
	int gate = compare_runs(&runs, NULL, &globs, "text", 1, false, fail_on, stdout);
	struct report_request report = { .seed = 1 };
	char *report_path = xasprintf("%s/report.html", p->dir);
	bool reported = report_runs(&runs, &report) == 0;
	printf("\nresults: %s\n", p->dir);
	if (reported)
		printf("report:  %s\n", report_path);
	free(report_path);
	strlist_clear(&runs);
	return gate;
}

int cmd_run(int argc, char **argv)
{
	struct run_plan p;
	memset(&p, 0, sizeof(p));
	p.shard_k = p.shard_n = 1;
	struct run_cli c = { .asked = { .variant_args = STRLIST_INIT, .workloads = STRLIST_INIT,
					.files = STRLIST_INIT },
			     .slurm = { .sbatch = STRLIST_INIT },
			     .clock_option = { GUEST_CLOCK_REALTIME, NULL }, .p = &p };
	parse_run_options(&c, argc, argv);
	if (c.list) {
		list_experiments();
		return 0;
	}
	check_run_options(&c);
	if (c.resume) {
		if (!p.build_only && !p.rounds &&
		    slurm_run_resume_named(c.resume, (unsigned)c.jobs, c.slurm_look) == 0)
			return 0;
		if (c.slurm_look)
			die_usage("run: --resume %s --slurm-look: not a Slurm run", c.resume);
		run_plan_resume(&p, c.resume, (unsigned)c.jobs);
	} else {
		plan_new_run(&c);
		if (c.slurm.on) {
			c.slurm.jobs = c.jobs;
			return slurm_run_submit_plan(&p, c.out, &c.slurm);
		}
		run_plan_choose_jobs(&p, (unsigned)c.jobs);
		if (c.dry_run) {
			run_plan_print(&p);
			return 0;
		}
		run_plan_create_folder(&p, c.out);
	}
	say_run(&p);
	struct strbuf stopped = STRBUF_INIT;
	run_plan_execute(&p, &stopped);
	if (p.build_only) {
		note("run %s: built what its trials need (--build-only)", p.run_id);
		return 0;
	}
	run_import_into_store(p.dir);
	if (stopped.len) {
		error("run: %s: the run stops here, its other trials would end the same way (the "
		      "folder: %s; lab run --resume goes on regardless)", stopped.buf, p.dir);
		return 1;
	}
	if (p.rounds) {
		/* a slice of the run (a bisect look, a Slurm shard's rounds): whoever
		 * asked for it judges the whole; no table or report of a part */
		note("run %s: its first %lu rounds are done; lab run --resume %s goes on", p.run_id,
		     p.rounds, p.dir);
		return 0;
	}
	return compare_and_report(&p, c.fail_on);
}
