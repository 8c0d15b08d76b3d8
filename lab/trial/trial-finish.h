/*
 * Finishing a trial: the one way a trial folder's raw channels become its
 * record, for `lab run` and `lab boot` (at the end of each boot) and for
 * `lab results --recompute` (again, from the same inputs):
 *
 *   1. files.bin is split into files/ (a record cut short is kept as
 *      NAME.partial);
 *   2. perf.data, when anything was recorded, is decoded into perf.script;
 *   3. the metrics, victims, lost events and partial flag are computed from
 *      the folder (analysis/metrics/trial_metrics.h);
 *   4. record.json is written: the record given (environment, outcome),
 *      then trial.json: the same with those keys set.
 *
 * The same inputs give the same trial.json, byte for byte. Problems with one
 * input (a cut files.bin, a perf.data perf cannot decode) are warnings: the
 * rest of the trial is still finished.
 */
#ifndef LAB_TRIAL_FINISH_H
#define LAB_TRIAL_FINISH_H

#include <jansson.h>

#include "common/trial-record.h"
#include "common/util.h"

#define TRIAL_RECORD       TRIAL_RECORD_FILE
/* The record as given (trial.json without what step 3 computes), kept beside
 * the channels, so that an unreadable trial.json can be finished again. */
#define TRIAL_RECORD_GIVEN "record.json"

/* Finishes the trial folder DIR into DIR/trial.json (and DIR/record.json,
 * written first); RECORD is not stolen. Returns 0, or -1 with ERR when DIR is
 * no folder or a record cannot be written. */
int trial_finish(const char *dir, json_t *record, struct strbuf *err);
/* Step 1 alone: 0, -1 (ERR) when files.bin is cut or garbled (the records
 * before stay split), or TRIAL_SPLIT_EWRITE (ERR) when a file cannot be
 * written (a full disk): then the trial is not finished. */
#define TRIAL_SPLIT_EWRITE (-2)
int trial_split_files(const char *dir, struct strbuf *err);

#endif
