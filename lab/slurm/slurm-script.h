/*
 * The batch scripts of a Slurm run (docs/CLUSTER.md), written into the
 * run's Slurm folder: one builds what the shards need into the shared cache,
 * one is the job array of the shards (task K resumes shard K; with
 * $OOMLAB_SLURM_ROUNDS set, only the trials of that many first rounds), one
 * is a sequential run's decision after a round (it looks at the merged
 * shards and submits the next round or the merge), one merges them and
 * writes the comparison and the report. Each script records how it
 * ended (its exit status, node and CPU) in <slurm>/status/<job id>, for
 * lab results on a cluster that keeps no accounting.
 */
#ifndef LAB_SLURM_SCRIPT_H
#define LAB_SLURM_SCRIPT_H

#include "common/util.h"

struct slurm_script_spec {
	const char *lab;             /* the lab binary the nodes run (absolute) */
	const char *run_id;
	const char *run_dir;         /* where the merged run goes */
	const char *slurm_dir;       /* scripts, logs, status, shard-K/ */
	const char *cache;           /* the kernel cache the nodes share */
	const char *results;         /* the results root (the store is there) */
	const struct strlist *sbatch;  /* the user's sbatch options, one a line */
	unsigned shards;
	unsigned jobs;               /* -j of every shard; 0: the CPUs Slurm gave the task */
};

enum slurm_script { SLURM_SCRIPT_BUILD, SLURM_SCRIPT_SHARDS, SLURM_SCRIPT_DECIDE, SLURM_SCRIPT_MERGE };

/* The script's file name in the Slurm folder ("build.sh"). */
const char *slurm_script_name(enum slurm_script which);
/* Its text (malloc'd). */
char *slurm_script_text(const struct slurm_script_spec *spec, enum slurm_script which);
/* The log of job ID ("123" or "123_4") of the script (malloc'd path). */
char *slurm_script_log(const struct slurm_script_spec *spec, enum slurm_script which, const char *id);
/* 0, or -1 when PATH cannot go into a script line (#SBATCH lines take no
 * quoting): a blank, a quote, a backslash or a '%'. */
int slurm_script_path_ok(const char *path);

#endif
