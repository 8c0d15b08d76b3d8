/*
 * Whom Android's lmkd kills (lmkd.cpp find_and_kill_process(),
 * proc_adj_tail(), proc_get_heaviest(); docs/FIDELITY-LMKD.md 3.2-3.4), on
 * data alone. lmkd keeps one list per oom_score_adj, each registration or
 * adj change putting the process at the head; it walks adj from 1000 down
 * to the decision's lowest adj and in each list takes the tail: the
 * process that has held that adj longest. From PERCEPTIBLE_APP_ADJ (200)
 * down, or everywhere with kill_heaviest_task, it takes the heaviest of the
 * list by resident pages (statm) instead: a list of one without reading
 * it; otherwise the first met from the head (the newest) with the most
 * pages, none when none has a page.
 */
#ifndef OOMLAB_LMKD_VICTIM_H
#define OOMLAB_LMKD_VICTIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lmkd_candidate {
	int pid;
	int adj;                        /* oom_score_adj as registered */
	int64_t adj_since_ms;           /* when it was filed at that adj */
	long long rss_pages;            /* statm's resident; < 0: unreadable */
	bool gone;                      /* a kill was tried and failed: skip it */
};

#define LMKD_OOM_SCORE_ADJ_MAX 1000

/* The adj lmkd files a process registered at ADJ under: with per-app
 * memcgs, 600-699 (the launcher) at 200 (lmkd.cpp register_oom_adj_proc());
 * /proc/PID/oom_score_adj keeps ADJ, which the kernel's killer reads. */
int lmkd_filed_adj(int adj, bool per_app_memcg);

/* The victim's index in C (N of them) at MIN_ADJ or above, or -1. Within one
 * adj, the same adj_since_ms is broken by the order in C (the earlier is the
 * older). */
int lmkd_pick_victim(const struct lmkd_candidate *c, size_t n, int min_adj, bool kill_heaviest_task);

#endif
