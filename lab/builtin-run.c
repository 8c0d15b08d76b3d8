/* lab run: an experiment's trials, variants interleaved, then the comparison. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/store/store.h"
#include "accel.h"
#include "builtin.h"
#include "experiment.h"
#include "hash.h"
#include "kbuild.h"
#include "options.h"
#include "common/paths.h"
#include "perf-events.h"
#include "profile.h"
#include "progress.h"
#include "common/run-command.h"
#include "common/run-folder.h"
#include "analysis/run/run-data.h"
#include "run-order.h"
#include "trial.h"

#define DEFAULT_EXPERIMENT "quick"

static const char run_usage[] =
	"usage: lab run [--experiment E] [options]\n"
	"       lab run --resume RUN\n"
	"\n"
	"Runs an experiment (configs/experiments/E.conf): builds the kernels it needs,\n"
	"then boots one VM per trial, the variants interleaved in seeded shuffled\n"
	"rounds, and ends with the comparison table and where the results are.\n"
	"Each trial's folder is results/<run>/<variant>/<index>/ (see docs/FORMATS.md).\n"
	"\n"
	"  -x, --experiment E   the experiment (default " DEFAULT_EXPERIMENT "), or the path\n"
	"                       of an experiment file\n"
	"  -p, --profile P      another machine profile than the experiment's\n"
	"  -n, --trials N       trials per variant instead of the experiment's\n"
	"      --clock C        the guest's clock, realtime or icount, instead of the\n"
	"                       experiment's (or else the profile's; docs/CLOCKS.md);\n"
	"                       under icount the trial timeout is multiplied by 6\n"
	"  -o, --out DIR        the run folder (default results/<experiment>-<time>)\n"
	"      --seed N         the shuffle's seed (default: derived from the\n"
	"                       experiment, profile and trials, so shards agree)\n"
	"      --shard K/N      run only every N-th trial starting at the K-th: N\n"
	"                       machines each run one shard of the same experiment\n"
	"      --resume RUN     continue an interrupted run; finished trials stay\n"
	"      --list           list the experiments\n"
	"  -h, --help           this text\n";

struct run_plan {
	struct experiment exp;
	struct profile profile;
	struct variant_set variants;
	struct kconfig base;
	struct strlist labels;
	unsigned long seed;
	unsigned shard_k, shard_n;
	struct clock_choice clock;
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

static json_t *run_json(const struct run_plan *p)
{
	json_t *run = json_object();
	json_object_set_new(run, "run_id", json_string(p->run_id));
	json_object_set_new(run, "experiment", json_string(p->exp.name));
	json_object_set_new(run, "experiment_file", json_string(p->exp.path));
	json_object_set_new(run, "experiment_text", json_string(p->exp.text));
	json_object_set_new(run, "profile", json_string(p->profile.name));
	json_object_set_new(run, "baseline", json_string(p->exp.baseline));
	json_object_set_new(run, "trials_per_group", json_integer(p->exp.trials));
	json_object_set_new(run, "seed", json_integer((json_int_t)p->seed));
	json_object_set_new(run, "clock", json_pack("{s:s, s:s, s:s}", "name",
						    guest_clock_name(p->clock.clock), "settings",
						    guest_clock_settings(p->clock.clock), "from",
						    p->clock.from));
	json_t *groups = json_array();
	for (size_t i = 0; i < p->labels.n; i++) {
		char *name = group_variant(p->labels.items[i]);
		const struct variant *v = variant_find(&p->variants, name);
		json_array_append_new(groups, json_pack("{s:s, s:s, s:s}", "label", p->labels.items[i],
							"variant", name, "hash", v->hash));
		free(name);
	}
	json_object_set_new(run, "groups", groups);
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
	json_t *margins = json_array();
	for (size_t i = 0; i < p->exp.margins.n; i++)
		json_array_append_new(margins, json_pack("{s:s, s:s}", "metric", p->exp.margin_globs.items[i],
							 "margin", p->exp.margins.items[i]));
	json_object_set_new(run, "equivalence", margins);
	json_object_set_new(run, "created_unix", json_integer((json_int_t)time(NULL)));
	return run;
}

static bool trial_finished(const char *dir)
{
	char *path = xasprintf("%s/trial.json", dir);
	json_t *t = json_load_file(path, 0, NULL);
	free(path);
	bool done = t && json_object_get(json_object_get(t, "outcome"), "outcome");
	json_decref(t);
	return done;
}

static void load_plan_parts(struct run_plan *p, const char *profile_name, struct clock_choice option)
{
	struct strbuf err = STRBUF_INIT;
	if (profile_load(&p->profile, profile_name, &err) < 0)
		die_usage("run: %s", err.buf);
	p->clock = guest_clock_choose(
		option, (struct clock_choice){ p->exp.clock, p->exp.clock_given ? p->exp.path : NULL },
		(struct clock_choice){ p->profile.clock, p->profile.clock_given ? p->profile.path : NULL });
	if (accel_check_clock(&p->clock, &err) < 0)
		die_usage("run: %s", err.buf);
	load_base_config(&p->base);
	load_variants(&p->variants, &p->base);
	for (size_t i = 0; i < p->exp.variants.n; i++)
		if (!variant_find(&p->variants, p->exp.variants.items[i]))
			die_usage("%s: variant '%s' does not exist (see lab kernel list)", p->exp.path,
				  p->exp.variants.items[i]);
	experiment_groups(&p->exp, &p->labels);
	run_order_make(&p->labels, p->exp.trials, p->seed, &p->slots, &p->n_slots);
}

static void plan_resume(struct run_plan *p, const char *run)
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
	if (experiment_parse(&p->exp, name, path, text, &err) < 0)
		die_usage("run: %s", err.buf);
	p->exp.trials = (unsigned)json_integer_value(json_object_get(meta, "trials_per_group"));
	p->seed = (unsigned long)json_integer_value(json_object_get(meta, "seed"));
	json_t *shard = json_object_get(meta, "shard");
	p->shard_k = (unsigned)json_integer_value(json_object_get(shard, "k"));
	p->shard_n = (unsigned)json_integer_value(json_object_get(shard, "n"));
	p->run_id = xstrdup(run_id);
	load_plan_parts(p, profile, kept);
	json_decref(meta);
	free(path);
}

static void run_one(const struct run_plan *p, const struct run_slot *slot, const char *accel,
		    const struct strlist *perf_args, const char *command, const char *trial_dir,
		    struct vm_run *vm)
{
	char *variant_name = group_variant(slot->label);
	struct trial_spec spec = {
		.variant = variant_find(&p->variants, variant_name), .profile = &p->profile,
		.command = command, .dir = trial_dir, .accel = accel, .clock = p->clock,
		.watchdogs = default_watchdogs(), .use_cgroup = true, .perf_args = perf_args,
		.prepare = p->exp.prepare,
	};
	spec.watchdogs.total = p->exp.trial_timeout;
	struct strbuf err = STRBUF_INIT;
	remove_tree(trial_dir);
	if (trial_run(&spec, vm, &err) < 0)
		die("run: trial %s/%u could not start: %s", slot->label, slot->index, err.buf);
	free(variant_name);
}

static void execute(struct run_plan *p)
{
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < p->exp.variants.n; i++) {
		const struct variant *v = variant_find(&p->variants, p->exp.variants.items[i]);
		if (kernel_build(v, &p->base, &err) < 0)
			die("kernel %s: %s", v->name, err.buf);
	}
	struct strlist perf_args = STRLIST_INIT;
	if (perf_events_to_args(&p->exp.perf_events, &perf_args, &err) < 0)
		die_usage("%s: %s", p->exp.path, err.buf);
	char *command = experiment_command(&p->exp);
	const char *accel;
	if (accel_for_clock(&p->clock, variant_find(&p->variants, p->exp.baseline), &p->profile, &accel,
			    &err) < 0)
		die_usage("run: %s", err.buf);

	size_t total = 0, done = 0, ran = 0;
	for (size_t i = 0; i < p->n_slots; i++)
		total += run_slot_in_shard(i, p->shard_k, p->shard_n);
	double started = now_monotonic();
	for (size_t i = 0; i < p->n_slots; i++) {
		if (!run_slot_in_shard(i, p->shard_k, p->shard_n))
			continue;
		const struct run_slot *slot = &p->slots[i];
		char *trial_dir = xasprintf("%s/%s/%03u", p->dir, slot->label, slot->index);
		done++;
		if (trial_finished(trial_dir)) {
			free(trial_dir);
			continue;
		}
		struct vm_run vm;
		double t0 = now_monotonic();
		run_one(p, slot, accel, &perf_args, command, trial_dir, &vm);
		ran++;
		double now = now_monotonic();
		char took[32], eta[32];
		format_duration(took, sizeof(took), now - t0);
		format_duration(eta, sizeof(eta), (now - started) / (double)ran * (double)(total - done));
		note("[%zu/%zu] %s #%u: %s in %s; ETA %s", done, total, slot->label, slot->index,
		     vm_outcome_name(vm.outcome), took, eta);
		free(vm.detail);
		free(trial_dir);
	}
	free(command);
	strlist_clear(&perf_args);
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

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "experiment", required_argument, NULL, 'x' },
		{ "profile", required_argument, NULL, 'p' },
		{ "trials", required_argument, NULL, 'n' },
		{ "clock", required_argument, NULL, 'C' },
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "shard", required_argument, NULL, 'K' },
		{ "resume", required_argument, NULL, 'R' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *experiment = DEFAULT_EXPERIMENT, *profile = NULL, *out = NULL, *resume = NULL;
	unsigned long trials = 0, seed = 0;
	bool seed_given = false;
	struct clock_choice clock_option = { GUEST_CLOCK_REALTIME, NULL };
	struct run_plan p;
	memset(&p, 0, sizeof(p));
	p.shard_k = p.shard_n = 1;
	int c;
	while ((c = next_option("run", argc, argv, "x:p:n:o:h", opts)) != -1) {
		switch (c) {
		case 'x': experiment = optarg; break;
		case 'p': profile = optarg; break;
		case 'n': trials = option_ulong("run", "--trials", optarg); break;
		case 'C':
			if (guest_clock_parse(optarg, &clock_option.clock) < 0)
				die_usage("run: --clock wants realtime or icount, not '%s'", optarg);
			clock_option.from = "--clock";
			break;
		case 'o': out = optarg; break;
		case 'S': seed = option_ulong("run", "--seed", optarg); seed_given = true; break;
		case 'K':
			if (parse_shard(optarg, &p.shard_k, &p.shard_n) < 0)
				die_usage("run: --shard wants K/N with 1 <= K <= N, not '%s'", optarg);
			break;
		case 'R': resume = optarg; break;
		case 'l': {
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
			return 0;
		}
		case 'h': fputs(run_usage, stdout); return 0;
		}
	}
	if (optind < argc)
		die_usage("run: unexpected argument '%s' (see lab run --help)", argv[optind]);

	if (resume) {
		if (profile || trials || out || seed_given || p.shard_n > 1 || clock_option.from)
			die_usage("run: --resume takes no other settings: the run keeps its own");
		plan_resume(&p, resume);
	} else {
		struct strbuf err = STRBUF_INIT;
		if (experiment_load(&p.exp, experiment, &err) < 0)
			die_usage("run: %s", err.buf);
		if (trials)
			p.exp.trials = (unsigned)trials;
		const char *profile_name = profile ? profile : p.exp.profile;
		p.seed = seed_given ? seed : derived_seed(&p.exp, profile_name, p.exp.trials);
		load_plan_parts(&p, profile_name, clock_option);
		char stamp[32];
		time_t now = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
		p.run_id = p.shard_n > 1 ? xasprintf("%s-%s-shard%u-of-%u", p.exp.name, stamp, p.shard_k, p.shard_n)
					 : xasprintf("%s-%s", p.exp.name, stamp);
		p.dir = out ? xstrdup(out) : xasprintf("%s/%s", results_root(), p.run_id);
		if (mkdir_p(p.dir, 0755) < 0)
			die("run: cannot create %s: %s", p.dir, strerror(errno));
		char *path = xasprintf("%s/run.json", p.dir);
		json_t *meta = run_json(&p);
		if (json_dump_file(meta, path, JSON_INDENT(2)) < 0)
			die("run: cannot write %s", path);
		json_decref(meta);
		free(path);
	}
	note("run %s: %s on %s, clock %s, %u trial%s per variant, seed %lu%s", p.run_id, p.exp.name,
	     p.profile.name, guest_clock_name(p.clock.clock), p.exp.trials, p.exp.trials == 1 ? "" : "s",
	     p.seed, p.shard_n > 1 ? " (one shard)" : "");
	note("interrupt at any time: lab run --resume %s continues it", p.dir);
	execute(&p);

	import_into_store(p.dir);
	struct strlist runs = STRLIST_INIT, globs = STRLIST_INIT;
	strlist_push(&runs, p.dir);
	compare_runs(&runs, NULL, &globs, "text", 1, false, stdout);
	printf("\nresults: %s\n", p.dir);
	strlist_clear(&runs);
	return 0;
}
