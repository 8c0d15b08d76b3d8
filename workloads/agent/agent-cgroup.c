/* The workload cgroup, created and limited through libcgroup. */
#include <fcntl.h>
#include <libcgroup.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

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
	static const char *const limits[][2] = {
		{ "memory.max", "cgroup.memory.max" },
		{ "memory.high", "cgroup.memory.high" },
		{ "memory.swap.max", "cgroup.memory.swap.max" },
		{ "memory.oom.group", "cgroup.memory.oom.group" },
	};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		const char *value = job_get(job, limits[i][1], NULL);
		if (value && (rc = cgroup_add_value_string(memory, limits[i][0], value))) {
			agent_log("libcgroup: %s=%s: %s", limits[i][0], value, cgroup_strerror(rc));
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
