/* The reference's three forms (reference-format.h). */
#include "reference-format.h"

#include <stdbool.h>
#include <string.h>

#define REFERENCE_WIDTH 78

const char *const reference_format_names[] = { "text", "markdown", "json", NULL };

void reference_wrap(FILE *out, int indent, const char *lead, const char *text)
{
	int at = fprintf(out, "%*s%s", indent, "", lead);
	int hang = at;
	bool first = true;
	for (;;) {
		text += strspn(text, " \n");
		if (!*text)
			break;
		int word = (int)strcspn(text, " \n");
		if (!first && at + 1 + word > REFERENCE_WIDTH)
			at = fprintf(out, "\n%*s", hang, "") - 1;
		else if (!first)
			at += fprintf(out, " ");
		at += fprintf(out, "%.*s", word, text);
		text += word;
		first = false;
	}
	fputc('\n', out);
}

/* TEXT in a table cell: '|' would end the cell, '*' may start emphasis,
 * '<' a tag; in code (CODE) only '|' is special. */
static void md_cell(FILE *out, const char *text, bool code)
{
	for (; *text; text++) {
		if (*text == '|' || (!code && *text == '*'))
			fprintf(out, "\\%c", *text);
		else if (!code && *text == '<')
			fputs("&lt;", out);
		else
			fputc(*text == '\n' ? ' ' : *text, out);
	}
}

void reference_md_cell(FILE *out, const char *text)
{
	md_cell(out, text, false);
}

void reference_md_code(FILE *out, const char *text)
{
	fputc('`', out);
	md_cell(out, text, true);
	fputc('`', out);
}

void reference_json_print(FILE *out, json_t *doc)
{
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
}
