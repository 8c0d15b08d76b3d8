/*
 * Since when each process has held its oom_score_adj, as lmkd knows it
 * from ActivityManager's registrations (each adj change re-files the
 * process at the head of its adj's list; lmkd-victim.h takes the tail).
 * The lab's apps write their adj themselves, so the killer learns it by
 * scanning /proc: a process is filed at the time of the first scan that saw
 * it at that adj, so the time is as fine as the scans are frequent.
 */
#ifndef OOMLAB_LMKD_ADJ_BOOK_H
#define OOMLAB_LMKD_ADJ_BOOK_H

#include <stddef.h>
#include <stdint.h>

#define LMKD_BOOK_MAX 2048

struct lmkd_adj_entry {
	int pid;
	int adj;
	int64_t since_ms;
};

struct lmkd_adj_book {
	struct lmkd_adj_entry e[LMKD_BOOK_MAX];     /* sorted by pid */
	size_t n;
};

/* One scan's N processes (PIDS and their ADJS) at NOW_MS: a pid at the same
 * adj keeps its time, a new pid or a changed adj takes NOW_MS, a pid the
 * scan did not see is dropped. Past LMKD_BOOK_MAX the rest are not filed. */
void lmkd_adj_book_scan(struct lmkd_adj_book *b, const int *pids, const int *adjs, size_t n, int64_t now_ms);
/* When PID took ADJ, or DEFAULT_MS when the book does not have it at ADJ. */
int64_t lmkd_adj_book_since(const struct lmkd_adj_book *b, int pid, int adj, int64_t default_ms);

#endif
