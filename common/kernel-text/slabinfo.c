/* /proc/slabinfo (slabinfo.h). */
#include "slabinfo.h"

#include <stdio.h>
#include <string.h>

#define SLABINFO_HEADER "slabinfo - version: 2."

bool slabinfo_parse_line(const char *line, size_t len, struct slab_cache *out)
{
	char copy[512];
	if (!len || len >= sizeof(copy) || line[0] == '#')
		return false;
	memcpy(copy, line, len);
	copy[len] = '\0';
	struct slab_cache c;
	unsigned long long limit, batch, shared, avail;
	memset(&c, 0, sizeof(c));
	if (sscanf(copy, "%63s %llu %llu %llu %llu %llu : tunables %llu %llu %llu : slabdata %llu %llu %llu",
		   c.name, &c.active_objs, &c.num_objs, &c.objsize, &c.objs_per_slab, &c.pages_per_slab,
		   &limit, &batch, &shared, &c.active_slabs, &c.num_slabs, &avail) != 12)
		return false;
	*out = c;
	return true;
}

int slabinfo_each(const char *text, slab_cache_fn fn, void *ctx)
{
	if (strncmp(text, SLABINFO_HEADER, strlen(SLABINFO_HEADER)))
		return -1;
	int found = 0;
	for (const char *line = strchr(text, '\n'); line && *line;) {
		line++;
		const char *nl = strchr(line, '\n');
		struct slab_cache c;
		if (slabinfo_parse_line(line, nl ? (size_t)(nl - line) : strlen(line), &c)) {
			found++;
			if (fn)
				fn(&c, ctx);
		}
		line = nl;
	}
	return found;
}

struct finding {
	const char *name;
	struct slab_cache *out;
	bool found;
};

static void match(const struct slab_cache *c, void *ctx)
{
	struct finding *f = ctx;
	if (!f->found && !strcmp(c->name, f->name)) {
		*f->out = *c;
		f->found = true;
	}
}

int slabinfo_find(const char *text, const char *name, struct slab_cache *out)
{
	struct finding f = { name, out, false };
	return slabinfo_each(text, match, &f) >= 0 && f.found ? 0 : -1;
}

unsigned long long slab_cache_bytes(const struct slab_cache *c, unsigned long long page_bytes)
{
	return c->num_slabs * c->pages_per_slab * page_bytes;
}

double slab_cache_efficiency(const struct slab_cache *c, unsigned long long page_bytes)
{
	unsigned long long bytes = slab_cache_bytes(c, page_bytes);
	return bytes ? (double)(c->active_objs * c->objsize) / (double)bytes : 0.0;
}
