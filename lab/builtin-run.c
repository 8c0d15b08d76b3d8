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
#include "analysis/verdict/compare_family.h"
#include "analysis/store/store.h"
#include "accel.h"
#include "builtin.h"
#include "command-check.h"
#include "design-check.h"
#include "experiment.h"
#include "first-round.h"
#include "guest-image.h"
#include "hash.h"
#include "kbuild.h"
#include "kernel-catalog.h"
#include "metric-check.h"
#include "options.h"
#include "common/trial-record.h"
#include "common/paths.h"
#include "common/proto/protocol.h"
#include "perf-events.h"
#include "profile.h"
#include "progress.h"
#include "common/run-command.h"
#include "common/run-folder.h"
#include "analysis/run/run-data.h"
#include "run-id.h"
#include "run-look.h"
#include "run-asked.h"
#include "run-order.h"
#include "selftest-build.h"
#include "slurm-run.h"
#include "slurm-script.h"
#include "trial.h"
#include "trial-pool.h"
#include "variant-given.h"
#include "version.h"


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

struct run_plan {
	struct experiment exp;
	struct profile profile;
	struct variant_set variants;
	struct kconfig base;
	struct strlist labels;
	unsigned long seed;
	unsigned shard_k, shard_n;
	struct clock_choice clock;
	struct fault_plan faults;  /* the profile's, under the experiment's, under the options' */
	struct guest_files files;  /* the experiment's `files`, on every trial's tools disk */
	/* with selftest lines: per group (labels' order), the files and the
	 * group variant's selftests (selftest-build.h); NULL: every group has FILES */
	struct guest_files *group_files;
	/* --fail-page-alloc / --failslab as given (NULL: not), kept in run.json for --resume */
	const char *fault_text[FAULT_CAPABILITY_COUNT];
	struct fault_plan asked;
	bool build_only;           /* --build-only: what the trials need, no trial */
	unsigned long rounds;      /* --rounds R: only the slots of the first R rounds (0: all) */
	unsigned jobs;             /* trials at once */
	const char *jobs_from;     /* what set it: "-j", the experiment, or the host */
	struct given_variants given; /* --variant NAME=SPEC, staged; kept in the run's variants/ */
	char *run_id;
	char *dir;
	struct run_slot *slots;
	size_t n_slots;
};

static unsigned long derived_seed(const struct experiment *e, const char *profile, unsigned trials)
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, "experiment", e->text);
	hasher_add_str(h, "profile", profile);
	char t[32];
	snprintf(t, sizeof(t), "%u", trials);
	hasher_add_str(h, "trials", t);
	char hex[65];
	hasher_finish(h, hex);
	hex[8] = '\0';
	return strtoul(hex, NULL, 16);
}

/* Rounds in the order: every one, or as many as a sequential run may take. */
static unsigned planned_trials(const struct experiment *e)
{
	return e->until_decided ? e->max_trials : e->trials;
}

static json_t *run_json(const struct run_plan *p)
{
	json_t *run = json_object();
	json_object_set_new(run, "run_id", json_string(p->run_id));
	json_object_set_new(run, "lab_version", json_string(lab_version()));
	json_object_set_new(run, "experiment", json_string(p->exp.name));
	json_object_set_new(run, "experiment_file", json_string(p->exp.path));
	json_object_set_new(run, "experiment_text", json_string(p->exp.text));
	json_object_set_new(run, "profile", json_string(p->profile.name));
	json_object_set_new(run, "arch", json_string(arch_facts(p->exp.platform.arch)->name));
	json_object_set_new(run, "page_size", json_integer((json_int_t)platform_page_bytes(&p->exp.platform)));
	json_object_set_new(run, "baseline", json_string(p->exp.baseline));
	json_object_set_new(run, "trials_per_group", json_integer(planned_trials(&p->exp)));
	json_object_set_new(run, "jobs", json_integer((json_int_t)p->jobs));
	json_object_set_new(run, "seed", json_integer((json_int_t)p->seed));
	json_object_set_new(run, "clock", json_pack("{s:s, s:s, s:s}", "name",
						    guest_clock_name(p->clock.clock), "settings",
						    guest_clock_settings(p->clock.clock), "from",
						    p->clock.from));
	if (fault_plan_armed(&p->faults))
		json_object_set_new(run, "fault_injection", fault_plan_json(&p->faults));
	if (guest_files_any(&p->files)) {
		/* where relative folders were found from, so that --resume finds them again */
		json_t *files = guest_files_json(&p->files);
		json_object_set_new(files, "base", json_string(p->exp.files_base));
		json_object_set_new(run, "files", files);
	}
	json_t *options = json_object();
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++)
		if (p->fault_text[i])
			json_object_set_new(options, fault_capability_name[i], json_string(p->fault_text[i]));
	if (json_object_size(options))
		json_object_set_new(run, "fault_options", options);
	else
		json_decref(options);
	json_t *groups = json_array();
	for (size_t i = 0; i < p->labels.n; i++) {
		char *name = group_variant(p->labels.items[i]);
		const struct variant *v = variant_find(&p->variants, name);
		json_array_append_new(groups, json_pack("{s:s, s:s, s:s}", "label", p->labels.items[i],
							"variant", name, "hash", v->hash));
		free(name);
	}
	json_object_set_new(run, "groups", groups);
	if (p->given.n)
		json_object_set_new(run, "given_variants", given_variants_json(&p->given));
	json_t *order = json_array();
	for (size_t i = 0; i < p->n_slots; i++)
		if (run_slot_in_shard(i, p->shard_k, p->shard_n))
			json_array_append_new(order, json_pack("{s:s, s:i}", "label", p->slots[i].label,
							       "index", (int)p->slots[i].index));
	json_object_set_new(run, "order", order);
	json_object_set_new(run, "shard", json_pack("{s:i, s:i}", "k", (int)p->shard_k, "n", (int)p->shard_n));
	json_t *metrics = json_array();
	for (size_t i = 0; i < p->exp.metrics.n; i++)
		json_array_append_new(metrics, json_string(p->exp.metrics.items[i]));
	json_object_set_new(run, "metrics", metrics);
	if (p->exp.primary)
		json_object_set_new(run, "primary", json_string(p->exp.primary));
	if (p->exp.parametric.n) json_object_set_new(run, "parametric", experiment_parametric_json(&p->exp));
	json_t *margins = json_array();
	for (size_t i = 0; i < p->exp.margins.n; i++)
		json_array_append_new(margins, json_pack("{s:s, s:s}", "metric", p->exp.margin_globs.items[i],
							 "margin", p->exp.margins.items[i]));
	json_object_set_new(run, "equivalence", margins);
	if (p->exp.until_decided)
		json_object_set_new(run, "sequential", json_pack("{s:i, s:i}", "first_look",
								 SEQUENTIAL_FIRST_LOOK, "max_trials",
								 (int)p->exp.max_trials));
	json_object_set_new(run, "created_unix", json_integer((json_int_t)time(NULL)));
	return run;
}

/* The experiment's folders for the guest, checked for its architecture; bad
 * input names the line, before anything is built or booted. */
static void load_files(struct run_plan *p)
{
	struct strbuf err = STRBUF_INIT;
	p->files = GUEST_FILES_INIT(p->exp.platform.arch);
	for (size_t i = 0; i < p->exp.files.n; i++)
		if (guest_files_add(&p->files, p->exp.files.items[i], &err) < 0)
			die_usage("%s:%d: files = %s: %s", p->exp.path, p->exp.files_lines[i],
				  p->exp.files.items[i], err.buf);
	guest_files_finish(&p->files);
}

static void load_plan_parts(struct run_plan *p, const char *profile_name, struct clock_choice option)
{
	struct strbuf err = STRBUF_INIT;
	if (profile_load(&p->profile, profile_name, &err) < 0)
		die_usage("run: %s", err.buf);
	p->clock = guest_clock_choose(
		option, (struct clock_choice){ p->exp.clock, p->exp.clock_given ? p->exp.path : NULL },
		(struct clock_choice){ p->profile.clock, p->profile.clock_given ? p->profile.path : NULL });
	if (accel_check_clock(&p->clock, &p->exp.platform, &err) < 0)
		die_usage("run: %s", err.buf);
	load_base_config(&p->base);
	load_variants(&p->variants, &p->base, &p->exp.platform);
	for (size_t i = 0; i < p->exp.variants.n; i++)
		if (!variant_find(&p->variants, p->exp.variants.items[i]))
			die_usage("%s: variant '%s' does not exist (see lab kernel list)", p->exp.path,
				  p->exp.variants.items[i]);
	load_files(p);
	/* every command line on the host, before anything is built or booted */
	struct guest_view guest;
	size_t folder = 0;
	if (guest_view_load(&guest, &p->profile, &err) < 0)
		die("run: %s", err.buf);
	if (guest_view_add_files(&guest, &p->files, &folder, &err) < 0)
		die_usage("%s:%d: files = %s: %s", p->exp.path, p->exp.files_lines[folder],
			  p->exp.files.items[folder], err.buf);
	if (experiment_check_commands(&p->exp, &guest, &err) < 0)
		die_usage("%s", err.buf);
	struct strlist declared = STRLIST_INIT;
	if (metric_declarations_load(guest.check_binary, &declared, &err) < 0)
		die("run: %s", err.buf);
	if (experiment_check_metrics(&p->exp, &declared, &err) < 0)
		die_usage("%s", err.buf);
	strlist_clear(&declared);
	guest_view_clear(&guest);
	experiment_groups(&p->exp, &p->labels);
	p->faults = p->profile.faults;
	fault_plan_merge(&p->faults, &p->exp.faults);
	fault_plan_merge(&p->faults, &p->asked);
	for (size_t i = 0; i < p->labels.n; i++) {
		char *name = group_variant(p->labels.items[i]);
		const struct variant *v = variant_find(&p->variants, name);
		if (!v)
			die_usage("%s: debug = yes, but variant '%.*s' has no debug build", p->exp.path,
				  (int)strcspn(name, "+"), name);
		if (fault_plan_check_kernel(&p->faults, v, &p->base, &err) < 0)
			die_usage("%s", err.buf);
		free(name);
	}
	run_order_make(&p->labels, planned_trials(&p->exp), p->seed, &p->slots, &p->n_slots);
}

/* -j N, else the experiment's jobs, else what the host holds (trial-pool.h);
 * never more than the trials this run has, so that a run of one trial says
 * it ran one at a time. */
static void choose_jobs(struct run_plan *p, unsigned option)
{
	static char host[96];
	size_t slots = 0;
	for (size_t i = 0; i < p->n_slots; i++)
		slots += run_slot_in_shard(i, p->shard_k, p->shard_n);
	if (option) {
		p->jobs = option;
		p->jobs_from = "-j";
	} else if (p->exp.jobs) {
		p->jobs = p->exp.jobs;
		p->jobs_from = p->exp.path;
	} else {
		unsigned cores = host_cores();
		unsigned long long avail = host_mem_available();
		p->jobs = trial_jobs_default(cores, avail, p->profile.memory);
		snprintf(host, sizeof(host), "the host: %u core%s, %.1f GiB available", cores,
			 cores == 1 ? "" : "s", (double)avail / (double)(1ULL << 30));
		p->jobs_from = host;
	}
	if (slots && p->jobs > slots)
		p->jobs = (unsigned)slots;
}

/* The kernels a resumed run's groups boot are those its trials booted: a
 * variant whose files changed since (a patch edited, a tree, a moved
 * branch) is another kernel, and its trials another experiment. */
static void check_groups_unchanged(const struct run_plan *p, json_t *meta, const char *run)
{
	size_t i;
	json_t *g;
	json_array_foreach(json_object_get(meta, "groups"), i, g) {
		const char *name = json_string_value(json_object_get(g, "variant"));
		const char *hash = json_string_value(json_object_get(g, "hash"));
		const struct variant *v = name ? variant_find(&p->variants, name) : NULL;
		if (!v)
			die_usage("run: --resume %s: its variant '%s' does not exist now (see lab kernel list)",
				  run, name ? name : "?");
		if (hash && strcmp(hash, v->hash))
			die_usage("run: --resume %s: variant %s is now %.12s, its trials ran %.12s (its "
				  "files changed: start a new run)", run, name, v->hash, hash);
	}
}

/* A run to resume, from its run.json; JOBS the -j option (0: none). run.json
 * keeps the most trials any session of the run ran at once. */
static void plan_resume(struct run_plan *p, const char *run, unsigned jobs)
{
	p->dir = run_dir_resolve(run);
	char *path = xasprintf("%s/" RUN_JSON, p->dir);
	struct strbuf why = STRBUF_INIT;
	json_t *meta = run_folder_load(p->dir, &why);
	if (!meta)
		die_usage("run: --resume %s: %s", run, why.buf);
	const char *text = json_string_value(json_object_get(meta, "experiment_text"));
	const char *name = json_string_value(json_object_get(meta, "experiment"));
	const char *profile = json_string_value(json_object_get(meta, "profile"));
	const char *run_id = json_string_value(json_object_get(meta, "run_id"));
	if (!text || !name || !profile || !run_id)
		die_usage("run: %s lacks the experiment it ran", path);
	/* The run keeps the clock it started on; a run from before clocks ran on realtime. */
	json_t *clock_json = json_object_get(meta, "clock");
	const char *clock = json_string_value(json_object_get(clock_json, "name"));
	const char *from = json_string_value(json_object_get(clock_json, "from"));
	/* the plan lives as long as the process: the copy is never freed */
	struct clock_choice kept = { GUEST_CLOCK_REALTIME, xstrdup(from ? from : path) };
	if (clock && guest_clock_parse(clock, &kept.clock) < 0)
		die_usage("run: %s: clock '%s' is not realtime or icount", path, clock);
	struct strbuf err = STRBUF_INIT;
	/* relative `files` from where the run found them, not from the run's folder */
	json_t *files = json_object_get(meta, "files");
	const char *base = json_string_value(json_object_get(files, "base"));
	if (experiment_parse_at(&p->exp, name, path, base ? base : p->dir, text, &err) < 0)
		die_usage("run: %s", err.buf);
	p->exp.trials = (unsigned)json_integer_value(json_object_get(meta, "trials_per_group"));
	/* the run's own design: a sequential run stays one (the experiment file may say
	 * otherwise now, or the run may have been started with --until-decided) */
	json_int_t seq_max = json_integer_value(json_object_get(json_object_get(meta, "sequential"),
								 "max_trials"));
	p->exp.until_decided = seq_max > 0;
	p->exp.max_trials = seq_max > 0 ? (unsigned)seq_max : 0;
	p->seed = (unsigned long)json_integer_value(json_object_get(meta, "seed"));
	json_t *shard = json_object_get(meta, "shard");
	p->shard_k = (unsigned)json_integer_value(json_object_get(shard, "k"));
	p->shard_n = (unsigned)json_integer_value(json_object_get(shard, "n"));
	p->run_id = xstrdup(run_id);
	/* the injection the run was started with on the command line */
	json_t *options = json_object_get(meta, "fault_options");
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++) {
		const char *text = json_string_value(json_object_get(options, fault_capability_name[i]));
		p->fault_text[i] = text ? xstrdup(text) : NULL;
	}
	if (fault_plan_parse_options(&p->asked, p->fault_text, &err) < 0)
		die_usage("run: %s: fault_options: %s", path, err.buf);
	/* the variants its --variant options made, as the run kept them */
	char *own = xasprintf("%s/variants", p->dir);
	if (is_dir(own))
		kernel_catalog_add_folder(own);
	free(own);
	load_plan_parts(p, profile, kept);
	check_groups_unchanged(p, meta, run);
	/* the trials to come run the programs the others ran, or none */
	const char *ran = json_string_value(json_object_get(files, "hash"));
	const char *now = guest_files_any(&p->files) ? p->files.hash : "none";
	if (strcmp(ran ? ran : "none", now))
		die_usage("run: --resume %s: the run's files were %.16s, now they are %.16s (a "
			  "result names the programs it ran: start a new run)", run, ran ? ran : "none", now);
	choose_jobs(p, jobs);
	json_int_t recorded = json_integer_value(json_object_get(meta, "jobs"));
	if (p->jobs > (recorded > 1 ? recorded : 1)) {
		json_object_set_new(meta, "jobs", json_integer((json_int_t)p->jobs));
		if (run_folder_update(p->dir, meta, &err) < 0)
			warning("run: %s", err.buf);
	}
	json_decref(meta);
	free(path);
}

/* One trial, in a worker process of its own (trial-pool.h): the worker
 * boots it and writes its trial.json; an error that keeps it from running
 * is said by the worker and is its exit status. */
struct trial_work {
	const struct run_plan *p;
	const struct run_slot *slot;
	const char *accel;
	const struct strlist *perf_args;
	const char *command;
	char *dir;
	struct child_process worker;
	double started;
};

static const struct guest_files *group_files(const struct run_plan *p, const char *label)
{
	for (size_t i = 0; p->group_files && i < p->labels.n; i++)
		if (!strcmp(p->labels.items[i], label))
			return &p->group_files[i];
	return &p->files;
}

/* The selftests the workload lines run, built from each group variant's tree,
 * joined to the run's files per group; a test a tree lacks is the
 * experiment's mistake (exit 2), before any boot. */
static void build_selftests(struct run_plan *p)
{
	struct selftest_list tests;
	struct strbuf err = STRBUF_INIT;
	selftests_named(&p->exp.workloads, p->exp.workload_lines, p->exp.path, &tests);
	if (tests.n)
		p->group_files = xcalloc(p->labels.n, sizeof(*p->group_files));
	for (size_t i = 0; tests.n && i < p->labels.n; i++) {
		char *name = group_variant(p->labels.items[i]);
		const struct variant *v = variant_find(&p->variants, name);
		free(name);
		/* the run's own folders again, then the variant's tests beside them */
		p->group_files[i] = GUEST_FILES_INIT(p->exp.platform.arch);
		int rc = 0;
		for (size_t k = 0; rc == 0 && k < p->files.dirs.n; k++)
			rc = guest_files_add(&p->group_files[i], p->files.dirs.items[k], &err);
		if (rc == 0)
			rc = selftests_prepare(v, &tests, &p->group_files[i], &err);
		if (rc == SELFTEST_NOT_IN_TREE)
			die_usage("%s", err.buf);
		if (rc < 0)
			die("run: %s", err.buf);
	}
	selftest_list_clear(&tests);
	strbuf_release(&err);
}

static int run_one(void *arg)
{
	struct trial_work *w = arg;
	const struct run_plan *p = w->p;
	char *variant_name = group_variant(w->slot->label);
	struct trial_spec spec = {
		.variant = variant_find(&p->variants, variant_name), .profile = &p->profile,
		.command = w->command, .dir = w->dir, .accel = w->accel, .clock = p->clock,
		.watchdogs = default_watchdogs(), .use_cgroup = true, .perf_args = w->perf_args,
		.prepare = p->exp.prepare,
		.has_target = p->exp.has_target, .target_order = p->exp.target_order,
		.target_max_free_blocks = p->exp.target_max_free_blocks,
		.faults = &p->faults,
		.trials_at_once = p->jobs,
		.files = group_files(p, w->slot->label),
	};
	spec.watchdogs.total = p->exp.trial_timeout;
	struct strbuf err = STRBUF_INIT;
	struct vm_run vm;
	remove_tree(w->dir);
	int rc = trial_run(&spec, &vm, &err);
	if (rc < 0)
		error("run: trial %s/%u: %s", w->slot->label, w->slot->index, err.buf);
	free(vm.detail);
	free(variant_name);
	strbuf_release(&err);
	return rc < 0 ? 1 : 0;
}

/* A look after a round (run-look.h); a look that fails is a warning, and the run goes on. */
static bool look(const struct run_plan *p, size_t *decided, size_t *rows)
{
	struct strbuf err = STRBUF_INIT;
	int rc = run_look(p->dir, decided, rows, &err);
	if (rc < 0)
		warning("run: the look after this round failed: %s", err.buf);
	strbuf_release(&err);
	return rc == 1;
}

/* The first round's trials in this shard (the first slot of each group). */
static bool first_round_broken_in(const struct run_plan *p, struct strbuf *why)
{
	struct strlist dirs = STRLIST_INIT;
	for (size_t i = 0; i < p->n_slots && i < p->labels.n; i++)
		if (run_slot_in_shard(i, p->shard_k, p->shard_n))
			strlist_push_owned(&dirs, xasprintf("%s/%s/%03u", p->dir, p->slots[i].label,
							    p->slots[i].index));
	bool broken = first_round_broken((const char *const *)dirs.items, dirs.n, why);
	strlist_clear(&dirs);
	return broken;
}

/* A run's trials as the pool runs them: the workers in flight, the progress
 * line, the first-round check and the looks. */
struct execution {
	struct run_plan *p;
	struct strbuf *stopped;
	const char *accel;
	struct strlist perf_args;
	char *command;
	struct trial_work *work;   /* one per slot; dir set while it runs */
	size_t *running;           /* slots in flight */
	unsigned n_running;
	size_t total, done, ran, ran_first_round;
	bool looking;
	char decided_note[96];
	double started;
};

static char *slot_dir(const struct run_plan *p, size_t i)
{
	return xasprintf("%s/%s/%03u", p->dir, p->slots[i].label, p->slots[i].index);
}

static int start_trial(void *ctx, size_t i)
{
	struct execution *x = ctx;
	struct trial_work *w = &x->work[i];
	*w = (struct trial_work){ .p = x->p, .slot = &x->p->slots[i], .accel = x->accel,
				  .perf_args = &x->perf_args, .command = x->command,
				  .dir = slot_dir(x->p, i), .started = now_monotonic() };
	if (start_function(&w->worker, run_one, w) < 0)
		return -1;
	x->running[x->n_running++] = i;
	return 0;
}

static void trial_ended(struct execution *x, size_t i)
{
	struct trial_work *w = &x->work[i];
	double now = now_monotonic();
	x->done++;
	x->ran++;
	x->ran_first_round += w->slot->index == 0;
	char took[32], eta[32];
	format_duration(took, sizeof(took), now - w->started);
	format_duration(eta, sizeof(eta), (now - x->started) / (double)x->ran * (double)(x->total - x->done));
	char *outcome = trial_record_outcome(w->dir);
	note("[%zu/%zu] %s #%u: %s in %s;%s ETA %s%s", x->done, x->total, w->slot->label,
	     w->slot->index, outcome ? outcome : "unfinished", took, x->decided_note,
	     x->looking ? "at most " : "", eta);
	free(outcome);
	free(w->dir);
	w->dir = NULL;
}

static size_t wait_trial(void *ctx)
{
	struct execution *x = ctx;
	for (;;) {
		for (unsigned k = 0; k < x->n_running; k++) {
			size_t i = x->running[k];
			struct trial_work *w = &x->work[i];
			int status = finish_command_timeout(&w->worker, 0);
			if (status == -2)
				continue;
			x->running[k] = x->running[--x->n_running];
			/* status 1: the worker said why in one line, as -j 1 always did */
			if (status != 0) {
				if (status != 1)
					error("run: trial %s/%u: its worker ended with status %d",
					      w->slot->label, w->slot->index, status);
				return (size_t)-1;
			}
			trial_ended(x, i);
			return i;
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

/* What a sequential run waits for, in its notes. */
static const char *waited_for(const struct run_plan *p)
{
	return p->exp.primary ? "primary rows" : "headline metrics";
}

static bool round_done(void *ctx, unsigned r)
{
	struct execution *x = ctx;
	struct run_plan *p = x->p;
	unsigned round = r + 1;
	/* judged once, by the run that ran it: --resume goes on regardless */
	if (round == 1 && x->ran_first_round && first_round_broken_in(p, x->stopped))
		return false;
	if (!x->looking || round < SEQUENTIAL_FIRST_LOOK)
		return true;
	size_t decided, rows;
	if (look(p, &decided, &rows)) {
		note("round %u: %zu of %zu %s decided: the run stops here", round, rows, rows,
		     waited_for(p));
		return false;
	}
	snprintf(x->decided_note, sizeof(x->decided_note), " %zu of %zu %s decided;", decided, rows,
		 waited_for(p));
	if (round == planned_trials(&p->exp))
		note("round %u: %zu of %zu %s decided at max_trials", round, decided, rows, waited_for(p));
	return true;
}

static unsigned long long mem_now(void *ctx)
{
	(void)ctx;
	return host_mem_available();
}

/* Runs the plan's trials; STOPPED gets why when the run stopped short of its plan. */
static void execute(struct run_plan *p, struct strbuf *stopped)
{
	struct strbuf err = STRBUF_INIT;
	/* every group's kernel: the variants' and, with debug = yes, their companions' */
	for (size_t i = 0; i < p->labels.n; i++) {
		char *name = group_variant(p->labels.items[i]);
		const struct variant *v = variant_find(&p->variants, name);
		free(name);
		if (kernel_build(v, &p->base, &err) < 0)
			die("kernel %s: %s", v->name, err.buf);
	}
	build_selftests(p);
	struct execution x = { .p = p, .stopped = stopped, .perf_args = STRLIST_INIT };
	if (perf_events_to_args(&p->exp.perf_events, &x.perf_args, &err) < 0)
		die_usage("%s: %s", p->exp.path, err.buf);
	x.command = experiment_command(&p->exp);
	if (accel_for_clock(&p->clock, variant_find(&p->variants, p->exp.baseline), &p->profile, &x.accel,
			    &err) < 0)
		die_usage("run: %s", err.buf);
	/* the guest images once, here, rather than by every worker at once: one
	 * for each set of files the groups take (group_files) */
	for (size_t i = 0; i < (p->group_files ? p->labels.n : 1); i++) {
		const struct guest_files *files = p->group_files ? &p->group_files[i] : &p->files;
		bool made = false;
		for (size_t k = 0; k < i && !made; k++)
			made = !strcmp(p->group_files[k].hash, files->hash);
		struct guest_images img;
		if (!made && guest_images_prepare(&img, p->exp.platform.arch, files, &err) < 0)
			die("run: %s", err.buf);
		if (!made)
			guest_images_clear(&img);
	}
	if (p->build_only) {
		free(x.command);
		strlist_clear(&x.perf_args);
		return;
	}

	bool *todo = xcalloc(p->n_slots ? p->n_slots : 1, sizeof(*todo));
	for (size_t i = 0; i < p->n_slots; i++) {
		if (!run_slot_in_shard(i, p->shard_k, p->shard_n))
			continue;
		/* a slot's index is its round */
		if (p->rounds && p->slots[i].index >= p->rounds)
			continue;
		x.total++;
		char *dir = slot_dir(p, i);
		/* a QEMU killed from outside the lab says nothing of the kernel: booted again */
		char *outcome = trial_record_outcome(dir);
		todo[i] = !outcome || !strcmp(outcome, vm_outcome_name(VM_HOST_KILLED));
		x.done += !todo[i];
		free(outcome);
		free(dir);
	}
	/* a shard runs its fixed slice: only a whole run can look */
	x.looking = p->exp.until_decided && p->shard_n <= 1;
	x.work = xcalloc(p->n_slots ? p->n_slots : 1, sizeof(*x.work));
	x.running = xcalloc(p->jobs, sizeof(*x.running));
	x.started = now_monotonic();
	struct trial_pool pool = { .n_slots = p->n_slots, .per_round = p->labels.n, .todo = todo,
				   .jobs = p->jobs, .judge_every_round = x.looking,
				   .trial_bytes = p->profile.memory + TRIAL_QEMU_OVERHEAD_BYTES };
	struct trial_pool_ops ops = { .start = start_trial, .wait_one = wait_trial,
				      .round_done = round_done, .mem_available = mem_now, .ctx = &x };
	/* a trial that could not run stops the run, the others in flight with it (the
	 * lab's exit takes their QEMUs down); --resume boots them again */
	if (trial_pool_run(&pool, &ops) < 0)
		exit(1);
	free(x.running);
	free(x.work);
	free(todo);
	free(x.command);
	strlist_clear(&x.perf_args);
}

/* The results store gets every finished run; a store that fails is a warning, not a lost run. */
static void import_into_store(const char *dir)
{
	struct store *store = NULL;
	struct strbuf err = STRBUF_INIT;
	char *path = store_default_path();
	if (store_open(path, &store, &err) < 0 || store_import_run(store, dir, NULL, &err) < 0)
		warning("the results store %s did not take the run: %s", path, err.buf);
	if (store)
		store_close(store);
	free(path);
	strbuf_release(&err);
}

/* A new run's id and folder: OUT, or <results>/<id>. A folder that holds a
 * run already is bad input with --out; under <results> another id is drawn. */
static void create_run_folder(struct run_plan *p, const char *out)
{
	for (int attempt = 1;; attempt++) {
		p->run_id = run_id_new(p->exp.name, time(NULL), p->shard_k, p->shard_n);
		p->dir = out ? xstrdup(out) : xasprintf("%s/%s", results_root(), p->run_id);
		json_t *meta = run_json(p);
		struct strbuf err = STRBUF_INIT;
		int rc = run_folder_create(p->dir, meta, &err);
		json_decref(meta);
		if (rc == 0 && given_variants_keep(&p->given, p->dir, &err) < 0)
			die("run: %s", err.buf);
		if (rc == 0)
			return;
		if (rc == RUN_FOLDER_TAKEN && out)
			die_usage("run: --out %s (lab run --resume %s continues that run)", err.buf, out);
		if (rc != RUN_FOLDER_TAKEN || attempt == 10)
			die("run: %s", err.buf);
		free(p->run_id);
		free(p->dir);
	}
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

static void say_jobs(const struct run_plan *p)
{
	note("%u trial%s at a time (from %s)", p->jobs, p->jobs == 1 ? "" : "s", p->jobs_from);
	if (p->jobs > 1 && p->clock.clock == GUEST_CLOCK_REALTIME)
		note("clock realtime with %u trials at a time: the trials share the host's cores, so "
		     "their timings, and counts that race the host's time, compare within this run, "
		     "not with a run at another -j (docs/CLOCKS.md; -j 1 or --clock icount for "
		     "figures that do)", p->jobs);
}

/* Before anything is built: a design that cannot decide any row says so (a
 * warning, not a refusal: equivalence can still be decided, and short runs
 * are made on purpose). */
static void warn_if_undecidable(const struct run_plan *p)
{
	struct strbuf why = STRBUF_INIT;
	/* advice on a design the user chose: --quiet asks for errors only */
	if (!quiet && design_check(&p->exp, &p->labels, &why) > 0)
		warning("%s", why.buf);
	strbuf_release(&why);
}

/* "12 min" or "40 s" for an estimate. */
static void add_span(struct strbuf *sb, double seconds)
{
	if (seconds < 120)
		strbuf_addf(sb, "%.0f s", seconds);
	else
		strbuf_addf(sb, "%.0f min", seconds / 60);
}

/* --dry-run: what the run would do, all checked, nothing built or booted. */
static void print_plan(const struct run_plan *p)
{
	char *platform = platform_name(&p->exp.platform);
	printf("plan of %s (--dry-run: everything checked, nothing built or booted)\n", p->exp.name);
	printf("  experiment  %s\n", p->exp.path);
	printf("  machine     %s (%s), clock %s\n", p->profile.name, platform,
	       guest_clock_name(p->clock.clock));
	free(platform);
	printf("  groups     ");
	for (size_t i = 0; i < p->labels.n; i++)
		printf(" %s%s", p->labels.items[i], strcmp(p->labels.items[i], p->exp.baseline) ? "" : " (baseline)");
	printf("\n");
	unsigned rounds = planned_trials(&p->exp);
	if (p->exp.until_decided)
		printf("  trials      until decided: a look after each round from round %u on, at most "
		       "%u a group\n", SEQUENTIAL_FIRST_LOOK, rounds);
	else
		printf("  trials      %u a group\n", rounds);
	printf("  at once     %u (from %s)\n", p->jobs, p->jobs_from);
	for (size_t i = 0; i < p->exp.workloads.n; i++)
		printf("  workload    %s\n", p->exp.workloads.items[i]);
	printf("  headline   ");
	for (size_t i = 0; i < p->exp.metrics.n; i++)
		printf(" %s", p->exp.metrics.items[i]);
	printf("%s\n", p->exp.metrics.n ? "" : " every metric that varies");
	size_t to_build = 0;
	for (size_t i = 0; i < p->labels.n; i++) {
		if (strchr(p->labels.items[i], '#'))
			continue;
		const struct variant *v = variant_find(&p->variants, p->labels.items[i]);
		bool cached = kernel_is_cached(v);
		to_build += !cached;
		printf("  kernel      %s %.12s: %s\n", v->name, v->hash, cached ? "cached" : "to build");
	}
	struct strbuf why = STRBUF_INIT;
	if (design_check(&p->exp, &p->labels, &why) > 0)
		printf("  design      %s\n", why.buf);
	else
		printf("  design      can decide a row better, worse or differs\n");
	strbuf_reset(&why);
	/* the estimate: earlier trials like these, from the results store */
	struct store *store = NULL;
	struct store_trial_seconds t = { 0 };
	char *path = store_default_path();
	if (path_exists(path) && store_open(path, &store, &why) == 0)
		store_trial_seconds(store, p->exp.name, p->profile.name, guest_clock_name(p->clock.clock), &t,
				    &why);
	if (store)
		store_close(store);
	free(path);
	struct strbuf est = STRBUF_INIT;
	if (t.n) {
		size_t groups = p->labels.n, jobs = p->jobs ? p->jobs : 1;
		unsigned first = p->exp.until_decided ? SEQUENTIAL_FIRST_LOOK : rounds;
		double least = (double)((groups * first + jobs - 1) / jobs) * t.median;
		double most = (double)((groups * rounds + jobs - 1) / jobs) * t.median;
		strbuf_addstr(&est, "about ");
		add_span(&est, least);
		if (most > least) {
			strbuf_addstr(&est, " (decided at the first look) to ");
			add_span(&est, most);
			strbuf_addstr(&est, " (at most)");
		}
		strbuf_addf(&est, " of trials: a median %.0f s a trial in %ld earlier ok trials of %s on %s, "
			    "clock %s, at their runs' -j", t.median, t.n,
			    t.any_experiment ? "any experiment" : p->exp.name, p->profile.name,
			    guest_clock_name(p->clock.clock));
	} else {
		strbuf_addf(&est, "no earlier trials on %s with clock %s in the results store: each trial "
			    "takes at most its timeout, %.0f s", p->profile.name,
			    guest_clock_name(p->clock.clock), p->exp.trial_timeout);
	}
	if (to_build)
		strbuf_addf(&est, "; %zu kernel%s to build first (minutes each: docs/BENCH.md)", to_build,
			    to_build == 1 ? "" : "s");
	printf("  time        %s\n", est.buf);
	strbuf_release(&est);
	strbuf_release(&why);
}

/* An absolute form of PATH (malloc'd): the jobs run elsewhere. */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		die("run: cannot tell the current folder: %s", strerror(errno));
	return xasprintf("%s/%s", cwd, path);
}

struct slurm_options {
	bool on;
	unsigned long shards;
	const char *cache;
	struct strlist sbatch;
	unsigned long jobs;
};

/* lab run --slurm: the shards' run folders made here (the design fixed
 * before any job starts), the scripts beside them, the jobs submitted. */
static int submit_to_slurm(struct run_plan *p, const char *out, struct slurm_options *o)
{
	size_t slots = p->n_slots;
	unsigned n = o->shards ? (unsigned)o->shards : planned_trials(&p->exp);
	if (n > slots)
		die_usage("run: --slurm-shards %u: the run has %zu trials, at most one shard each", n, slots);
	struct slurm_run r = { .shards = n, .jobs = (unsigned)o->jobs, .sbatch = STRLIST_INIT };
	/* a sequential run goes in rounds: its first jobs run to the first look */
	if (p->exp.until_decided) {
		r.max_trials = p->exp.max_trials;
		r.first_look = SEQUENTIAL_FIRST_LOOK;
	}
	r.run_id = run_id_new(p->exp.name, time(NULL), 1, 1);
	r.results = absolute(results_root());
	r.run_dir = out ? absolute(out) : xasprintf("%s/%s", r.results, r.run_id);
	r.slurm_dir = slurm_dir_for(r.run_dir);
	r.cache = absolute(o->cache ? o->cache : cache_root());
	r.lab = xstrdup(lab_binary());
	r.clock = xstrdup(guest_clock_name(p->clock.clock));
	const char *paths[][2] = { { "the run folder", r.run_dir }, { "--slurm-cache", r.cache },
				   { "the lab binary", r.lab }, { "the results folder", r.results } };
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (slurm_script_path_ok(paths[i][1]) < 0)
			die_usage("run: --slurm: %s %s has a blank, quote, backslash or '%%', which "
				  "#SBATCH lines cannot carry", paths[i][0], paths[i][1]);
	for (size_t i = 0; i < o->sbatch.n; i++) {
		const char *opt = o->sbatch.items[i];
		if (opt[0] != '-' || strchr(opt, '\n'))
			die_usage("run: --sbatch '%s': one sbatch option a time, as --name=value", opt);
		strlist_push(&r.sbatch, opt);
	}
	if (path_exists(r.run_dir) || path_exists(r.slurm_dir))
		die_usage("run: --out %s: it or %s exists already", r.run_dir, r.slurm_dir);
	if (!have_program("sbatch"))
		die_usage("run: --slurm: no sbatch here (Slurm's client programs: Debian's slurm-client)");
	if (mkdir_p(r.cache, 0755) < 0)
		die("run: --slurm-cache %s: %s", r.cache, strerror(errno));
	warn_if_undecidable(p);
	struct strbuf err = STRBUF_INIT;
	/* the shards' folders, as lab run --shard K/N would make them */
	p->shard_n = n;
	p->jobs = o->jobs ? (unsigned)o->jobs : 1;
	for (unsigned k = 1; k <= n; k++) {
		p->shard_k = k;
		p->run_id = xasprintf("%s-shard%u-of-%u", r.run_id, k, n);
		p->dir = xasprintf("%s/shard-%u", r.slurm_dir, k);
		json_t *meta = run_json(p);
		int rc = run_folder_create(p->dir, meta, &err);
		json_decref(meta);
		if (rc != 0 || given_variants_keep(&p->given, p->dir, &err) < 0)
			die("run: %s", err.buf);
		free(p->run_id);
		free(p->dir);
	}
	if (slurm_run_write(&r, &err) < 0 || slurm_run_submit(&r, r.first_look, true, &err) < 0)
		die("run: --slurm: %s", err.buf);
	if (p->clock.clock == GUEST_CLOCK_REALTIME)
		note("clock realtime: the trials' timings depend on the node that runs them; give "
		     "the jobs one node type (--sbatch=--constraint=... or a partition of one) for "
		     "figures that compare (docs/CLUSTER.md); lab results names the CPUs they ran on");
	printf("slurm:    %s\nprogress: lab results %s\nresults:  %s (once the merge job ran)\n",
	       r.slurm_dir, r.run_dir, r.run_dir);
	slurm_run_clear(&r);
	return 0;
}

/* lab run --resume on a Slurm run; -1 when RUN is none. */
static int resume_slurm(const char *run, unsigned jobs, bool look)
{
	struct slurm_run r;
	struct strbuf err = STRBUF_INIT;
	int found = slurm_run_find(run, &r, &err);
	if (found < 0)
		die_usage("run: --resume %s: %s", run, err.buf);
	if (found == 0)
		return -1;
	if (jobs)
		die_usage("run: --resume %s: -j: a Slurm run's shards keep the -j it was submitted "
			  "with (its shards.sh)", run);
	if ((look ? slurm_run_decide(&r, &err) : slurm_run_resume(&r, &err)) < 0)
		die("run: --resume %s%s: %s", run, look ? " --slurm-look" : "", err.buf);
	slurm_run_clear(&r);
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

int cmd_run(int argc, char **argv)
{
	const char *experiment = NULL, *profile = NULL, *out = NULL, *resume = NULL;
	struct run_asked asked = { .variant_args = STRLIST_INIT, .workloads = STRLIST_INIT,
				   .files = STRLIST_INIT };
	unsigned long trials = 0, seed = 0, max_trials = 0, jobs = 0;
	bool list = false, until_decided = false, dry_run = false;
	struct slurm_options slurm = { .sbatch = STRLIST_INIT };
	bool slurm_look = false;
	unsigned fail_on = 0;
	struct clock_choice clock_option = { GUEST_CLOCK_REALTIME, NULL };
	struct run_plan p;
	memset(&p, 0, sizeof(p));
	p.shard_k = p.shard_n = 1;
	struct strbuf until_decided_help = STRBUF_INIT, head = STRBUF_INIT;
	strbuf_addstr(&until_decided_help, "run rounds until every headline metric (or the primary) "
		      "is decided (");
	compare_verdict_list(&until_decided_help, VERDICTS_DECIDED, false);
	strbuf_addstr(&until_decided_help, "), looking after each; see below");
	const struct opt opts[] = {
		OPT_STRING('x', "experiment", &experiment, "E",
			   "the experiment (default " DEFAULT_EXPERIMENT "), or the path of an "
			   "experiment file"),
		OPT_STRING('p', "profile", &profile, "P", "another machine profile than the experiment's"),
		OPT_CALL(0, "variant", &asked.variant_args, "NAME[=SPEC]", opt_push,
			 "a kernel to compare with the baseline, in place of the experiment's "
			 "variants (repeatable): a variant's name, or NAME=SPEC with SPEC another "
			 "variant's name, patch:FILE[,FILE...] (on top of the baseline), "
			 "git:DIR@REF, tree:DIR or bzimage:FILE"),
		OPT_STRING(0, "baseline", &asked.baseline, "NAME",
			   "the variant the others are compared with (default the experiment's, "
			   "else " DEFAULT_BASELINE ")"),
		OPT_CALL('w', "workload", &asked.workloads, "LINE", opt_push,
			 "a command line each trial runs, in place of the experiment's workload "
			 "lines (repeatable; lab workloads lists the lab's own)"),
		OPT_CALL(0, "files", &asked.files, "DIR", opt_push,
			 "a folder of programs brought into the guest, as the key files (repeatable)"),
		OPT_ULONG('n', "trials", &trials, "N", 1, ULONG_MAX,
			  "trials per variant instead of the experiment's (a fixed design also for "
			  "an experiment that runs until decided)"),
		OPT_CALL(0, "clock", &clock_option, "C", opt_clock,
			 "the guest's clock, realtime or icount, instead of the experiment's (or "
			 "else the profile's; docs/CLOCKS.md); under icount the trial timeout is "
			 "multiplied by 6"),
		OPT_FLAG(0, "until-decided", &until_decided, strbuf_str(&until_decided_help)),
		OPT_ULONG(0, "max-trials", &max_trials, "N", SEQUENTIAL_FIRST_LOOK + 1, 1000,
			  "with --until-decided: at most N trials a variant (default the experiment's "
			  "max_trials, else 20)"),
		OPT_ULONG('j', "jobs", &jobs, "N", 1, MAX_JOBS,
			  "trials at once (default the experiment's jobs, else as many as the host "
			  "holds: one per core, as many as its memory fits the profile's guest plus "
			  "384 MiB with 1 GiB kept free); the trials and their order are the same for "
			  "any N, and --resume may take another N"),
		OPT_STRING('o', "out", &out, "DIR",
			   "the run folder (default results/<run id>); one that holds a run is refused"),
		OPT_ULONG(0, "seed", &seed, "N", 1, ULONG_MAX,
			  "the shuffle's seed (default: derived from the experiment, profile and "
			  "trials, so shards agree)"),
		OPT_CALL(0, "shard", &p, "K/N", shard_option,
			 "run only every N-th trial starting at the K-th: N machines each run one "
			 "shard of the same experiment"),
		OPT_STRING(0, "fail-page-alloc", &p.fault_text[FAULT_PAGE_ALLOC], "SPEC",
			   "fail the workload's page allocations in every trial, over the experiment's "
			   "and the profile's fail_page_alloc (the key's words: 'probability P[, "
			   "min-order K]...'; docs/KERNELS.md: Failure paths on demand)"),
		OPT_STRING(0, "failslab", &p.fault_text[FAULT_SLAB], "SPEC",
			   "fail its slab allocations, over the key failslab"),
		OPT_STRING(0, "resume", &resume, "RUN", "continue an interrupted run; finished trials stay "
			   "(a Slurm run: submit again what is missing)"),
		OPT_FLAG(0, "build-only", &p.build_only,
			 "with --resume: build the kernels, selftests and guest images the run needs, "
			 "boot nothing (a Slurm run's build job)"),
		OPT_ULONG(0, "rounds", &p.rounds, "R", 1, 100000,
			  "run only the trials of the first R rounds, then stop as an interrupted run "
			  "does (a sequential Slurm run's shards, round by round; lab bisect's looks)"),
		OPT_FLAG(0, "slurm", &slurm.on,
			 "submit the run to Slurm instead of running it here: a build job, a job array "
			 "of shards, a merge job; with --until-decided round by round, a decision job "
			 "after each (docs/CLUSTER.md)"),
		OPT_FLAG(0, "slurm-look", &slurm_look,
			 "with --resume on a sequential Slurm run: look after its last round and "
			 "submit the next one or the merge (its decision job)"),
		OPT_ULONG(0, "slurm-shards", &slurm.shards, "N", 1, 100000,
			  "with --slurm: N array tasks (default one per round: the trials a variant)"),
		OPT_STRING(0, "slurm-cache", &slurm.cache, "DIR",
			   "with --slurm: the kernel cache the nodes share (default this lab's cache)"),
		OPT_CALL(0, "sbatch", &slurm.sbatch, "OPTION", opt_push,
			 "with --slurm: an sbatch option for every job, as --partition=P, --time=T, "
			 "--account=A (repeatable)"),
		OPT_CALL(0, "fail-on", &fail_on, "WORDS", opt_fail_on, opt_fail_on_help()),
		OPT_FLAG(0, "dry-run", &dry_run,
			 "check everything and print the plan (groups, trials, kernels to build, the "
			 "design check, an estimate of the time from earlier trials), boot nothing"),
		OPT_FLAG(0, "list", &list, "list the experiments"),
		OPT_END(),
	};
	run_usage_head(&head);
	int operands = lab_parse_options("run", argc, argv, opts, strbuf_str(&head), NULL);
	strbuf_release(&head);
	strbuf_release(&until_decided_help);
	if (operands)
		die_usage("run: unexpected argument '%s' (see lab run --help)", argv[1]);
	if (list) {
		list_experiments();
		return 0;
	}
	bool seed_given = seed > 0;
	if (!slurm.on && (slurm.shards || slurm.cache || slurm.sbatch.n))
		die_usage("run: --slurm-shards, --slurm-cache and --sbatch go with --slurm");
	if ((p.build_only || slurm_look) && !resume)
		die_usage("run: --build-only and --slurm-look go with --resume (the run)");
	/* the verdicts are the closing table's: a run that draws none here has none to gate on */
	if (fail_on && (slurm.on || p.build_only || p.rounds || slurm_look))
		die_usage("run: --fail-on judges the table a whole run ends with, not --slurm, "
			  "--slurm-look, --build-only or --rounds (lab compare --fail-on judges "
			  "such a run once it is whole)");
	if (dry_run && (resume || slurm.on))
		die_usage("run: --dry-run plans a new run here, not --resume or --slurm");
	if (slurm.on && (resume || p.shard_n > 1))
		die_usage("run: --slurm makes its own shards (--slurm-shards N); lab run --resume RUN "
			  "resubmits a Slurm run");

	if (resume) {
		if (experiment || asked.variant_args.n || asked.baseline || asked.workloads.n || asked.files.n)
			die_usage("run: --resume takes no -x, --variant, --baseline, -w or --files: the run "
				  "keeps its own");
		if (profile || trials || out || seed_given || p.shard_n > 1 || until_decided || max_trials ||
		    clock_option.from || p.fault_text[FAULT_PAGE_ALLOC] || p.fault_text[FAULT_SLAB])
			die_usage("run: --resume takes no other settings: the run keeps its own");
		if (!p.build_only && !p.rounds && resume_slurm(resume, (unsigned)jobs, slurm_look) == 0)
			return 0;
		if (slurm_look)
			die_usage("run: --resume %s --slurm-look: not a Slurm run", resume);
		plan_resume(&p, resume, (unsigned)jobs);
	} else {
		struct strbuf err = STRBUF_INIT;
		if (fault_plan_parse_options(&p.asked, p.fault_text, &err) < 0)
			die_usage("run: %s", err.buf);
		if (run_asked_experiment(&p.exp, experiment, &asked, profile, &p.given, &err) < 0)
			die_usage("%s%s", starts_with(err.buf, "run: ") ? "" : "run: ", err.buf);
		if (max_trials && !until_decided && !p.exp.until_decided)
			die_usage("run: --max-trials goes with --until-decided");
		if (trials && (until_decided || max_trials))
			die_usage("run: --trials and --until-decided: the run decides its trials "
				  "(--max-trials caps them)");
		/* --trials N on an experiment that runs until decided: N fixed trials instead */
		if (trials && p.exp.until_decided) {
			note("run: --trials %lu: %lu fixed trial%s a variant instead of %s's until_decided",
			     trials, trials, trials == 1 ? "" : "s", p.exp.path);
			p.exp.until_decided = false;
			p.exp.max_trials = 0;
		}
		if (until_decided)
			p.exp.until_decided = true;
		if (max_trials)
			p.exp.max_trials = (unsigned)max_trials;
		else if (p.exp.until_decided && !p.exp.max_trials)
			p.exp.max_trials = DEFAULT_MAX_TRIALS;
		if (trials)
			p.exp.trials = (unsigned)trials;
		const char *profile_name = profile ? profile : p.exp.profile;
		p.seed = seed_given ? seed : derived_seed(&p.exp, profile_name, planned_trials(&p.exp));
		load_plan_parts(&p, profile_name, clock_option);
		if (dry_run) {
			choose_jobs(&p, (unsigned)jobs);
			print_plan(&p);
			return 0;
		}
		if (slurm.on) {
			slurm.jobs = jobs;
			return submit_to_slurm(&p, out, &slurm);
		}
		choose_jobs(&p, (unsigned)jobs);
		create_run_folder(&p, out);
	}
	char *platform = platform_name(&p.exp.platform);
	if (p.exp.until_decided)
		note("run %s: %s on %s (%s), clock %s, until %s%s is decided, at most "
		     "%u trials per variant, seed %lu%s", p.run_id, p.exp.name, p.profile.name, platform,
		     guest_clock_name(p.clock.clock),
		     p.exp.primary ? "the primary " : "every headline metric",
		     p.exp.primary ? p.exp.primary : "", p.exp.max_trials, p.seed,
		     p.shard_n > 1 ? " (one shard: its whole slice, no looks)" : "");
	else
		note("run %s: %s on %s (%s), clock %s, %u trial%s per variant, seed %lu%s", p.run_id,
		     p.exp.name, p.profile.name, platform, guest_clock_name(p.clock.clock), p.exp.trials,
		     p.exp.trials == 1 ? "" : "s", p.seed,
		     p.shard_n > 1 ? " (one shard)" : "");
	free(platform);
	if (guest_files_any(&p.files)) {
		struct strbuf dirs = STRBUF_INIT;
		for (size_t i = 0; i < p.files.dirs.n; i++)
			strbuf_addf(&dirs, "%s%s", i ? ", " : "", p.files.dirs.items[i]);
		note("files %.16s in the guest's " GUEST_FILES_DIR ": %s", p.files.hash, dirs.buf);
		strbuf_release(&dirs);
	}
	if (p.rounds)
		note("run %s: only the trials of its first %lu rounds (--rounds)", p.run_id, p.rounds);
	say_jobs(&p);
	note("interrupt at any time: lab run --resume %s continues it", p.dir);
	warn_if_undecidable(&p);
	struct strbuf stopped = STRBUF_INIT;
	execute(&p, &stopped);
	if (p.build_only) {
		note("run %s: built what its trials need (--build-only)", p.run_id);
		return 0;
	}

	import_into_store(p.dir);
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
	struct strlist runs = STRLIST_INIT, globs = STRLIST_INIT;
	strlist_push(&runs, p.dir);
	/* --fail-on: exit 3 once the report is written; the run's data stay either way */
	int gate = compare_runs(&runs, NULL, &globs, "text", 1, false, fail_on, stdout);
	/* the report of the run beside its trials: the same table, with figures */
	struct report_request report = { .seed = 1 };
	char *report_path = xasprintf("%s/report.html", p.dir);
	bool reported = report_runs(&runs, &report) == 0;
	printf("\nresults: %s\n", p.dir);
	if (reported)
		printf("report:  %s\n", report_path);
	free(report_path);
	strlist_clear(&runs);
	return gate;
}
