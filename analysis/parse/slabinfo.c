/* Every cache of a slabinfo snapshot (slabinfo.h). */
#include "slabinfo.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static void add_cache(const struct slab_cache *c, void *ctx)
{
	struct slabinfo *out = ctx;
	if (out->n == out->alloc) {
		out->alloc = out->alloc ? 2 * out->alloc : 128;
		out->caches = xrealloc(out->caches, out->alloc * sizeof(*out->caches));
	}
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
