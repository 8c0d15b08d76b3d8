/* snapshot.h - the "key value" snapshots in files/before|after/ (vmstat,
 * cgroup-memory.events, cgroup-memory.stat; docs/FORMATS.md) as a list, so
 * that a before and an after can be matched key by key. The line format is
 * common/kernel-text/kv.h's; PSI snapshots are common/kernel-text/psi.h's.
 */
#ifndef OOMLAB_SNAPSHOT_H
#define OOMLAB_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/kernel-text/kv.h"
#include "common/kernel-text/psi.h"

struct kv {
	char *key;
	long long value;
};

struct kv_list {
	struct kv *items;
	size_t n, alloc;
};

/* Adds the pairs of TEXT; returns how many. */
size_t kv_parse(const char *text, struct kv_list *out);
bool kv_get(const struct kv_list *l, const char *key, long long *value);
void kv_clear(struct kv_list *l);

#endif
