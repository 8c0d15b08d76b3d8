/* Tables of keys as text, JSON and Markdown (key-listing.h). */
#include "key-listing.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A key's meaning as printed: the row's, and whether it may repeat. */
static void add_meaning(struct strbuf *sb, const struct key_info *k)
{
	strbuf_addstr(sb, k->meaning);
	if (k->repeats)
		strbuf_addstr(sb, "; may repeat");
}

enum { KEY_COL, TYPE_COL, DEFAULT_COL, N_COLS };

static const char *column(const struct key_info *k, int col)
{
	return col == KEY_COL ? k->name : col == TYPE_COL ? k->type : k->fallback;
}

void key_listing_text(struct strbuf *sb, const struct key_table *const *tables, size_t n)
{
	static const char *const heads[N_COLS] = { "KEY", "TYPE", "DEFAULT" };
	for (size_t t = 0; t < n; t++) {
		size_t count;
		struct key_info *keys = key_table_list(tables[t], &count);
		int width[N_COLS];
		for (int c = 0; c < N_COLS; c++) {
			width[c] = (int)strlen(heads[c]);
			for (size_t i = 0; i < count; i++)
				if ((int)strlen(column(&keys[i], c)) > width[c])
					width[c] = (int)strlen(column(&keys[i], c));
		}
		strbuf_addf(sb, "%s%s keys (%s):\n", t ? "\n" : "", tables[t]->kind, tables[t]->where);
		strbuf_addf(sb, "  %-*s  %-*s  %-*s  VALUES\n", width[KEY_COL], heads[KEY_COL],
			    width[TYPE_COL], heads[TYPE_COL], width[DEFAULT_COL], heads[DEFAULT_COL]);
		for (size_t i = 0; i < count; i++) {
			struct strbuf line = STRBUF_INIT;
			strbuf_addf(&line, "  %-*s  %-*s  %-*s  %s", width[KEY_COL], keys[i].name,
				    width[TYPE_COL], keys[i].type, width[DEFAULT_COL], keys[i].fallback,
				    keys[i].range);
			/* no blanks at the end of a key without values */
			while (line.len && line.buf[line.len - 1] == ' ')
				line.buf[--line.len] = '\0';
			strbuf_addf(sb, "%s\n      ", line.buf);
			add_meaning(sb, &keys[i]);
			strbuf_addstr(sb, "\n");
			strbuf_release(&line);
		}
		free(keys);
	}
}

json_t *key_listing_json(const struct key_table *const *tables, size_t n)
{
	json_t *all = json_array();
	for (size_t t = 0; t < n; t++) {
		size_t count;
		struct key_info *keys = key_table_list(tables[t], &count);
		for (size_t i = 0; i < count; i++)
			json_array_append_new(all, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b}",
							     "file", tables[t]->kind,
							     "key", keys[i].name,
							     "type", keys[i].type,
							     "default", keys[i].fallback,
							     "range", keys[i].range,
							     "meaning", keys[i].meaning,
							     "repeats", keys[i].repeats));
		free(keys);
	}
	return all;
}

/* TEXT as one Markdown cell: what Markdown would act on escaped ('|' ends
 * a cell; * _ ` ~ and '\' format). */
static void add_cell(struct strbuf *sb, const char *text)
{
	strbuf_addstr(sb, " ");
	for (const char *s = text; *s; s++) {
		if (strchr("|\\*_`~", *s))
			strbuf_addstr(sb, "\\");
		strbuf_add(sb, s, 1);
	}
	strbuf_addstr(sb, " |");
}

void key_listing_markdown(struct strbuf *sb, const struct key_table *const *tables, size_t n)
{
	for (size_t t = 0; t < n; t++) {
		size_t count;
		struct key_info *keys = key_table_list(tables[t], &count);
		const char *kind = tables[t]->kind;
		strbuf_addf(sb, "%s## %c%s keys\n\nIn `%s`, a `key = value` a line.\n\n", t ? "\n" : "",
			    toupper((unsigned char)kind[0]), kind + 1, tables[t]->where);
		strbuf_addstr(sb, "| key | type | default | values | meaning |\n|---|---|---|---|---|\n");
		for (size_t i = 0; i < count; i++) {
			struct strbuf meaning = STRBUF_INIT;
			add_meaning(&meaning, &keys[i]);
			/* a name has no '`' or '|' */
			strbuf_addf(sb, "| `%s` |", keys[i].name);
			add_cell(sb, keys[i].type);
			add_cell(sb, keys[i].fallback);
			add_cell(sb, keys[i].range);
			add_cell(sb, meaning.buf);
			strbuf_addstr(sb, "\n");
			strbuf_release(&meaning);
		}
		free(keys);
	}
}
