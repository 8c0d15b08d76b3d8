/* Snapshots of the guest's memory state, sent as files to the host. */
#include <stdio.h>

#include "agent.h"

static const char *const snapshot_files[][2] = {
	{ "meminfo", "/proc/meminfo" },
	{ "buddyinfo", "/proc/buddyinfo" },
	{ "pagetypeinfo", "/proc/pagetypeinfo" },
	{ "vmstat", "/proc/vmstat" },
	{ "zoneinfo", "/proc/zoneinfo" },
	{ "slabinfo", "/proc/slabinfo" },
	{ "pressure-memory", "/proc/pressure/memory" },
	{ "extfrag_index", "/sys/kernel/debug/extfrag/extfrag_index" },
	{ "unusable_index", "/sys/kernel/debug/extfrag/unusable_index" },
	{ "cgroup-memory.events", "/sys/fs/cgroup/workload/memory.events" },
	{ "cgroup-memory.stat", "/sys/fs/cgroup/workload/memory.stat" },
	{ "cgroup-memory.pressure", "/sys/fs/cgroup/workload/memory.pressure" },
	{ "cgroup-memory.max", "/sys/fs/cgroup/workload/memory.max" },
	{ "binder-stats", "/dev/binderfs/binder_logs/stats" },
	{ "swaps", "/proc/swaps" },
	{ "node-count", "/sys/devices/system/node/possible" },
};

void send_snapshots(const char *when)
{
	for (size_t i = 0; i < sizeof(snapshot_files) / sizeof(snapshot_files[0]); i++) {
		char name[128];
		snprintf(name, sizeof(name), "%s/%s", when, snapshot_files[i][0]);
		send_file(name, snapshot_files[i][1]);
	}
}
