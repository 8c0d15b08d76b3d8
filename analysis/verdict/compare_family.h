/* compare_family.h - the one comparison engine: which metrics of a run are
 * compared, and the table over them.
 *
 * `lab run` (its closing table), `lab compare` and `lab report` all call
 * compare_family_build(), so the same run and the same options give the
 * same rows, the same Holm family and the same verdicts everywhere.
 *
 * The family: the experiment's headline metrics (run.json "metrics") by
 * default; with GLOBS (--metric) the metrics matching them; with ALL every
 * metric. Holm's correction runs over the rows shown, and nothing else.
 * Outside --all, metrics that took one value in every trial of every group
 * are left out (nothing to compare), except trial_ok. Margins come from
 * run.json "equivalence" (the experiment's `equivalence` keys), the
 * sequential design from run.json "sequential", the primary metric of
 * serial gatekeeping from run.json "primary" (compare.h), whenever the
 * family holds that metric; the metrics whose rows take their p from
 * Student's t from run.json "parametric" (globs), in every family.
 *
 * Every group must have run on one guest clock (trial.json
 * environment.clock; a trial from before clocks ran on realtime): times on
 * an instruction-count clock and on the host's clock are not the same
 * unit, so a family over groups of different clocks is refused. The
 * table's clock says which one they all ran on.
 */
#ifndef OOMLAB_COMPARE_FAMILY_H
#define OOMLAB_COMPARE_FAMILY_H

#include "analysis/compare/compare.h"
#include "analysis/run/run-data.h"

struct compare_family_spec {
	const char *baseline;		/* NULL: the run's */
	const struct strlist *globs;	/* NULL or empty: the headline metrics */
	bool all;
	unsigned long seed;		/* sampled permutations */
};

struct compare_family {
	struct compare_table table;
	bool headline;		/* the family is the experiment's headline metrics */
	size_t hidden;		/* constant metrics left out */
};

/* What compare_family_build() returns when the groups ran on different
 * clocks (ERR names each group's clock). */
#define COMPARE_FAMILY_MIXED_CLOCKS (-2)

/* Returns 0; COMPARE_FAMILY_MIXED_CLOCKS; or -1 with a one-line reason in
 * ERR (no such baseline, no metric matches, a margin in run.json that does
 * not parse). */
int compare_family_build(const struct run_data *rd, const struct compare_family_spec *spec,
			 struct compare_family *family, struct strbuf *err);
void compare_family_free(struct compare_family *family);

/* The margin run.json gives METRIC: the first "equivalence" entry whose
 * glob matches, else the options' default (*MARGIN untouched). -1 with ERR
 * when the entry does not parse. */
int compare_family_margin(const struct run_data *rd, const char *metric,
			  struct compare_margin *margin, struct strbuf *err);

#endif
