/* binder_stats.h - binder's global statistics as lists: the object counts
 * per type and the BC_/BR_ counts (the format: common/kernel-text/binder-stats.h). */
#ifndef OOMLAB_BINDER_STATS_LIST_H
#define OOMLAB_BINDER_STATS_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "common/kernel-text/binder-stats.h"

struct binder_obj_count {
	char type[48];
	unsigned long long active, total;
};

struct binder_cmd_count {
	char name[48];          /* BC_... or BR_... */
	unsigned long long count;
};

struct binder_stats {
	struct binder_obj_count *objs;
	size_t n_objs, alloc_objs;
	struct binder_cmd_count *cmds;
	size_t n_cmds, alloc_cmds;
};

/* -1 when the text has no "binder stats:" header, else the number of object types. */
int binder_stats_parse(const char *text, struct binder_stats *out);
void binder_stats_clear(struct binder_stats *s);
const struct binder_obj_count *binder_stats_obj(const struct binder_stats *s, const char *type);
bool binder_stats_cmd(const struct binder_stats *s, const char *name, unsigned long long *count);

#endif
