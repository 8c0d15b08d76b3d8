/*
 * The experiment lab run runs, from -x and the options that ask a question
 * without a file (--variant, --baseline, -w, --files):
 *   - none of them: the experiment -x names (default quick), as written;
 *   - with -x: that experiment with the variants, baseline and workload
 *     lines the options give in place of its own (its files kept, --files added);
 *   - without -x: an experiment of the options alone
 *     (experiment_text_given): --variant against the baseline, each -w line
 *     run in turn, until decided.
 * The baseline is --baseline, else the experiment's, else stock; it is
 * compared whether or not a --variant names it.
 */
#ifndef LAB_RUN_ASKED_H
#define LAB_RUN_ASKED_H

#include "experiment.h"
#include "lab/kernel/variant-given.h"

#define DEFAULT_EXPERIMENT "quick"
#define DEFAULT_BASELINE "stock"

struct run_asked {
	struct strlist variant_args;  /* --variant, as given */
	const char *baseline;         /* --baseline, or NULL */
	struct strlist workloads;     /* -w */
	struct strlist files;         /* --files, as given */
};

/*
 * Loads into E the experiment EXPERIMENT (NULL: -x not given) and ASKED
 * make, on PROFILE (-p, or NULL); GIVEN gets the staged --variant folders.
 * -1 with one line in ERR on bad input, before anything is built.
 */
int run_asked_experiment(struct experiment *e, const char *experiment, const struct run_asked *asked,
			 const char *profile, struct given_variants *given, struct strbuf *err);

#endif
