/*
 * Experiments (configs/experiments/<name>.conf): which variants, on which
 * profile, with which preparation, workloads, perf events, how many trials
 * and how long each may take, on which guest clock. `key = value` lines;
 * `workload` may repeat (the workloads run one after another in each
 * boot). Unknown keys and bad values are errors naming the file and line.
 */
#ifndef LAB_EXPERIMENT_H
#define LAB_EXPERIMENT_H

#include <stddef.h>

#include <jansson.h>

#include "common/util.h"
#include "experiment-keys.h"
#include "experiment-type.h"

int experiment_parse(struct experiment *e, const char *name, const char *file, const char *text,
		     struct strbuf *err);
/* The same, with relative `files` folders resolved from BASE rather than
 * FILE's folder (lab run --resume: FILE is run.json, BASE the folder of the
 * experiment file the run started from). */
int experiment_parse_at(struct experiment *e, const char *name, const char *file, const char *base,
			const char *text, struct strbuf *err);
int experiment_load(struct experiment *e, const char *name, struct strbuf *err);
void experiment_names(struct strlist *names);
/* The group labels: the variants, their debug companions "<variant>+debug"
 * with debug = yes, then "<baseline>#2" with A/A. */
void experiment_groups(const struct experiment *e, struct strlist *labels);
/* The variant a group label stands for ("stock#2" -> "stock", "stock+debug"
 * -> "stock+debug": a debug companion is a variant of its own), malloc'd. */
char *group_variant(const char *label);
/* The shell script the guest runs: every workload, each one's failure remembered. */
char *experiment_command(const struct experiment *e);
void experiment_clear(struct experiment *e);
/* How many headline metric globs (or, with a primary, whether the primary)
 * a `parametric` glob takes as text: their rows have no floor on p
 * (design-check). */
size_t experiment_parametric_metrics(const struct experiment *e);
/* `parametric` as run.json's "parametric": an array of the globs. */
json_t *experiment_parametric_json(const struct experiment *e);

#endif
