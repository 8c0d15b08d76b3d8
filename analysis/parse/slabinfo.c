/* slabinfo.c - /proc/slabinfo parser (slabinfo.h). */
#include "slabinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

int slabinfo_parse(const char *text, struct slabinfo *out)
{
	if (!starts_with(text, "slabinfo - version: 2."))
		return -1;
	int found = 0;
	for (const char *line = strchr(text, '\n'); line && *line;) {
		line++;
		const char *nl = strchr(line, '\n');
		char *copy = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
		struct slab_cache c;
		unsigned long long limit, batch, shared, avail;
		memset(&c, 0, sizeof(c));
		if (copy[0] != '#' &&
		    sscanf(copy,
			   "%63s %llu %llu %llu %llu %llu : tunables %llu %llu %llu : slabdata %llu %llu %llu",
			   c.name, &c.active_objs, &c.num_objs, &c.objsize, &c.objs_per_slab,
			   &c.pages_per_slab, &limit, &batch, &shared, &c.active_slabs, &c.num_slabs,
			   &avail) == 12) {
			if (out->n == out->alloc) {
				out->alloc = out->alloc ? 2 * out->alloc : 128;
				out->caches = xrealloc(out->caches, out->alloc * sizeof(*out->caches));
			}
			out->caches[out->n++] = c;
			found++;
		}
		free(copy);
		line = nl;
	}
	return found;
}

void slabinfo_clear(struct slabinfo *s)
{
	free(s->caches);
	memset(s, 0, sizeof(*s));
}

const struct slab_cache *slabinfo_find(const struct slabinfo *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->caches[i].name, name))
			return &s->caches[i];
	return NULL;
}

unsigned long long slab_cache_bytes(const struct slab_cache *c)
{
	return c->num_slabs * c->pages_per_slab * SLAB_PAGE_SIZE;
}

double slab_cache_efficiency(const struct slab_cache *c)
{
	unsigned long long bytes = slab_cache_bytes(c);
	return bytes ? (double)(c->active_objs * c->objsize) / (double)bytes : 0.0;
}
