/* report_html.h - the pieces of a self-contained HTML report: escaping,
 * the page around the content (inline CSS, no script, nothing fetched),
 * sections, figures with inline SVG, notes and key/value tables.
 *
 * Everything that comes from data (names, labels, values, messages) goes
 * through html_escape(); only the SVG that gnuplot wrote (plot.h) and the
 * lab's own markup are written as they are.
 */
#ifndef OOMLAB_REPORT_HTML_H
#define OOMLAB_REPORT_HTML_H

#include <stdio.h>

#include "common/util.h"
#include "analysis/compare/compare.h"

/* Appends S with & < > " ' as entities; bytes below 0x20 other than tab,
 * LF and CR are dropped (HTML has no use for them). */
void html_escape(struct strbuf *sb, const char *s);
void html_put(FILE *out, const char *s);        /* html_escape() to OUT */

void html_begin(FILE *out, const char *title);
void html_end(FILE *out, const char *footer);
/* <section id=ID><h2>TITLE</h2> ... </section> */
void html_section_begin(FILE *out, const char *id, const char *title);
void html_section_end(FILE *out);
/* A paragraph of plain text; CLASS may be NULL or "warn", "note", "absent". */
void html_para(FILE *out, const char *cls, const char *text);
/* <figure id=ID> SVG <figcaption>TITLE: CAPTION</figcaption> */
void html_figure(FILE *out, const char *id, const char *title, const char *svg, const char *caption);
/* A figure that this run has no data for: one line saying so. */
void html_figure_absent(FILE *out, const char *id, const char *title, const char *why);
/* A two-column table; KEYS and VALUES have N entries (values may be NULL). */
void html_kv_table(FILE *out, const char *cls, const char *const *keys, const char *const *values,
		   size_t n);
/* A table with a header row: COLS columns, CELLS row-major (rows x cols). */
void html_table(FILE *out, const char *cls, const char *const *head, size_t cols,
		const char *const *cells, size_t rows);

/* The comparison table (compare.h) as an HTML table with its notes below:
 * one row per metric for the baseline, one per variant row, each verdict's
 * cell of its class (compare_verdict_info()->css_class). */
int compare_format_html(FILE *out, const struct compare_table *table);

#endif
