/* slabinfo.h - /proc/slabinfo, version 2.1:
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

#define SLAB_PAGE_SIZE 4096ull

struct slab_cache {
	char name[64];
	unsigned long long active_objs, num_objs, objsize, objs_per_slab, pages_per_slab;
	unsigned long long active_slabs, num_slabs;
};

struct slabinfo {
	struct slab_cache *caches;
	size_t n, alloc;
};

/* Parses the text; -1 when it is not slabinfo 2.x, else the number of caches. */
int slabinfo_parse(const char *text, struct slabinfo *out);
void slabinfo_clear(struct slabinfo *s);
const struct slab_cache *slabinfo_find(const struct slabinfo *s, const char *name);
/* num_slabs * pages_per_slab * 4096 */
unsigned long long slab_cache_bytes(const struct slab_cache *c);
/* active_objs * objsize / slab_cache_bytes(); 0 for a cache with no slabs. */
double slab_cache_efficiency(const struct slab_cache *c);

#endif
