/*
 * binder-stats.h - binder's global statistics (binderfs binder_logs/stats,
 * or debugfs binder/stats), the part before the first per-process block,
 * read by the guest's binder workloads and by the lab's metrics:
 *
 *   binder stats:
 *   BC_TRANSACTION: 12            (commands received, BC_*, and returns sent, BR_*)
 *   proc: active 2 total 5        (objects alive now, and ever created, per type:
 *   thread: active 3 total 9       proc thread node ref death transaction
 *   ...                            transaction_complete freeze)
 *   proc 123                      (per-process blocks follow; not read)
 */
#ifndef OOMLAB_BINDER_STATS_H
#define OOMLAB_BINDER_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct binder_stats_line {
	bool object;                    /* an object count; else a BC_/BR_ count */
	char name[48];                  /* "proc", "thread", ...; or "BC_TRANSACTION" */
	unsigned long long active, total;       /* objects */
	unsigned long long count;               /* commands and returns */
};

typedef void (*binder_stats_fn)(const struct binder_stats_line *line, void *ctx);
/* Calls FN for every count of the global section of TEXT; -1 when TEXT has
 * no "binder stats:" header, else the number of object lines. */
int binder_stats_each(const char *text, binder_stats_fn fn, void *ctx);

#endif
