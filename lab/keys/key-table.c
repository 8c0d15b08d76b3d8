/* Tables of keys: lookup, listing, the nearest names (key-table.h). */
#include "key-table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/glob.h"

static bool has_member(const struct key_def *row, const char *key)
{
	struct key_info m;
	for (size_t i = 0; row->member(i, &m); i++)
		if (!strcmp(m.name, key))
			return true;
	return false;
}

/* ROW's values as "A to B": its bounds, false for any other form. */
static bool row_bounds(const struct key_def *row, double *lo, double *hi)
{
	int end = 0;
	return !row->member && row->info.range &&
	       sscanf(row->info.range, "%lf to %lf%n", lo, hi, &end) == 2 && !row->info.range[end];
}

const char *key_table_set(const struct key_def *row, void *ctx, const char *key, const char *value,
			  int line, struct strbuf *scratch)
{
	double lo, hi, v;
	if (row_bounds(row, &lo, &hi) && (!parse_double(value, &v) || v < lo || v > hi)) {
		strbuf_reset(scratch);
		strbuf_addf(scratch, "wants a number from %s", row->info.range);
		return scratch->buf;
	}
	return row->set(ctx, key, value, line);
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
	size_t alloc = 0;
	struct key_info *out = NULL;
	ALLOC_GROW(out, t->n + 8, alloc);
	*n = 0;
	for (size_t r = 0; r < t->n; r++) {
		const struct key_def *row = &t->rows[r];
		struct key_info m;
		for (size_t i = 0; row->member ? row->member(i, &m) : i == 0; i++) {
			ALLOC_GROW(out, *n + 1, alloc);
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
