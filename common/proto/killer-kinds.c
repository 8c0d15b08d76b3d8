/* The kinds of killer, one row each (killer-kinds.h). */
#include "killer-kinds.h"

#include <string.h>

#include "lmkd-config.h"
#include "oomd-config.h"

_Static_assert(LMKD_KEY_COUNT <= KILLER_KEYS_MAX, "lmkd has more keys than KILLER_KEYS_MAX");
_Static_assert(OOMD_KEY_COUNT <= KILLER_KEYS_MAX, "oomd has more keys than KILLER_KEYS_MAX");

const struct killer_kind_def killer_kinds[KILLER_KIND_COUNT] = {
	[KILLER_KIND_KERNEL] = {
		.name = "kernel",
		.meaning = "the kernel's OOM killer alone (global and memcg), no userspace killer",
		.doc = "docs/GUEST.md",
	},
	[KILLER_KIND_LMKD] = {
		.name = "lmkd",
		.meaning = "Android's lmkd as the lab writes it: PSI triggers wake it, it kills an "
			   "app by oom_score_adj for one of lmkd's reasons, the kernel's killer last",
		.started = "a child of the agent (workloads/lmkd/, oom_score_adj -1000, memory "
			   "locked, SCHED_FIFO), from just before the command to just after it",
		.comm = LMKD_COMM,
		.kmsg_prefix = "lmkd: ",
		.metric_prefix = "lmkd",
		.key_prefix = "lmkd.",
		.doc = "docs/FIDELITY-LMKD.md",
		.keys = lmkd_keys,
		.n_keys = LMKD_KEY_COUNT,
	},
	[KILLER_KIND_OOMD] = {
		.name = "oomd",
		.meaning = "systemd-oomd's memory-pressure rule: when the workload cgroup's PSI full "
			   "avg10 stays above a limit for a duration, it kills every process of one "
			   "child cgroup (the most reclaimed), the kernel's killer last",
		.started = "a child of the agent (workloads/killers/oomd/, oom_score_adj -1000, memory "
			   "locked, SCHED_FIFO), polling once a second from just before the command "
			   "to just after it",
		.comm = OOMD_COMM,
		.kmsg_prefix = "oomd: ",
		.metric_prefix = "oomd",
		.key_prefix = "oomd.",
		.doc = "docs/FIDELITY-OOMD.md",
		.keys = oomd_keys,
		.n_keys = OOMD_KEY_COUNT,
	},
};

int killer_kind_of_name(const char *name)
{
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		if (!strcmp(killer_kinds[k].name, name))
			return k;
	return -1;
}

int killer_key_of_name(const char *name, int *key)
{
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		for (size_t i = 0; i < killer_kinds[k].n_keys; i++)
			if (!strcmp(killer_kinds[k].keys[i].name, name)) {
				*key = (int)i;
				return k;
			}
	return -1;
}
