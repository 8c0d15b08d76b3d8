/*
 * A run on Slurm (lab run --slurm; docs/CLUSTER.md). Its trials are cut
 * into shards whose run folders the submitting lab makes at once (the whole
 * design fixed before any job starts), in the run's Slurm folder <run>.slurm/
 * beside where the merged run will be:
 *
 *   <run>.slurm/slurm.json      the run's Slurm settings and every submission's job ids
 *   <run>.slurm/build.sh, shards.sh, merge.sh   the batch scripts (slurm-script.h)
 *   <run>.slurm/shard-K/        shard K's run folder (lab run --shard K/N's)
 *   <run>.slurm/logs/, status/  the jobs' output and how each ended
 *
 * A submission is a build job, the job array of the shards that lack trials
 * (after the build), and the merge (after the array): --resume submits again
 * only what is missing. A sequential run (--until-decided) goes in rounds:
 * the array runs the shards' trials of the first R rounds (R = the first
 * look at first), then a decision job merges the shards into a look folder,
 * judges it as lab run would after round R, and submits the array of round
 * R + 1 with the next decision, or the merge once decided or at max_trials.
 */
#ifndef LAB_SLURM_RUN_H
#define LAB_SLURM_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/util.h"

struct slurm_run {
	char *run_id;
	char *run_dir;      /* the merged run's folder */
	char *slurm_dir;    /* <run_dir>.slurm */
	char *cache;        /* the kernel cache the nodes share */
	char *lab;          /* the lab binary the nodes run */
	char *results;      /* the results root the jobs use */
	char *clock;        /* the run's clock name */
	struct strlist sbatch;
	unsigned shards;
	unsigned jobs;      /* -j of each shard; 0: the CPUs Slurm gives the task */
	unsigned max_trials;  /* a sequential run's max_trials; 0: a fixed design */
	unsigned first_look;  /* a sequential run's first look (its first round of jobs) */
	json_t *meta;       /* slurm.json */
};

#define SLURM_JSON "slurm.json"

/* RUN_DIR's Slurm folder (malloc'd). */
char *slurm_dir_for(const char *run_dir);
/* Writes the Slurm folder's scripts and slurm.json for R (its shard folders
 * are the caller's); 0 or -1 with the reason in ERR. */
int slurm_run_write(struct slurm_run *r, struct strbuf *err);
/* Submits the build job (BUILD), the array of the shards that lack trials of
 * the first ROUNDS rounds (0: of all), and after it the merge, or with a
 * sequential design the decision after round ROUNDS; records the job ids in
 * slurm.json. 0 or -1 with the reason in ERR. */
int slurm_run_submit(struct slurm_run *r, unsigned rounds, bool build, struct strbuf *err);
/* The decision job of a sequential run: looks after the last submission's
 * round and submits the next round or the merge. 0 or -1 with the reason. */
int slurm_run_decide(struct slurm_run *r, struct strbuf *err);
/* The Slurm run RUN names (its merged folder, that folder's Slurm folder, or
 * a run id under the results root): 1 and R filled, 0 when RUN is none, -1
 * with the reason in ERR when its slurm.json is unreadable. */
int slurm_run_find(const char *run, struct slurm_run *r, struct strbuf *err);
/* lab run --resume on a Slurm run: cancels the jobs that can never start
 * (their dependency failed), refuses while one of its jobs is queued or
 * running, and submits again what is missing. 0 or -1 with the reason. */
int slurm_run_resume(struct slurm_run *r, struct strbuf *err);
/* lab results on a Slurm run: the jobs' states, each shard's trials
 * finished, a failed job with its id and log; the nodes' CPUs. */
void slurm_run_progress(struct slurm_run *r, FILE *out);
/* Trials of the first ROUNDS rounds (0: all) shard K (1-based) has finished,
 * of how many; -1 when its run.json is unreadable. */
int slurm_shard_trials(const struct slurm_run *r, unsigned k, unsigned rounds, size_t *finished,
		       size_t *total);
void slurm_run_clear(struct slurm_run *r);

/* lab run --slurm's options. */
struct slurm_submit_options {
	bool on;
	unsigned long shards;
	const char *cache;
	struct strlist sbatch;
	unsigned long jobs;
};

struct run_plan;
/* lab run --slurm: P's shards' run folders made here (the design fixed
 * before any job starts, in OUT's Slurm folder, or the results root's),
 * the scripts beside them, the jobs submitted; exits on an error. 0. */
int slurm_run_submit_plan(struct run_plan *p, const char *out, struct slurm_submit_options *o);
/* lab run --resume RUN on a Slurm run (LOOK: --slurm-look): 0 once done, -1
 * when RUN is no Slurm run; JOBS, the -j option, is refused for one. */
int slurm_run_resume_named(const char *run, unsigned jobs, bool look);

#endif
