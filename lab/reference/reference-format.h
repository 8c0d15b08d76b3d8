/*
 * The reference the lab prints about itself (lab metrics, lab workloads),
 * each from the table the code uses, in three forms: text for a terminal,
 * markdown for docs/REFERENCE.md, and JSON for programs.
 */
#ifndef LAB_REFERENCE_FORMAT_H
#define LAB_REFERENCE_FORMAT_H

#include <jansson.h>
#include <stdio.h>

enum reference_format { REFERENCE_TEXT, REFERENCE_MARKDOWN, REFERENCE_JSON };
/* The formats' names in enum order, NULL-terminated (an OPT_CHOICE's words). */
extern const char *const reference_format_names[];

/* LEAD and TEXT's words wrapped at 78 columns: the first line INDENT spaces
 * in, the others under TEXT's first word. */
void reference_wrap(FILE *out, int indent, const char *lead, const char *text);
/* TEXT as one markdown table cell: '|', '*' and '<' escaped, line ends as spaces. */
void reference_md_cell(FILE *out, const char *text);
/* TEXT as markdown code (`TEXT`), for a name with '*' or '_' in it. */
void reference_md_code(FILE *out, const char *text);
/* DOC, indented, and a newline; takes DOC's reference. */
void reference_json_print(FILE *out, json_t *doc);

#endif
