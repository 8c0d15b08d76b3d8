/* The prepare step, which shapes the machine before the workload (agent-prepare.c). */
#ifndef OOMLAB_AGENT_PREPARE_H
#define OOMLAB_AGENT_PREPARE_H

#include <stdbool.h>
#include <sys/types.h>

#include "agent-job.h"

/* 0 ready, 1 nothing to prepare, -1 failed */
int prepare_start(const struct job *job);
void prepare_pump(void);
void prepare_stop(void);
/* The orphan reaper's hook: true when PID was the prepare step (its status is kept). */
bool prepare_reaped(pid_t pid, int status);
/* Says CTL_PREPARE_LOST when the prepare step is gone while the workload still ran. */
void prepare_report_lost(void);

#endif
