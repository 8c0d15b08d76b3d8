/*
 * What the agent's killer child runs, by kind (common/proto/killer-kinds.h):
 * the one place the guest ties a kind to its code. Each function takes the
 * kind's settings (one a key of its row, as the job gave them) and the
 * workload cgroup's path, watches and kills until killed, and returns only
 * when it cannot start, with why. test-killer-kinds holds this table to
 * every userspace row.
 */
#ifndef OOMLAB_KILLER_RUN_H
#define OOMLAB_KILLER_RUN_H

#include "common/proto/killer-kinds.h"

typedef const char *(*killer_run_fn)(const long *settings, const char *cgroup);

/* KIND's function, or NULL (the kernel's: nothing to run). */
killer_run_fn killer_run(enum killer_kind kind);

#endif
