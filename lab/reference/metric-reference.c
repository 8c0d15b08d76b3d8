/* The catalogue of metrics as lab metrics prints it (metric-reference.h). */
#include "metric-reference.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metric_catalog.h"
#include "common/util.h"
#include "lab/util/glob.h"

/* How many names a GLOB that selects nothing is offered. */
#define SUGGESTED 3

/* Every row of both tables in lookup order; *N of them. */
static struct metric_reference *all_rows(size_t *n)
{
	size_t n_lab, n_known;
	const struct metric_def *lab = metric_catalog_rows(&n_lab);
	const struct metric_def *known = metric_known_rows(&n_known);
	struct metric_reference *rows = xcalloc(n_lab + n_known, sizeof(*rows));
	for (size_t i = 0; i < n_lab + n_known; i++) {
		const struct metric_def *row = i < n_lab ? &lab[i] : &known[i - n_lab];
		rows[i].row = row;
		rows[i].table = i < n_lab ? "lab" : "workload";
		/* a glob's own text is one of the names it matches */
		rows[i].judged_by = metric_catalog_lookup(row->name);
	}
	*n = n_lab + n_known;
	return rows;
}

static void say_nearest(struct strbuf *err, const struct metric_reference *rows, size_t n,
			const char *glob)
{
	const char **names = xcalloc(n, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = rows[i].row->name;
	struct strbuf near = STRBUF_INIT;
	strbuf_addf(err, "'%s' matches no metric of the catalogue", glob);
	if (glob_suggest(&near, names, n, glob, SUGGESTED))
		strbuf_addf(err, "; did you mean %s?", near.buf);
	strbuf_addstr(err, " (a metric of no row is judged by its unit, better in the direction its "
			   "metric lines declare, else neither)");
	strbuf_release(&near);
	free(names);
}

/* Whether GLOB selects ROW at TIER: 0, it matches ROW's name as written; 1,
 * it can match a name of ROW, a row that starts with a name ("slab_*_bytes"
 * for "slab_binder_node_*"); 2, the same for a row that starts with '*',
 * which nearly any glob that ends with one can match. */
static bool selects(const char *glob, const char *row, int tier)
{
	switch (tier) {
	case 0:  return !fnmatch(glob, row, 0);
	case 1:  return *row != '*' && glob_intersects(row, 0, glob);
	default: return glob_intersects(row, 0, glob);
	}
}

/* Keeps the rows of ROWS (N of them) that GLOB selects at the first tier
 * that selects any, in order. Returns how many. */
static size_t keep_selected(struct metric_reference *rows, size_t n, const char *glob)
{
	size_t kept = 0;
	for (int tier = 0; tier < 3 && !kept; tier++)
		for (size_t i = 0; i < n; i++)
			if (selects(glob, rows[i].row->name, tier))
				rows[kept++] = rows[i];
	return kept;
}

int metric_reference_select(const char *glob, struct metric_reference **out, size_t *n_out,
			    struct strbuf *err)
{
	size_t n;
	struct metric_reference *rows = all_rows(&n);
	*out = rows;
	*n_out = n;
	if (!glob)
		return 0;
	const char *bad = glob_malformed(glob);
	if (bad) {
		strbuf_addf(err, "'%s': %s", glob, bad);
		return -1;
	}
	size_t kept = 0;
	if (!strpbrk(glob, "*?[")) {
		const struct metric_def *judge = metric_catalog_lookup(glob);
		for (size_t i = 0; i < n && judge && !kept; i++)
			if (rows[i].row == judge)
				rows[kept++] = rows[i];
	} else {
		kept = keep_selected(rows, n, glob);
	}
	if (!kept) {
		say_nearest(err, rows, n, glob);
		return -1;
	}
	*n_out = kept;
	return 0;
}

/* A row without a meaning or a source (test-metric-reference refuses one). */
static const char *said(const char *text)
{
	return text ? text : "?";
}

/* "" means the unit the trial recorded. */
static const char *unit_text(const struct metric_def *d)
{
	return *d->unit ? d->unit : "as recorded";
}

static void print_text(FILE *out, const struct metric_reference *rows, size_t n)
{
	const char *table = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct metric_reference *r = &rows[i];
		if (!table || strcmp(table, r->table)) {
			table = r->table;
			fprintf(out, "%s%s\n\n", i ? "\n" : "",
				!strcmp(table, "lab")
					? "The lab's own metrics (analysis/metrics/metric_catalog.c):"
					: "The workloads' metrics (common/proto/workload-metrics.h) and "
					  "older records' names (analysis/compare/metric.c):");
		}
		const struct metric_def *j = r->judged_by;
		fprintf(out, "%s  [%s] %s, %s\n", r->row->name, unit_text(r->row), metric_kind_name(j->kind),
			metric_better_text(j->better));
		if (j != r->row)
			fprintf(out, "    (judged by the earlier row %s)\n", j->name);
		reference_wrap(out, 4, "", said(r->row->meaning));
		reference_wrap(out, 4, "from: ", said(r->row->source));
	}
	fprintf(out, "\nThe first row a name matches judges it. A metric of no row has its kind guessed\n"
		     "from its unit, and is better in the direction its metric lines declare (\"better\":\n"
		     "\"higher\" or \"lower\", the same in every trial), else neither.\n");
}

static void print_markdown(FILE *out, const struct metric_reference *rows, size_t n)
{
	fprintf(out, "| metric | unit | kind | better | meaning | source |\n"
		     "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct metric_reference *r = &rows[i];
		fputs("| ", out);
		reference_md_code(out, r->row->name);
		fputs(" | ", out);
		reference_md_cell(out, unit_text(r->row));
		fprintf(out, " | %s | %s | ", metric_kind_name(r->judged_by->kind),
			metric_better_word(r->judged_by->better));
		reference_md_cell(out, said(r->row->meaning));
		if (r->judged_by != r->row) {
			fputs(" (judged by ", out);
			reference_md_code(out, r->judged_by->name);
			fputs(")", out);
		}
		fputs(" | ", out);
		reference_md_cell(out, said(r->row->source));
		fputs(" |\n", out);
	}
}

static json_t *row_json(const struct metric_reference *r)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s?, s:s?}", "name", r->row->name, "table",
			      r->table, "unit", r->row->unit, "kind", metric_kind_name(r->judged_by->kind),
			      "better", metric_better_word(r->judged_by->better), "meaning",
			      r->row->meaning, "source", r->row->source);
	if (r->judged_by != r->row)
		json_object_set_new(o, "judged_by", json_string(r->judged_by->name));
	return o;
}

void metric_reference_print(FILE *out, enum reference_format format,
			    const struct metric_reference *rows, size_t n)
{
	switch (format) {
	case REFERENCE_TEXT:
		print_text(out, rows, n);
		break;
	case REFERENCE_MARKDOWN:
		print_markdown(out, rows, n);
		break;
	case REFERENCE_JSON: {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, row_json(&rows[i]));
		reference_json_print(out, json_pack("{s:o}", "metrics", a));
		break;
	}
	}
}
