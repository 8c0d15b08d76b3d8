/* Every cache of a slabinfo snapshot (slabinfo.h). */
#include "slabinfo.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static void add_cache(const struct slab_cache *c, void *ctx)
{
	struct slabinfo *out = ctx;
	ALLOC_GROW(out->caches, out->n + 1, out->alloc);
	out->caches[out->n++] = *c;
}

int slabinfo_parse(const char *text, struct slabinfo *out)
{
	return slabinfo_each(text, add_cache, out);
}

void slabinfo_clear(struct slabinfo *s)
{
	free(s->caches);
	memset(s, 0, sizeof(*s));
}

const struct slab_cache *slabinfo_cache(const struct slabinfo *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->caches[i].name, name))
			return &s->caches[i];
	return NULL;
}
