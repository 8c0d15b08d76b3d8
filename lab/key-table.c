/* Tables of keys: lookup, listing, the nearest names (key-table.h). */
#include "key-table.h"

#include <stdlib.h>
#include <string.h>

#include "glob.h"

static bool has_member(const struct key_def *row, const char *key)
{
	struct key_info m;
	for (size_t i = 0; row->member(i, &m); i++)
		if (!strcmp(m.name, key))
			return true;
	return false;
}

const struct key_def *key_table_find(const struct key_table *t, const char *key)
{
	for (size_t r = 0; r < t->n; r++) {
		const struct key_def *row = &t->rows[r];
		if (row->member ? has_member(row, key)
		    : row->prefix ? !strncmp(key, row->prefix, strlen(row->prefix))
				  : !strcmp(key, row->info.name))
			return row;
	}
	return NULL;
}

struct key_info *key_table_list(const struct key_table *t, size_t *n)
{
	size_t alloc = t->n + 8;
	struct key_info *out = xmalloc(alloc * sizeof(*out));
	*n = 0;
	for (size_t r = 0; r < t->n; r++) {
		const struct key_def *row = &t->rows[r];
		struct key_info m;
		for (size_t i = 0; row->member ? row->member(i, &m) : i == 0; i++) {
			if (*n == alloc)
				out = xrealloc(out, (alloc *= 2) * sizeof(*out));
			out[(*n)++] = row->member ? m : row->info;
		}
	}
	return out;
}

size_t key_table_suggest(struct strbuf *sb, const struct key_table *t, const char *typed, size_t max)
{
	size_t n;
	struct key_info *keys = key_table_list(t, &n);
	const char **names = xmalloc((n ? n : 1) * sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = keys[i].name;
	size_t found = glob_suggest(sb, names, n, typed, max);
	free(names);
	free(keys);
	return found;
}
