/*
 * slabinfo.h - /proc/slabinfo, version 2.1, read by the guest's workloads
 * (one cache) and by the lab's metrics (every cache):
 *
 *   # name <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>
 *          : tunables <limit> <batchcount> <sharedfactor>
 *          : slabdata <active_slabs> <num_slabs> <sharedavail>
 *
 * Memory used by a cache is num_slabs * pagesperslab pages; its efficiency
 * is active_objs * objsize over that (1.0 when every byte of its slabs
 * holds a live object; internal fragmentation and empty slabs lower it).
 */
#ifndef OOMLAB_SLABINFO_H
#define OOMLAB_SLABINFO_H

#include <stdbool.h>
#include <stddef.h>

struct slab_cache {
	char name[64];
	unsigned long long active_objs, num_objs, objsize, objs_per_slab, pages_per_slab;
	unsigned long long active_slabs, num_slabs;
};

/* Parses one cache line of LEN bytes (no newline); false for anything else. */
bool slabinfo_parse_line(const char *line, size_t len, struct slab_cache *out);
typedef void (*slab_cache_fn)(const struct slab_cache *c, void *ctx);
/* Calls FN (may be NULL) for every cache of TEXT; -1 when TEXT is not
 * slabinfo 2.x, else the number of caches. */
int slabinfo_each(const char *text, slab_cache_fn fn, void *ctx);
/* The cache NAME of TEXT: 0, or -1 when TEXT is not slabinfo 2.x or has no such cache. */
int slabinfo_find(const char *text, const char *name, struct slab_cache *out);
/* num_slabs * pages_per_slab * PAGE_BYTES: slabinfo counts in the kernel's
 * pages (4096 on x86_64, 16384 on arm64 with 16 KiB pages). */
unsigned long long slab_cache_bytes(const struct slab_cache *c, unsigned long long page_bytes);
/* active_objs * objsize / slab_cache_bytes(); 0 for a cache with no slabs. */
double slab_cache_efficiency(const struct slab_cache *c, unsigned long long page_bytes);

#endif
