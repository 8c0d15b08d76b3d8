/*
 * The guest's low-memory killer, modelled on Android's lmkd as its
 * documentation describes it (common/proto/lmkd-config.h has the settings,
 * lmkd-decide.h the decisions). It registers a "some" and a "full" PSI
 * trigger on /proc/pressure/memory and sleeps in poll(); on an event it
 * logs the stall it saw, decides why and down to which oom_score_adj to
 * kill, kills the victim with SIGKILL through a pidfd, releases its memory
 * with process_mrelease() and logs both to /dev/kmsg
 * (common/kernel-text/lmkd-lines.h). The agent starts it (agent-lmkd.c).
 */
#ifndef OOMLAB_LMKD_H
#define OOMLAB_LMKD_H

#include <stdint.h>

#include "common/proto/lmkd-config.h"
#include "lmkd-decide.h"

struct lmkd {
	struct lmkd_config cfg;
	int some_fd, full_fd;               /* the triggers: held open, or they go */
	int kmsg_fd;
	struct lmkd_samples some, full;     /* PSI stall totals, sampled */
	int64_t last_event_ms[2];           /* some, full */
	/* thrashing (lmkd-decide.h): refaults against the file LRU over 1 s periods */
	int64_t base_ms;
	long long refault_base, file_lru_base, prev_thrashing, thrashing_limit;
	int last_victim;                    /* pid of the last kill, skipped while it lives */
};

/* Opens the triggers and the log; -1 with WHY when the kernel refuses. */
int lmkd_setup(struct lmkd *k, const struct lmkd_config *cfg, const char **why);
/* Watches and kills until killed. */
void lmkd_loop(struct lmkd *k) __attribute__((noreturn));

/* One line (common/kernel-text/lmkd-lines.h) to /dev/kmsg, else stderr. */
void lmkd_log(const struct lmkd *k, const char *text);

/* lmkd-system.c: what the killer reads of the running system */
int64_t lmkd_now_ms(void);
/* PSI's memory stall totals (us) and avg10 (%); false when unreadable. */
struct psi;
bool lmkd_read_psi(struct psi *out);
/* SwapTotal and SwapFree (kB); false when unreadable. */
bool lmkd_read_swap(long long *total_kb, long long *free_kb);
/* workingset_refault_file and the file LRU's pages (active + inactive). */
bool lmkd_read_file_lru(long long *refaults, long long *file_lru);
/* PID's swapped-out memory (VmSwap), 0 when unknown. */
long long lmkd_read_swapped_kb(int pid);
/* Every process (up to MAX) with its adj, RSS and whether it is a kernel thread. */
size_t lmkd_read_procs(struct lmkd_proc *out, size_t max);

/* lmkd-kill.c: kills P and logs the kill and its reap; 0, or -1 when it could not be signalled. */
int lmkd_kill(struct lmkd *k, const struct lmkd_proc *p, const char *reason);

#endif
