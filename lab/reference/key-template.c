/* A commented file of a table's keys (key-template.h). */
#include "key-template.h"

#include <stdlib.h>
#include <string.h>

#include "lab/cli/options.h"

/* TEXT wrapped as a paragraph (usage_add_paragraph()), each line a comment. */
static void add_comment(struct strbuf *sb, const char *text)
{
	struct strbuf para = STRBUF_INIT;
	usage_add_paragraph(&para, text);
	for (char *line = para.buf, *end; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		strbuf_addstr(sb, "# ");
		strbuf_add(sb, line, end ? (size_t)(end - line) : strlen(line));
		strbuf_addstr(sb, "\n");
	}
	strbuf_release(&para);
}

/* What is said of K above its line: meaning, then type, values and default. */
static void add_key_comment(struct strbuf *sb, const struct key_info *k)
{
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "%s: %s%s.", k->name, k->meaning, k->repeats ? "; may repeat" : "");
	add_comment(sb, text.buf);
	strbuf_reset(&text);
	strbuf_addstr(&text, k->type);
	if (*k->range)
		strbuf_addf(&text, ": %s", k->range);
	if (!strcmp(k->fallback, KEY_REQUIRED))
		strbuf_addstr(&text, "; required");
	else if (k->fallback[0] == '(')   /* "(the first variant)": what holds without the key */
		strbuf_addf(&text, "; default: %.*s", (int)strlen(k->fallback) - 2, k->fallback + 1);
	else
		strbuf_addf(&text, "; default %s", k->fallback);
	add_comment(sb, text.buf);
	strbuf_release(&text);
}

int key_template(struct strbuf *sb, const struct key_table *t, const char *head,
		 const struct key_value *values, size_t n, struct strbuf *err)
{
	size_t count;
	struct key_info *keys = key_table_list(t, &count);
	int rc = 0;
	/* every value names a key of the table */
	for (size_t v = 0; v < n && !rc; v++) {
		size_t k = 0;
		while (k < count && strcmp(keys[k].name, values[v].key))
			k++;
		if (k == count) {
			strbuf_addf(err, "%s template: no %s key '%s'", t->kind, t->kind, values[v].key);
			rc = -1;
		}
	}
	if (head && !rc) {
		add_comment(sb, head);
		strbuf_addstr(sb, "\n");
	}
	for (size_t k = 0; k < count && !rc; k++) {
		const struct key_info *key = &keys[k];
		add_key_comment(sb, key);
		size_t given = 0;
		for (size_t v = 0; v < n; v++) {
			if (strcmp(values[v].key, key->name))
				continue;
			if (given++ && !key->repeats) {
				strbuf_addf(err, "%s template: %s is given twice", t->kind, key->name);
				rc = -1;
			}
			strbuf_addf(sb, "%s = %s\n", key->name, values[v].value);
		}
		if (!given && !strcmp(key->fallback, KEY_REQUIRED)) {
			strbuf_addf(err, "%s template: the required key %s has no value", t->kind, key->name);
			rc = -1;
		} else if (!given) {
			/* commented out, with its default when a file may write it */
			strbuf_addf(sb, "#%s =%s%s\n", key->name, key->fallback[0] == '(' ? "" : " ",
				    key->fallback[0] == '(' ? "" : key->fallback);
		}
		if (k + 1 < count)
			strbuf_addstr(sb, "\n");
	}
	free(keys);
	return rc;
}
