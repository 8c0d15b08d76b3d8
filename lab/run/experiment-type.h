/* An experiment as its file says it (experiment.h): the struct its key
 * table (experiment-keys.c) sets and experiment.c checks, loads and
 * writes, with the limits of its fields, apart so that the table need not
 * include experiment.h, whose experiment.c uses the table. */
#ifndef LAB_EXPERIMENT_TYPE_H
#define LAB_EXPERIMENT_TYPE_H

#include <stdbool.h>

#include "lab/machine/clock.h"
#include "lab/machine/fault-inject.h"
#include "lab/kernel/platform.h"
#include "common/util.h"

struct experiment {
	char *name;
	char *path;
	char *text;               /* the file as loaded, kept with every run */
	char *description;
	struct strlist variants;  /* in the order given */
	char *baseline;           /* default: the first variant */
	bool aa;                  /* also run the baseline as a second group, "<baseline>#2" */
	bool debug;               /* every variant also on its debug build, "<variant>+debug" */
	char *profile;
	unsigned trials;          /* per group */
	/* Trials until decided: rounds until every headline metric is better,
	 * worse, differs or equivalent, at most max_trials a group (trials is
	 * then unused). */
	bool until_decided;
	unsigned max_trials;      /* 0: not given (DEFAULT_MAX_TRIALS then) */
	double trial_timeout;     /* seconds for one boot, all included */
	/* restores = R: each trial is one boot saved at the agent's ready and R
	 * trials restored from it, its figures their means (lab/trial/trial-restores.h);
	 * 0: every trial boots */
	unsigned restores;
	/* Trials at once (lab run -j wins); 0: as many as the host holds. Not
	 * part of the design: the order and the trials are the same for any N. */
	unsigned jobs;
	char *prepare;            /* NULL: none */
	/* The prepare step's target (target_order = K, target_max_free_blocks =
	 * N): at most N free blocks of order >= K when the workload starts, else
	 * the trial is "off-target". */
	bool has_target;
	int target_order;
	long target_max_free_blocks;
	int prepare_line;         /* its line in the file */
	struct strlist workloads; /* command lines */
	int *workload_lines;      /* each one's line in the file */
	struct strlist perf_events;
	struct strlist metrics;   /* headline metric globs: the default of the comparison */
	int metrics_line;
	/* primary = METRIC: the headline metric tested first (serial gatekeeping,
	 * docs/STATISTICS.md); one of metrics (a name a glob there matches). NULL: none. */
	char *primary;
	int primary_line;
	/* parametric = GLOB...: rows of the metrics these match take their p
	 * from Student's t with the Welch df, not the permutation test
	 * (docs/STATISTICS.md, "Parametric rows"). Each glob must match one of
	 * `metrics` as text, or be matched by one (fnmatch either way round),
	 * and may not name a share (an events or outcome metric). */
	struct strlist parametric;
	int parametric_line;
	/* Equivalence margins as written ("2%", "0.5", "10pp"): per metric glob
	 * (`equivalence.GLOB = M`, in file order), then the default
	 * (`equivalence = M`, glob "*") when given. */
	struct strlist margin_globs, margins;
	int *margin_lines;        /* each one's line in the file */
	/* arch = x86_64 | arm64, page_size = 4k | 16k | 64k (platform.h); default x86_64/4k.
	 * A page size the arch does not have is an error naming the line. */
	struct platform platform;
	int platform_line;        /* the line of the last of them, 0: neither given */
	/* fail_page_alloc = ..., failslab = ... (fault-inject.h); win over the profile's */
	struct fault_plan faults;
	enum guest_clock clock;   /* clock.h; wins over the profile's */
	bool clock_given;         /* the file says clock = */
	/* files = DIR (may repeat): folders brought into the guest (guest-files.h),
	 * absolute, a relative one resolved from the experiment file's folder;
	 * each one's line in the file */
	struct strlist files;
	int *files_lines;
	char *files_base;         /* the folder relative ones were resolved from */
};

#define DEFAULT_MAX_TRIALS 20
/* The most trials lab run runs at once (-j, jobs =). */
#define MAX_JOBS 64
/* The first look of a sequential run (compare_options.min_trials). */
#define SEQUENTIAL_FIRST_LOOK 3

#endif
