/*
 * Tables of keys (key-table.h) written out for people and programs: the
 * text lab keys prints, a JSON array, and the Markdown of docs/REFERENCE.md.
 * Every key each table lists, its family's members one each, in the
 * table's order.
 */
#ifndef LAB_KEY_LISTING_H
#define LAB_KEY_LISTING_H

#include <stddef.h>

#include <jansson.h>

#include "common/util.h"
#include "key-table.h"

/* Per table a heading, then a line a key in aligned columns (key, type,
 * default, values) and its meaning indented below it. */
void key_listing_text(struct strbuf *sb, const struct key_table *const *tables, size_t n);
/* An array of {"file", "key", "type", "default", "range", "meaning",
 * "repeats"}, one object a key. */
json_t *key_listing_json(const struct key_table *const *tables, size_t n);
/* Per table a heading and a Markdown table of its keys. */
void key_listing_markdown(struct strbuf *sb, const struct key_table *const *tables, size_t n);

#endif
