/*
 * One look of a sequential run (--until-decided): the headline family of a
 * run folder as lab compare judges it, with the run's own sequential design,
 * and whether the rows the run waits for (the primary's, or every row) are
 * decided. lab run looks after each round; a Slurm run's decision job looks
 * at its merged shards after each of its rounds.
 */
#ifndef LAB_RUN_LOOK_H
#define LAB_RUN_LOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"

/* 1 when decided, 0 when not (DECIDED of ROWS in both), -1 with the reason in ERR. */
int run_look(const char *run_dir, size_t *decided, size_t *rows, struct strbuf *err);

#endif
