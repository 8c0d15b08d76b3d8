/*
 * A run's plan: the experiment as the options made it, the machine, the
 * kernels, the groups and their shuffled order, resolved once before
 * anything is built or booted, for a new run, a --resume, a --dry-run and a
 * Slurm submission alike (run-plan.c). run-execute.c runs a plan's trials;
 * run-plan-print.c prints one for --dry-run.
 */
#ifndef LAB_RUN_PLAN_H
#define LAB_RUN_PLAN_H

#include <jansson.h>
#include <stdbool.h>

#include "lab/machine/clock.h"
#include "experiment.h"
#include "lab/machine/fault-inject.h"
#include "lab/machine/guest-files.h"
#include "lab/kernel/kconfig.h"
#include "lab/machine/profile.h"
#include "run-order.h"
#include "lab/trial/trial-plan.h"
#include "lab/kernel/variant-given.h"
#include "lab/kernel/variant.h"
#include "lab/util/command-lines.h"

struct run_plan {
	struct experiment exp;
	struct profile profile;
	struct variant_set variants;
	struct kconfig base;
	struct strlist labels;
	unsigned long seed;
	unsigned shard_k, shard_n;
	/* what the run asks of its trials' machine, and the clock it gives
	 * (trial-plan.h); each group's trial plan is resolved from it before its
	 * trials (run-execute.c) */
	struct trial_asked machine;
	struct clock_choice clock;
	struct fault_plan faults;  /* the profile's, under the experiment's, under the options' */
	struct guest_files files;  /* the experiment's `files`, on every trial's tools disk */
	/* the experiment's command lines, split once with the guest's variables:
	 * the command check, the metric check and the selftests' build read them */
	struct command_lines lines;
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

/* The run's shuffle seed when none is given: from the experiment's text, the
 * profile and the trials, so that the shards of one run agree. */
unsigned long run_plan_derived_seed(const struct experiment *e, const char *profile, unsigned trials);
/* Rounds in the order: every one, or as many as a sequential run may take. */
unsigned run_plan_rounds(const struct experiment *e);
/* What a run of E on PROFILE asks of its trials' machine, with --clock OPTION
 * (or the clock a resumed run kept; from NULL: none). */
struct trial_asked run_plan_trial_asked(const struct experiment *e, const struct profile *profile,
					struct clock_choice option);
/* The run's run.json. */
json_t *run_plan_json(const struct run_plan *p);
/* The profile, clock, kernels, files and groups of P's experiment, every
 * workload line and metric checked on the host, and the order; bad input
 * exits 2 naming the file and line. */
void run_plan_load(struct run_plan *p, const char *profile_name, struct clock_choice option);
/* -j OPTION (0: none), else the experiment's jobs, else what the host holds. */
void run_plan_choose_jobs(struct run_plan *p, unsigned option);
/* The plan of the run in folder RUN, from its run.json; JOBS the -j option (0: none). */
void run_plan_resume(struct run_plan *p, const char *run, unsigned jobs);
/* A new run's id and folder: OUT, or <results>/<id>. */
void run_plan_create_folder(struct run_plan *p, const char *out);
/* Notes how many trials run at once and, on realtime, what that costs. */
void run_plan_say_jobs(const struct run_plan *p);
/* Warns, before anything is built, when the design cannot decide any row. */
void run_plan_warn_if_undecidable(const struct run_plan *p);

/* Builds what the trials need and runs them (run-execute.c); STOPPED gets
 * why when the first round stopped the run short of its plan. */
void run_plan_execute(struct run_plan *p, struct strbuf *stopped);
/* Adds the finished run in DIR to the results store; a failure is a warning. */
void run_import_into_store(const char *dir);
/* --dry-run: the plan, checked, with a time estimate from the store (run-plan-print.c). */
void run_plan_print(const struct run_plan *p);

#endif
