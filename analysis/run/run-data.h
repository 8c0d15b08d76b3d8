/*
 * A run's trials as the analysis sees them: run.json and every trial.json
 * of one or more run folders, with the values of each metric gathered per
 * group. Shared by compare, report and export, so all three see the same
 * trials: a trial.json without metrics gets them computed from its folder
 * on loading (in memory, "metrics_derived": true; lab results --recompute
 * writes them).
 */
#ifndef LAB_RUN_DATA_H
#define LAB_RUN_DATA_H

#include <jansson.h>
#include <stdbool.h>

#include "common/util.h"

struct run_trial {
	char *label;      /* group: "stock", "stock#2" */
	unsigned index;
	char *dir;
	json_t *trial;    /* trial.json when the trial finished, else NULL */
	const char *outcome;  /* "ok", "failed", ...; or "missing", "unreadable" when it
			       * did not finish (common/trial-record.h) */
	/* The guest clock it ran on (trial.json environment.clock): "realtime"
	 * or "icount", its QEMU settings ("" for none) and what a guest second
	 * meant (NULL when not recorded). A trial.json from before the lab had
	 * clocks ran on realtime; NULL name when there is no trial.json. */
	const char *clock, *clock_settings, *clock_meaning;
	/* Trials the lab ran at once beside it (environment.trials_at_once; 1
	 * before lab run had -j). */
	unsigned trials_at_once;
	/* The platform it ran on (environment.arch and page_size): a trial.json
	 * from before platforms ran on x86_64 with 4096-byte pages; NULL arch
	 * when there is no trial.json. */
	const char *arch;
	long long page_size;
};

struct run_data {
	struct strlist dirs;      /* the run folders */
	json_t *runs;             /* array of run.json objects */
	struct strlist labels;    /* groups, in the first run's order */
	char *baseline;
	char *profile;
	char *experiment;
	struct strlist headline;  /* the experiment's headline metric globs (run.json "metrics") */
	char *primary;            /* the headline metric tested first (run.json "primary"), or NULL */
	struct strlist parametric; /* metric globs whose rows take Student's t (run.json "parametric") */
	struct run_trial *trials;
	size_t n, alloc;
	size_t derived;           /* trials whose metrics were computed on loading */
	bool quiet;               /* set before loading: no warning for trials without a record */
};

/* Resolves RUN as a folder or as a run id under the results folder. */
char *run_dir_resolve(const char *run);
/* Adds one run folder's trials (see above for those without metrics); -1 with
 * a one-line reason when it is not a run. A trial without a readable record is
 * named in a warning, unless rd->quiet. */
int run_data_add(struct run_data *rd, const char *run, struct strbuf *err);
/* Whether trial T's trial.json has the metric NAME. */
bool run_trial_has_metric(const struct run_trial *t, const char *name);
/* Every metric name any trial has, sorted; plus "trial_ok". */
void run_data_metric_names(const struct run_data *rd, struct strlist *names);
/*
 * The values of one metric for one group: ok trials that have it. n_other
 * counts the group's trials that did not end ok. For "trial_ok" every
 * trial counts, 1 for ok and 0 otherwise, but those without a record (missing
 * or unreadable), whose outcome is not known, and the off-target ones (the
 * prepare step missed its target: no result of the kernel's) are in n_other.
 * The unit is the first seen.
 */
double *run_data_values(const struct run_data *rd, const char *metric, const char *label, size_t *n,
			size_t *n_other, const char **unit);
/*
 * What the trials that have METRIC declared of its direction (trial.json
 * metrics[].better, a program's metric line's "better"): how many say
 * "higher", how many "lower", how many nothing (or a word that is neither).
 * Every trial.json counts, whatever its outcome or group: the direction is
 * the program's, not a result.
 */
struct run_declared {
	size_t higher, lower, none;
};
void run_data_declared(const struct run_data *rd, const char *metric, struct run_declared *d);
/* Keeps the trials of the first ROUNDS rounds (trial folders 000 up to
 * ROUNDS - 1), as a sequential run's look at ROUNDS saw them. */
void run_data_keep_rounds(struct run_data *rd, unsigned rounds);
void run_data_free(struct run_data *rd);

#endif
