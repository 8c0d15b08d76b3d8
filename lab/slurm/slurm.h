/*
 * Slurm's client programs as the lab uses them: sbatch submits a batch
 * script, squeue says what is queued or running, sacct what ended (when the
 * cluster keeps accounting), scancel cancels. Every call goes through
 * common/run-command.c; an answer the lab cannot read is an error with the
 * program's first line, never a guess.
 */
#ifndef LAB_SLURM_H
#define LAB_SLURM_H

#include <stddef.h>

#include "common/util.h"

/* One job or array task as Slurm reports it: "123" or "123_4". */
struct slurm_job_state {
	char *id;
	char *state;      /* PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED... */
	char *reason;     /* squeue's reason (Dependency, DependencyNeverSatisfied...), or NULL */
	char *node;       /* the node it runs or ran on, or NULL */
	int exit_code;    /* sacct's, -1 when unknown */
};

struct slurm_states {
	struct slurm_job_state *jobs;
	size_t n, alloc;
	bool have_sacct;  /* sacct answered (a cluster without accounting: false) */
};

/* sbatch --parsable SCRIPT with EXTRA options before it (NULL-terminated, may
 * be NULL); the new job's id in *ID. 0, or -1 with sbatch's first line in ERR. */
int slurm_submit(const char *script, const char *const *extra, char **id, struct strbuf *err);
/* What squeue and sacct say of the jobs IDS (plain job ids; array tasks come
 * back one each). 0, or -1 when squeue itself fails (no Slurm here). */
int slurm_states_load(const struct strlist *ids, struct slurm_states *out, struct strbuf *err);
/* The state of ID ("123" or "123_4"), or NULL when Slurm no longer knows it. */
const struct slurm_job_state *slurm_state_find(const struct slurm_states *s, const char *id);
void slurm_states_clear(struct slurm_states *s);
/* scancel ID; 0 or -1 with the reason in ERR. */
int slurm_cancel(const char *id, struct strbuf *err);

/* Parsers of the programs' answers (for the tests): one squeue line
 * "ID|STATE|REASON|NODE" or one sacct line "ID|STATE|EXIT:SIGNAL|NODE". */
int slurm_parse_squeue_line(const char *line, struct slurm_job_state *out);
int slurm_parse_sacct_line(const char *line, struct slurm_job_state *out);
/* Whether STATE is one a job is still in (queued, running, held, ending). */
bool slurm_state_live(const char *state);

#endif
