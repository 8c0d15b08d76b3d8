/* "key value" snapshots as lists (snapshot.h). */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static void add_pair(const struct kv_pair *pair, void *ctx)
{
	struct kv_list *out = ctx;
	ALLOC_GROW(out->items, out->n + 1, out->alloc);
	out->items[out->n++] = (struct kv){ xstrdup(pair->key), pair->value };
}

size_t kv_parse(const char *text, struct kv_list *out)
{
	return kv_each(text, add_pair, out);
}

bool kv_get(const struct kv_list *l, const char *key, long long *value)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].key, key)) {
			*value = l->items[i].value;
			return true;
		}
	return false;
}

void kv_clear(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i].key);
	free(l->items);
	memset(l, 0, sizeof(*l));
}
