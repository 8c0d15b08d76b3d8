/* A kill as lmkd makes one (lmkd-kill.c). */
#ifndef OOMLAB_LMKD_KILL_H
#define OOMLAB_LMKD_KILL_H

#include "common/kernel-text/lmkd-lines.h"
#include "lmkd-state.h"
#include "lmkd-system.h"

/* Kills P and logs the kill, with WHY's reason and what the
 * decision saw (its reason and have_mem fields; the rest is filled here),
 * and its reap; the victim's pidfd (the caller waits on it for the death),
 * or -1 when it could not be signalled. */
int lmkd_kill(struct lmkd *k, const struct lmkd_proc *p, const struct lmkd_kill_line *why);

#endif
