/* What the killer reads of the running system (lmkd-system.c). */
#ifndef OOMLAB_LMKD_SYSTEM_H
#define OOMLAB_LMKD_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lmkd-policy.h"
#include "lmkd-procfs.h"

/* A process as the killer reads it from /proc. */
struct lmkd_proc {
	int pid;
	char comm[16];
	int adj;                            /* oom_score_adj */
	long long rss_kb;
	bool kernel_thread;
};

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

#endif
