/* Since when each process has held its adj (lmkd-adj-book.h). */
#include "lmkd-adj-book.h"

#include <stdlib.h>
#include <string.h>

static int by_pid(const void *a, const void *b)
{
	int pa = ((const struct lmkd_adj_entry *)a)->pid, pb = ((const struct lmkd_adj_entry *)b)->pid;
	return (pa > pb) - (pa < pb);
}

static const struct lmkd_adj_entry *find(const struct lmkd_adj_book *b, int pid)
{
	struct lmkd_adj_entry key = { .pid = pid };
	return bsearch(&key, b->e, b->n, sizeof(b->e[0]), by_pid);
}

void lmkd_adj_book_scan(struct lmkd_adj_book *b, const int *pids, const int *adjs, size_t n, int64_t now_ms)
{
	/* static: the killer runs with its memory locked and a small stack */
	static struct lmkd_adj_entry next[LMKD_BOOK_MAX];
	size_t m = 0;
	for (size_t i = 0; i < n && m < LMKD_BOOK_MAX; i++) {
		const struct lmkd_adj_entry *old = find(b, pids[i]);
		next[m++] = (struct lmkd_adj_entry){ .pid = pids[i], .adj = adjs[i],
						     .since_ms = old && old->adj == adjs[i] ? old->since_ms : now_ms };
	}
	qsort(next, m, sizeof(next[0]), by_pid);
	memcpy(b->e, next, m * sizeof(next[0]));
	b->n = m;
}

int64_t lmkd_adj_book_since(const struct lmkd_adj_book *b, int pid, int adj, int64_t default_ms)
{
	const struct lmkd_adj_entry *e = find(b, pid);
	return e && e->adj == adj ? e->since_ms : default_ms;
}
