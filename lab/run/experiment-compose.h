/*
 * Experiments written by the lab rather than by hand: an experiment file's
 * text with some keys replaced (lab run -x E --variant/-w, lab bisect's
 * design), or a whole one from lab run's options alone. The text is what
 * the run keeps (run.json's experiment_text), so --resume reads it as it
 * reads any experiment.
 */
#ifndef LAB_EXPERIMENT_COMPOSE_H
#define LAB_EXPERIMENT_COMPOSE_H

#include "common/util.h"

/* What lab run's options ask of an experiment; an empty list leaves the key as it is. */
struct experiment_asked {
	struct strlist variants;   /* names, the baseline among them */
	const char *baseline;      /* NULL: not given */
	struct strlist workloads;  /* -w lines */
	struct strlist files;      /* --files folders, absolute */
};

/* The most trials a variant of the experiment lab run writes from its options alone. */
#define GIVEN_MAX_TRIALS 12
/* Its profile when -p names none. */
#define GIVEN_PROFILE "tiny-256m"
/* Its name (the run id's start). */
#define GIVEN_EXPERIMENT "given"

/* TEXT without the lines that set one of KEYS (NULL-terminated; `key = ...`). */
char *experiment_text_without(const char *text, const char *const *keys);
/* TEXT with what ASKED gives in place of the keys it replaces (malloc'd). */
char *experiment_text_asked(const char *text, const struct experiment_asked *asked);
/*
 * The experiment of lab run's options alone: ASKED's variants against its
 * baseline on PROFILE, until decided at most GIVEN_MAX_TRIALS a variant,
 * the workload lines' own metrics (W.*: status, signal, OOM kills, memory
 * peak, wall time and the program's JSON metrics) and the trial's OOM
 * kills as the headline (malloc'd).
 */
char *experiment_text_given(const struct experiment_asked *asked, const char *profile);

#endif
