/* The job's userspace killer (killer = NAME), if any (agent-killer.c). */
#ifndef OOMLAB_AGENT_KILLER_H
#define OOMLAB_AGENT_KILLER_H

#include "agent-job.h"

void killer_start(const struct job *job);
void killer_stop(void);

#endif
