/*
 * Merging the shards of one run (lab run --shard K/N on N machines) into a
 * single run folder: the trial folders are linked in, run.json is combined
 * after checking that the shards really are parts of the same run: one
 * design (experiment text, profile, seed, trials, metrics, margins, the
 * sequential design, fault injection, the guests' files), one clock, one
 * platform, the same kernel per group, one shard count, no trial twice.
 */
#ifndef LAB_RUN_MERGE_H
#define LAB_RUN_MERGE_H

#include "common/util.h"

/* Writes the merged run to out_dir; -1 with a one-line reason. */
int run_merge(const struct strlist *shards, const char *out_dir, struct strbuf *err);

#endif
