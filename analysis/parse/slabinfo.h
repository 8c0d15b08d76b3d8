/* slabinfo.h - every cache of a /proc/slabinfo snapshot, as a list (the
 * format and one cache's figures: common/kernel-text/slabinfo.h). */
#ifndef OOMLAB_SLABINFO_LIST_H
#define OOMLAB_SLABINFO_LIST_H

#include <stddef.h>

#include "common/kernel-text/slabinfo.h"

struct slabinfo {
	struct slab_cache *caches;
	size_t n, alloc;
};

/* Parses the text; -1 when it is not slabinfo 2.x, else the number of caches. */
int slabinfo_parse(const char *text, struct slabinfo *out);
void slabinfo_clear(struct slabinfo *s);
const struct slab_cache *slabinfo_cache(const struct slabinfo *s, const char *name);

#endif
