/* snapshot.c - "key value" and PSI snapshot parsers (snapshot.h). */
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

size_t kv_parse(const char *text, struct kv_list *out)
{
	size_t added = 0;
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char key[128];
		long long v;
		char extra;
		char *copy = xstrndup(line, len);
		if (sscanf(copy, "%127s %lld %c", key, &v, &extra) == 2) {
			if (out->n == out->alloc) {
				out->alloc = out->alloc ? 2 * out->alloc : 64;
				out->items = xrealloc(out->items, out->alloc * sizeof(*out->items));
			}
			out->items[out->n++] = (struct kv){ xstrdup(key), v };
			added++;
		}
		free(copy);
		line = nl ? nl + 1 : NULL;
	}
	return added;
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

bool psi_parse(const char *text, struct psi *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		char kind[8];
		double a10, a60, a300;
		unsigned long long total;
		char *copy = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
		if (sscanf(copy, "%7s avg10=%lf avg60=%lf avg300=%lf total=%llu", kind, &a10, &a60,
			   &a300, &total) == 5) {
			if (!strcmp(kind, "some")) {
				out->have_some = true;
				out->some_avg10 = a10;
				out->some_avg60 = a60;
				out->some_avg300 = a300;
				out->some_total_us = total;
			} else if (!strcmp(kind, "full")) {
				out->have_full = true;
				out->full_avg10 = a10;
				out->full_avg60 = a60;
				out->full_avg300 = a300;
				out->full_total_us = total;
			}
		}
		free(copy);
		line = nl ? nl + 1 : NULL;
	}
	return out->have_some || out->have_full;
}
