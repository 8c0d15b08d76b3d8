/*
 * The lab's systemd-oomd (killer = oomd, common/proto/killer-kinds.h): it
 * watches the workload cgroup as systemd-oomd watches a unit with
 * ManagedOOMMemoryPressure=kill, by oomd-rule.h's rule, polling once a
 * second; a kill writes 1 to the victim cgroup's cgroup.kill and one line
 * to /dev/kmsg (common/kernel-text/oomd-lines.h). The agent runs it
 * (workloads/killers/killer-run.h).
 */
#ifndef OOMLAB_OOMD_H
#define OOMLAB_OOMD_H

/* Watches CGROUP (a path under the cgroup mount) with SETTINGS (one a key
 * of oomd-config.h) until killed; returns only when it cannot start, with
 * why. */
const char *oomd_run(const long *settings, const char *cgroup);

#endif
