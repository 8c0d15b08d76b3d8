/* snapshot.h - the guest's before/after snapshots in files/before|after/
 * (docs/FORMATS.md) that are flat lists of numbers:
 *
 *   vmstat, cgroup-memory.events, cgroup-memory.stat   "key value" per line
 *   pressure-memory, cgroup-memory.pressure            PSI:
 *       some avg10=0.00 avg60=0.00 avg300=0.00 total=12345
 *       full avg10=0.00 avg60=0.00 avg300=0.00 total=6789     (total in us)
 */
#ifndef OOMLAB_SNAPSHOT_H
#define OOMLAB_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

struct kv {
	char *key;
	long long value;
};

struct kv_list {
	struct kv *items;
	size_t n, alloc;
};

/* Parses "key value" lines; other lines are skipped.  Returns the number of pairs. */
size_t kv_parse(const char *text, struct kv_list *out);
bool kv_get(const struct kv_list *l, const char *key, long long *value);
void kv_clear(struct kv_list *l);

struct psi {
	bool have_some, have_full;
	double some_avg10, some_avg60, some_avg300;
	double full_avg10, full_avg60, full_avg300;
	unsigned long long some_total_us, full_total_us;
};

/* false when neither a "some" nor a "full" line is there. */
bool psi_parse(const char *text, struct psi *out);

#endif
