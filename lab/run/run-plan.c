/* A run's plan, resolved once (run-plan.h). */
#include "run-plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command-check.h"
#include "common/paths.h"
#include "common/run-folder.h"
#include "design-check.h"
#include "lab/kernel/kernel-catalog.h"
#include "lab/util/hash.h"
#include "lab/util/version.h"
#include "metric-check.h"
#include "run-id.h"
#include "trial-pool.h"

unsigned long run_plan_derived_seed(const struct experiment *e, const char *profile, unsigned trials)
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
unsigned run_plan_rounds(const struct experiment *e)
{
	return e->until_decided ? e->max_trials : e->trials;
}

struct trial_asked run_plan_trial_asked(const struct experiment *e, const struct profile *profile,
					struct clock_choice option)
{
	return (struct trial_asked){ .platform = e->platform, .profile = profile, .clock_option = option,
				     .clock_experiment = { e->clock, e->clock_given ? e->path : NULL } };
}

json_t *run_plan_json(const struct run_plan *p)
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
	json_object_set_new(run, "trials_per_group", json_integer(run_plan_rounds(&p->exp)));
	json_object_set_new(run, "jobs", json_integer((json_int_t)p->jobs));
	json_object_set_new(run, "seed", json_integer((json_int_t)p->seed));
	/* a trial is one boot of this many restores (trial-restores.h) */
	if (p->exp.restores)
		json_object_set_new(run, "restores_per_boot", json_integer(p->exp.restores));
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

void run_plan_load(struct run_plan *p, const char *profile_name, struct clock_choice option)
{
	struct strbuf err = STRBUF_INIT;
	if (profile_load(&p->profile, profile_name, &err) < 0)
		die_usage("run: %s", err.buf);
	p->machine = run_plan_trial_asked(&p->exp, &p->profile, option);
	if (trial_plan_clock(&p->machine, &p->clock, &err) < 0)
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
	experiment_command_lines(&p->exp, &guest, &p->lines);
	if (command_lines_check(&p->lines, &guest, &err) < 0)
		die_usage("%s", err.buf);
	struct strlist declared = STRLIST_INIT;
	if (metric_declarations_load(guest.check_binary, &declared, &err) < 0)
		die("run: %s", err.buf);
	if (experiment_check_metrics(&p->exp, &p->lines, &declared, &err) < 0)
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
	run_order_make(&p->labels, run_plan_rounds(&p->exp), p->seed, &p->slots, &p->n_slots);
}

/* -j N, else the experiment's jobs, else what the host holds (trial-pool.h);
 * never more than the trials this run has, so that a run of one trial says
 * it ran one at a time. */
void run_plan_choose_jobs(struct run_plan *p, unsigned option)
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
void run_plan_resume(struct run_plan *p, const char *run, unsigned jobs)
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
	run_plan_load(p, profile, kept);
	check_groups_unchanged(p, meta, run);
	/* the trials to come run the programs the others ran, or none */
	const char *ran = json_string_value(json_object_get(files, "hash"));
	const char *now = guest_files_any(&p->files) ? p->files.hash : "none";
	if (strcmp(ran ? ran : "none", now))
		die_usage("run: --resume %s: the run's files were %.16s, now they are %.16s (a "
			  "result names the programs it ran: start a new run)", run, ran ? ran : "none", now);
	run_plan_choose_jobs(p, jobs);
	json_int_t recorded = json_integer_value(json_object_get(meta, "jobs"));
	if (p->jobs > (recorded > 1 ? recorded : 1)) {
		json_object_set_new(meta, "jobs", json_integer((json_int_t)p->jobs));
		if (run_folder_update(p->dir, meta, &err) < 0)
			warning("run: %s", err.buf);
	}
	json_decref(meta);
	free(path);
}

/* A new run's id and folder: OUT, or <results>/<id>. A folder that holds a
 * run already is bad input with --out; under <results> another id is drawn. */
void run_plan_create_folder(struct run_plan *p, const char *out)
{
	for (int attempt = 1;; attempt++) {
		p->run_id = run_id_new(p->exp.name, time(NULL), p->shard_k, p->shard_n);
		p->dir = out ? xstrdup(out) : xasprintf("%s/%s", results_root(), p->run_id);
		json_t *meta = run_plan_json(p);
		struct strbuf err = STRBUF_INIT;
		int rc = run_folder_create(p->dir, meta, &err);
		json_decref(meta);
		if (rc == 0 && given_variants_keep(&p->given, p->dir, &err) < 0)
			die("run: %s", err.buf);
		if (rc == 0)
			return;
		if (rc == RUN_FOLDER_TAKEN && out)
			die_usage("run: --out %s (lab run --resume %s continues that run)", err.buf, out);
		if (rc == RUN_FOLDER_FOREIGN)
			die_usage("run: --out %s", err.buf);
		if (rc != RUN_FOLDER_TAKEN || attempt == 10)
			die("run: %s", err.buf);
		free(p->run_id);
		free(p->dir);
	}
}

void run_plan_say_jobs(const struct run_plan *p)
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
void run_plan_warn_if_undecidable(const struct run_plan *p)
{
	struct strbuf why = STRBUF_INIT;
	/* advice on a design the user chose: --quiet asks for errors only */
	if (!quiet && design_check(&p->exp, &p->labels, &why) > 0)
		warning("%s", why.buf);
	strbuf_release(&why);
}
