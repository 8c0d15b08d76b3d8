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

#include <stdbool.h>
#include <stdint.h>

#include "common/kernel-text/lmkd-lines.h"
#include "common/proto/lmkd-config.h"
#include "lmkd-adj-book.h"
#include "lmkd-policy.h"
#include "lmkd-psi.h"
#include "lmkd-victim.h"

struct lmkd {
	struct lmkd_config cfg;
	struct lmkd_tunables tun;
	struct lmkd_memory mem;             /* what lmkd remembers between cycles */
	int some_fd, full_fd;               /* the triggers: held open, or they go */
	int kmsg_fd;
	struct lmkd_samples some, full;     /* PSI stall totals, sampled for the event lines */
	int64_t last_event_ms[2];           /* some, full */
	int64_t last_sample_ms;
	struct lmkd_adj_book book;          /* since when each process has held its adj */
	int victim_pidfd;                   /* the last kill's, until its death or the timeout; -1 */
	int last_victim;                    /* never chosen again (lmkd drops its record) */
	long page_kb;
};

/* A process as the killer reads it from /proc. */
struct lmkd_proc {
	int pid;
	char comm[16];
	int adj;                            /* oom_score_adj */
	long long rss_kb;
	bool kernel_thread;
};

/* Opens the triggers and the log; -1 with WHY when the kernel refuses. */
int lmkd_setup(struct lmkd *k, const struct lmkd_config *cfg, const char **why);
/* Watches and kills until killed. */
void lmkd_loop(struct lmkd *k) __attribute__((noreturn));
/* The killer with SETTINGS (one a key of lmkd-config.h): lmkd_setup() and
 * lmkd_loop(); returns only when it cannot start, with why. It watches the
 * whole machine, so CGROUP is unused (workloads/killers/killer-run.h). */
const char *lmkd_run(const long *settings, const char *cgroup);

/* One line (common/kernel-text/lmkd-lines.h) to /dev/kmsg, else stderr. */
void lmkd_log(const struct lmkd *k, const char *text);

/* lmkd-system.c: what the killer reads of the running system */
int64_t lmkd_now_ms(void);
/* PSI's memory stall totals (us) and avg10 (%); false when unreadable. */
struct psi;
bool lmkd_read_psi(struct psi *out);
/* /proc/meminfo and /proc/vmstat into S (lmkd-procfs.h, pages of PAGE_KB);
 * false, with a line on stderr, when either cannot be read. */
bool lmkd_read_figures(struct lmkd_sample *s, long page_kb);
/* The zone watermarks from /proc/zoneinfo (an lmkd_zone_reader's read). */
int lmkd_read_watermarks(void *ctx, struct lmkd_watermarks *out);
/* PID's swapped-out memory (VmSwap), 0 when unknown. */
long long lmkd_read_swapped_kb(int pid);
/* Every process (up to MAX) with its adj, RSS and whether it is a kernel thread. */
size_t lmkd_read_procs(struct lmkd_proc *out, size_t max);
/* Every process's pid and oom_score_adj (up to MAX): the cheap scan for the adj book. */
size_t lmkd_read_adjs(int *pids, int *adjs, size_t max);

/* lmkd-kill.c: kills P and logs the kill, with WHY's reason and what the
 * decision saw (its reason and have_mem fields; the rest is filled here),
 * and its reap; the victim's pidfd (the caller waits on it for the death),
 * or -1 when it could not be signalled. */
int lmkd_kill(struct lmkd *k, const struct lmkd_proc *p, const struct lmkd_kill_line *why);

#endif
