/* A plan's trials, run: the kernels, selftests and guest images first, then
 * the trials in a pool of workers, the first-round check and the looks
 * (run-plan.h). */
#include "run-plan.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/store/store.h"
#include "common/run-command.h"
#include "common/trial-record.h"
#include "first-round.h"
#include "lab/machine/guest-image.h"
#include "lab/kernel/kbuild.h"
#include "lab/trial/perf-events.h"
#include "run-look.h"
#include "lab/machine/selftest-build.h"
#include "trial-pool.h"
#include "lab/trial/trial-plan.h"
#include "lab/trial/trial-restores.h"
#include "lab/trial/trial.h"

/* One trial, in a worker process of its own (trial-pool.h): the worker
 * boots it and writes its trial.json; an error that keeps it from running
 * is said by the worker and is its exit status. */
struct trial_work {
	const struct run_plan *p;
	const struct run_slot *slot;
	const struct trial_plan *plan;   /* its group's */
	const struct strlist *perf_args;
	const char *command;
	char *dir;
	struct child_process worker;
	double started;
};

/* A run's trials as the pool runs them: the workers in flight, the progress
 * line, the first-round check and the looks. */
struct execution {
	struct run_plan *p;
	struct strbuf *stopped;
	struct trial_plan *plans;  /* one per group, labels' order */
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

static const struct guest_files *group_files(const struct run_plan *p, const char *label)
{
	for (size_t i = 0; p->group_files && i < p->labels.n; i++)
		if (!strcmp(p->labels.items[i], label))
			return &p->group_files[i];
	return &p->files;
}

/* The trial plan of each group (trial-plan.h), here, once, before any worker
 * starts, so that every trial of a group boots the same machine and what the
 * plan measures is measured once. The baseline's first: the accelerator's
 * probe, on a host that needs one, boots the baseline. */
static void resolve_group_plan(const struct run_plan *p, size_t group, struct trial_plan *plan)
{
	struct strbuf err = STRBUF_INIT;
	char *name = group_variant(p->labels.items[group]);
	if (trial_plan_resolve(plan, &p->machine, variant_find(&p->variants, name), &err) < 0)
		die_usage("run: %s", err.buf);
	free(name);
	strbuf_release(&err);
}

static struct trial_plan *resolve_plans(const struct run_plan *p)
{
	struct trial_plan *plans = xcalloc(p->labels.n ? p->labels.n : 1, sizeof(*plans));
	size_t base = 0;
	while (base < p->labels.n && strcmp(p->labels.items[base], p->exp.baseline))
		base++;
	if (base < p->labels.n)
		resolve_group_plan(p, base, &plans[base]);
	for (size_t i = 0; i < p->labels.n; i++)
		if (i != base)
			resolve_group_plan(p, i, &plans[i]);
	return plans;
}

static void clear_plans(const struct run_plan *p, struct trial_plan *plans)
{
	for (size_t i = 0; i < p->labels.n; i++)
		trial_plan_clear(&plans[i]);
	free(plans);
}

/* The selftests the workload lines run, built from each group variant's tree,
 * joined to the run's files per group; a test a tree lacks is the
 * experiment's mistake (exit 2), before any boot. */
static void build_selftests(struct run_plan *p)
{
	struct selftest_list tests;
	struct strbuf err = STRBUF_INIT;
	selftests_named(&p->lines, &tests);
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
	struct trial_spec spec = {
		.plan = w->plan, .command = w->command, .dir = w->dir,
		.watchdogs = default_watchdogs(), .use_cgroup = true, .perf_args = w->perf_args,
		.prepare = p->exp.prepare,
		.has_target = p->exp.has_target, .target_order = p->exp.target_order,
		.target_max_free_blocks = p->exp.target_max_free_blocks,
		.faults = &p->faults,
		.trials_at_once = p->jobs,
		.files = group_files(p, w->slot->label),
		.scratch_disk = p->group_files != NULL,
	};
	spec.watchdogs.total = p->exp.trial_timeout;
	struct strbuf err = STRBUF_INIT;
	struct vm_run vm;
	remove_tree(w->dir);
	int rc;
	if (p->exp.restores) {
		/* seeds of their own for every restore of the run: the slot's block of 1000 */
		size_t slot = (size_t)(w->slot - p->slots);
		struct trial_restores how = { .n = p->exp.restores,
					      .seed = (unsigned long long)p->seed * 1000003ULL +
						      (unsigned long long)(slot + 1) * 1000ULL };
		memset(&vm, 0, sizeof(vm));
		rc = trial_run_restores(&spec, &how, &err);
	} else {
		rc = trial_run(&spec, &vm, &err);
	}
	if (rc < 0)
		error("run: trial %s/%u: %s", w->slot->label, w->slot->index, err.buf);
	free(vm.detail);
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

static char *slot_dir(const struct run_plan *p, size_t i)
{
	return xasprintf("%s/%s/%03u", p->dir, p->slots[i].label, p->slots[i].index);
}

static const struct trial_plan *group_plan(const struct execution *x, const char *label)
{
	size_t i = 0;
	while (strcmp(x->p->labels.items[i], label))
		i++;
	return &x->plans[i];
}

static int start_trial(void *ctx, size_t i)
{
	struct execution *x = ctx;
	struct trial_work *w = &x->work[i];
	*w = (struct trial_work){ .p = x->p, .slot = &x->p->slots[i],
				  .plan = group_plan(x, x->p->slots[i].label), .perf_args = &x->perf_args,
				  .command = x->command, .dir = slot_dir(x->p, i), .started = now_monotonic() };
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
	if (round == run_plan_rounds(&p->exp))
		note("round %u: %zu of %zu %s decided at max_trials", round, decided, rows, waited_for(p));
	return true;
}

static unsigned long long mem_now(void *ctx)
{
	(void)ctx;
	return host_mem_available();
}

/* Runs the plan's trials; STOPPED gets why when the run stopped short of its plan. */
void run_plan_execute(struct run_plan *p, struct strbuf *stopped)
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
	x.plans = resolve_plans(p);
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
		clear_plans(p, x.plans);
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
	clear_plans(p, x.plans);
	free(x.command);
	strlist_clear(&x.perf_args);
}

/* The results store gets every finished run; a store that fails is a warning, not a lost run. */
void run_import_into_store(const char *dir)
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
