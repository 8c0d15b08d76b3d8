/* Unit tests: lab keys' listings (lab/keys/key-listing.h) hold every key the
 * tables list, each once and as the table says it: the JSON objects, the
 * text's aligned columns, the Markdown rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/keys/key-listing.h"
#include "lab/machine/profile.h"
#include "lab/run/experiment.h"

static const struct key_table *const tables[] = { &experiment_keys, &profile_keys };
#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

static const char *field(json_t *o, const char *name)
{
	json_t *v = json_object_get(o, name);
	if (!json_is_string(v))
		fail_msg("a key's object has no string \"%s\"", name);
	return json_string_value(v);
}

static void the_json_has_every_key(void **state)
{
	(void)state;
	json_t *list = key_listing_json(tables, N_TABLES);
	size_t at = 0;
	assert_true(json_is_array(list));
	for (size_t t = 0; t < N_TABLES; t++) {
		size_t n;
		struct key_info *keys = key_table_list(tables[t], &n);
		for (size_t i = 0; i < n; i++, at++) {
			json_t *o = json_array_get(list, at);
			if (!o)
				fail_msg("the JSON ends before %s key %s", tables[t]->kind, keys[i].name);
			assert_string_equal(field(o, "file"), tables[t]->kind);
			assert_string_equal(field(o, "key"), keys[i].name);
			assert_string_equal(field(o, "type"), keys[i].type);
			assert_string_equal(field(o, "default"), keys[i].fallback);
			assert_string_equal(field(o, "range"), keys[i].range);
			assert_string_equal(field(o, "meaning"), keys[i].meaning);
			assert_true(json_is_boolean(json_object_get(o, "repeats")));
			assert_int_equal(json_is_true(json_object_get(o, "repeats")), keys[i].repeats);
		}
		free(keys);
	}
	assert_int_equal(json_array_size(list), at);
	/* the keys of families too */
	assert_true(at > 40);
	json_decref(list);
}

/* The line of TEXT that begins with PREFIX, NULL when none does. */
static const char *line_starting(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, len))
			return l;
	return NULL;
}

static void the_text_has_a_line_a_key_in_columns(void **state)
{
	(void)state;
	for (size_t t = 0; t < N_TABLES; t++) {
		struct strbuf sb = STRBUF_INIT;
		key_listing_text(&sb, &tables[t], 1);
		const char *head = line_starting(sb.buf, "  KEY ");
		assert_non_null(head);
		size_t type_col = strstr(head, "TYPE") - head, default_col = strstr(head, "DEFAULT") - head;
		size_t n;
		struct key_info *keys = key_table_list(tables[t], &n);
		for (size_t i = 0; i < n; i++) {
			char *prefix = xasprintf("  %s ", keys[i].name);
			const char *l = line_starting(sb.buf, prefix);
			if (!l)
				fail_msg("the text has no line for %s", keys[i].name);
			if (strncmp(l + type_col, keys[i].type, strlen(keys[i].type)) ||
			    strncmp(l + default_col, keys[i].fallback, strlen(keys[i].fallback)))
				fail_msg("%s's line is out of the columns: %.*s", keys[i].name,
					 (int)strcspn(l, "\n"), l);
			/* the meaning, indented, on the next line */
			const char *next = strchr(l, '\n') + 1;
			assert_memory_equal(next, "      ", 6);
			assert_memory_equal(next + 6, keys[i].meaning, strlen(keys[i].meaning));
			free(prefix);
		}
		free(keys);
		strbuf_release(&sb);
	}
}

static void the_markdown_has_a_row_a_key(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	key_listing_markdown(&sb, tables, N_TABLES);
	size_t rows = 0, keys_n = 0;
	for (const char *l = strstr(sb.buf, "| `"); l; l = strstr(l + 1, "\n| `"))
		rows++;
	for (size_t t = 0; t < N_TABLES; t++) {
		size_t n;
		struct key_info *keys = key_table_list(tables[t], &n);
		for (size_t i = 0; i < n; i++) {
			char *cell = xasprintf("| `%s` |", keys[i].name);
			if (!strstr(sb.buf, cell))
				fail_msg("the Markdown has no row for %s", keys[i].name);
			free(cell);
		}
		keys_n += n;
		free(keys);
	}
	assert_int_equal(rows, keys_n);
	/* a '|' of a value does not end its cell */
	assert_non_null(strstr(sb.buf, "| lzo \\| lzo-rle \\| lz4 |"));
	assert_non_null(strstr(sb.buf, "## Profile keys\n"));
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_json_has_every_key),
		cmocka_unit_test(the_text_has_a_line_a_key_in_columns),
		cmocka_unit_test(the_markdown_has_a_row_a_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
