/*
 * Before a run boots: can its design decide any row at all? From the
 * experiment alone (trials a side, or a sequential run's max_trials; the
 * headline rows: metrics x the groups that are compared, or the primary's
 * rows with gatekeeping; alpha; the looks; which rows are parametric, whose
 * p has no floor) and the tests' smallest p (stats_design_check). When no row could be better, worse or differs,
 * the reason and the smallest design that could, as one line.
 */
#ifndef LAB_DESIGN_CHECK_H
#define LAB_DESIGN_CHECK_H

#include "experiment.h"
#include "common/util.h"

/* LABELS are the run's groups (experiment_groups). Returns 1 with the line
 * in WHY when the design cannot decide any row, else 0. */
int design_check(const struct experiment *e, const struct strlist *labels, struct strbuf *why);

#endif
