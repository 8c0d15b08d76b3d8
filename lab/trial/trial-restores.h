/*
 * A trial of restores (an experiment's `restores = R`; docs/CLOCKS.md): one
 * boot saved at the agent's ready (DIR/boot) and R trials restored from it
 * (DIR/restore-1 ...), each a whole trial folder, and DIR/trial.json the
 * boot's record as a trial: the boot is the unit of the comparison
 * (docs/STATISTICS.md, "Restores are not boots"), its figures the means of
 * its restores'.
 */
#ifndef LAB_TRIAL_RESTORES_H
#define LAB_TRIAL_RESTORES_H

#include "trial.h"

/* The most restores a boot: an experiment's restores, lab boot --restores. */
#define MAX_RESTORES 100

struct trial_restores {
	unsigned n;                 /* restores */
	unsigned long long seed;    /* restore I's is SEED + I - 1 ... */
	bool same_seed;             /* ... or SEED for every one */
	/* Called after the boot (I = 0) and each restore, with its spec and
	 * VM (the detail freed after); NULL: none. */
	void (*each)(void *ctx, unsigned i, const struct trial_spec *spec, const struct vm_run *vm);
	void *ctx;
};

/* Runs SPEC (its dir the trial's folder) as one boot saved and HOW->n
 * restores, then writes DIR/trial.json (trial_restores_merge), or, when
 * the boot was not saved, the boot's record with its outcome and no
 * metrics. The saved VM is removed at the end. -1 (err) when a boot could
 * not start. */
int trial_run_restores(const struct trial_spec *spec, const struct trial_restores *how, struct strbuf *err);

/* DIR/trial.json from DIR/restore-1 ... DIR/restore-N's: the first
 * restore's environment, its "restore" replaced by the boot's ({"boot":
 * "boot", "restores": N, "seeds": [...]}); the outcome of the first restore
 * that did not end ok, else the first's, with the whole wall time (the
 * boot's BOOT_SECONDS and every restore's); each metric the mean of the
 * restores that have it; the other arrays (victims, kernel complaints, the
 * killer's kills) joined, each element marked with its "restore"; partial
 * when any was; lost_events summed. 0, or -1 with the reason in ERR. */
int trial_restores_merge(const char *dir, unsigned n, double boot_seconds, struct strbuf *err);

/* lab results --recompute of DIR when it is a boot of restores (its
 * trial.json's environment.restore.restores): each restore finished again
 * from its record (trial-finish.h), then merged again. 1 when it was one
 * and all went well, 0 when DIR is no boot of restores, -1 with the reason. */
int trial_restores_refinish(const char *dir, struct strbuf *err);

#endif
