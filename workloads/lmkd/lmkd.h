/*
 * The guest's low-memory killer, deciding as Android's lmkd does
 * (lmkd-policy.h: its decision cycle and polling; lmkd-victim.h: whom;
 * docs/FIDELITY-LMKD.md section 10). It registers a "some" and a "full" PSI
 * trigger on /proc/pressure/memory (common/proto/lmkd-config.h has the
 * settings); an event wakes it and starts a second of polls, and each event
 * and poll reads /proc/meminfo, /proc/vmstat and (when due) /proc/zoneinfo
 * (lmkd-procfs.h) and decides. A kill is a SIGKILL through a pidfd and
 * process_mrelease(), both logged to /dev/kmsg
 * (common/kernel-text/lmkd-lines.h); the next decision waits for the
 * victim's death on that pidfd, or for kill_timeout_ms. The agent starts
 * it (agent-killer.c, through workloads/killers/killer-run.h).
 */
#ifndef OOMLAB_LMKD_H
#define OOMLAB_LMKD_H

#include "common/proto/lmkd-config.h"
#include "lmkd-state.h"

/* Opens the triggers and the log; -1 with WHY when the kernel refuses. */
int lmkd_setup(struct lmkd *k, const struct lmkd_config *cfg, const char **why);
/* Watches and kills until killed. */
void lmkd_loop(struct lmkd *k) __attribute__((noreturn));
/* The killer with SETTINGS (one a key of lmkd-config.h): lmkd_setup() and
 * lmkd_loop(); returns only when it cannot start, with why. It watches the
 * whole machine, so CGROUP is unused (workloads/killers/killer-run.h). */
const char *lmkd_run(const long *settings, const char *cgroup);

#endif
