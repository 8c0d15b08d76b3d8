/*
 * Run ids: <experiment>-<YYYYmmdd-HHMMSS>-<6 hex digits>[-shardK-of-N]. The
 * time says when; the random part makes two runs started in the same second
 * (here or on another machine) two runs, in the results folder and in the
 * store, which keys runs by id (docs/FORMATS.md).
 */
#ifndef LAB_RUN_ID_H
#define LAB_RUN_ID_H

#include <time.h>

/* A new id (malloc'd) for a run of EXPERIMENT started at WHEN; shard K of N
 * when N > 1. */
char *run_id_new(const char *experiment, time_t when, unsigned shard_k, unsigned shard_n);

#endif
