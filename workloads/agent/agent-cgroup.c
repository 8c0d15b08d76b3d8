/* The workload cgroup, created and limited through libcgroup. */
#include <fcntl.h>
#include <libcgroup.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-cgroup.h"
#include "agent-log.h"
#include "agent-setup.h"

static struct cgroup *workload;

static void enable_memory_controller(void)
{
	/* cgroup v2 hands a controller to children only once the parent delegates it. */
	int fd = open(AGENT_CGROUP_MOUNT "/cgroup.subtree_control", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "+memory +pids", 13) < 0)
		agent_log("cannot enable the memory controller for child cgroups");
	if (fd >= 0)
		close(fd);
}

int workload_cgroup_create(const struct job *job)
{
	enable_memory_controller();
	int rc = cgroup_init();
	if (rc) {
		agent_log("libcgroup: cgroup_init: %s", cgroup_strerror(rc));
		return -1;
	}
	workload = cgroup_new_cgroup(WORKLOAD_CGROUP);
	struct cgroup_controller *memory = workload ? cgroup_add_controller(workload, "memory") : NULL;
	if (!memory) {
		agent_log("libcgroup: cannot describe the workload cgroup");
		return -1;
	}
	const struct {
		const char *file, *value;
	} limits[] = {
		{ "memory.max", job->set.memory_max },
		{ "memory.high", job->set.memory_high },
		{ "memory.swap.max", job->set.memory_swap_max },
		{ "memory.oom.group", job->set.memory_oom_group },
	};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		const char *value = limits[i].value;
		if (value && (rc = cgroup_add_value_string(memory, limits[i].file, value))) {
			agent_log("libcgroup: %s=%s: %s", limits[i].file, value, cgroup_strerror(rc));
			return -1;
		}
	}
	rc = cgroup_create_cgroup(workload, 0);
	if (rc) {
		agent_log("libcgroup: creating %s: %s", WORKLOAD_CGROUP, cgroup_strerror(rc));
		return -1;
	}
	return 0;
}

int workload_cgroup_enter(void)
{
	if (!workload)
		return -1;
	int rc = cgroup_attach_task(workload);
	if (rc) {
		agent_log("libcgroup: entering %s: %s", WORKLOAD_CGROUP, cgroup_strerror(rc));
		return -1;
	}
	return 0;
}
