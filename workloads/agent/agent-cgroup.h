/* The workload cgroup (agent-cgroup.c), under AGENT_CGROUP_MOUNT (agent-setup.h). */
#ifndef OOMLAB_AGENT_CGROUP_H
#define OOMLAB_AGENT_CGROUP_H

#include "agent-job.h"

/* The workload cgroup's name under AGENT_CGROUP_MOUNT (agent-cgroup.c). */
#define WORKLOAD_CGROUP "workload"
int workload_cgroup_create(const struct job *job);
int workload_cgroup_enter(void);

#endif
