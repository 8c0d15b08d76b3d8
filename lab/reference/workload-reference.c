/* The workloads as lab workloads prints them (workload-reference.h). */
#include "workload-reference.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metric_catalog.h"
#include "metric-reference.h"

void workload_metric_view(const struct workload_info *w, const char *row, struct workload_metric_view *v)
{
	v->name = xasprintf("%s.%s", w->name, row);
	v->row = metric_catalog_lookup(v->name);
	/* the unit comes with the figure: none known here */
	metric_catalog_resolve(v->name, NULL, &v->def);
}

void workload_metric_view_clear(struct workload_metric_view *v)
{
	free(v->name);
	v->name = NULL;
}

static const char *unit_text(const struct workload_metric_view *v)
{
	return *v->def.unit ? v->def.unit : "as reported";
}

/* Without a row the kind comes from the unit the figure reports, which only
 * the run knows: no kind is shown (a guess from the name could be wrong). */
static const char *kind_text(const struct workload_metric_view *v)
{
	return v->row ? metric_kind_name(v->def.kind) : "by its unit";
}

/* "-n, --count N", as the usage shows an option; ALIGN: a long name alone
 * under the long names of the others ("    --time DUR"). */
static char *option_text(const struct workload_option *o, bool align)
{
	struct strbuf sb = STRBUF_INIT;
	if (*o->short_name)
		strbuf_addf(&sb, "-%s", o->short_name);
	else if (align)
		strbuf_addstr(&sb, "    ");
	if (*o->long_name)
		strbuf_addf(&sb, "%s--%s", *o->short_name ? ", " : "", o->long_name);
	if (*o->arg)
		strbuf_addf(&sb, " %s", o->arg);
	return strbuf_detach(&sb);
}

/* The metrics every line's program reports: the catalogue's "*.NAME" rows. */
static void line_metric_names(struct strbuf *sb)
{
	size_t n;
	const struct metric_def *rows = metric_catalog_rows(&n);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(rows[i].name, "*.", 2))
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", rows[i].name + 2);
}

/* What V is, from the row that judges it, and that row's name when it is
 * another's (a glob, or a row of the lab's catalogue). Static storage. */
static const char *said_by(const struct workload_metric_view *v)
{
	static char text[1024];
	const char *meaning = v->row->meaning ? v->row->meaning : "?";
	if (strcmp(v->row->name, v->name))
		snprintf(text, sizeof(text), "%s (judged by %s)", meaning, v->row->name);
	else
		snprintf(text, sizeof(text), "%s", meaning);
	return text;
}

#define OPTION_COLUMN 30

static void print_text_one(FILE *out, const struct workload_info *w)
{
	fprintf(out, "%s\n", w->name);
	reference_wrap(out, 4, "", w->summary);
	fprintf(out, "  usage: %s\n", workload_synopsis(w));
	for (size_t i = 1; i < w->usage.n; i++)
		if (*w->usage.items[i])
			fprintf(out, "    %s\n", w->usage.items[i]);
	fprintf(out, "  options:\n");
	for (size_t i = 0; i < w->n_options; i++) {
		const struct workload_option *o = &w->options[i];
		if (*o->group) {
			fprintf(out, "    %s\n", o->group);
			continue;
		}
		char *left = option_text(o, true);
		if (strlen(left) + 4 + 2 > OPTION_COLUMN) {
			/* too long for the column: its help on the lines below */
			fprintf(out, "    %s\n", left);
			reference_wrap(out, OPTION_COLUMN, "", o->help);
		} else {
			char *lead = xasprintf("%-*s", OPTION_COLUMN - 4, left);
			reference_wrap(out, 4, lead, o->help);
			free(lead);
		}
		free(left);
	}
	fprintf(out, "  metrics (as trial.json names them):\n");
	for (size_t i = 0; i < w->metrics.n; i++) {
		struct workload_metric_view v;
		workload_metric_view(w, w->metrics.items[i], &v);
		fprintf(out, "    %s  [%s] %s, %s\n", v.name, unit_text(&v), kind_text(&v),
			metric_better_text(v.def.better));
		if (v.row)
			reference_wrap(out, 6, "", said_by(&v));
		workload_metric_view_clear(&v);
	}
	if (w->notes.n) {
		fprintf(out, "  notes:\n");
		for (size_t i = 0; i < w->notes.n; i++)
			fprintf(out, "    %s\n", w->notes.items[i]);
	}
}

static void print_text(FILE *out, const struct workload_info *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc('\n', out);
		print_text_one(out, &items[i]);
	}
	struct strbuf line = STRBUF_INIT;
	line_metric_names(&line);
	fputc('\n', out);
	reference_wrap(out, 0, "",
		       "Every experiment line also reports, as P.NAME for its program P: ");
	reference_wrap(out, 4, "", line.buf);
	reference_wrap(out, 0, "",
		       "A metric whose kind is \"by its unit\" has no row in the catalogue (lab "
		       "metrics): its kind comes from the unit it reports, and no direction is better "
		       "unless its metric lines declare one (\"better\": \"higher\" or \"lower\").");
	strbuf_release(&line);
}

/* LINES joined into one paragraph, for a markdown cell or a JSON string. */
static char *joined(const struct strlist *lines, size_t from, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = from; i < lines->n; i++) {
		if (!*lines->items[i])
			continue;
		strbuf_addf(&sb, "%s%s", sb.len ? sep : "", lines->items[i]);
	}
	return strbuf_detach(&sb);
}

static void print_markdown_one(FILE *out, const struct workload_info *w)
{
	fprintf(out, "### %s\n\n", w->name);
	reference_md_cell(out, w->summary);
	fputs("\n\n", out);
	reference_md_code(out, workload_synopsis(w));
	char *about = joined(&w->usage, 1, " ");
	if (*about) {
		fputs(": ", out);
		reference_md_cell(out, about);
	}
	free(about);
	fputs("\n\n| option | meaning |\n|---|---|\n", out);
	for (size_t i = 0; i < w->n_options; i++) {
		const struct workload_option *o = &w->options[i];
		if (*o->group) {
			fputs("| **", out);
			reference_md_cell(out, o->group);
			fputs("** | |\n", out);
			continue;
		}
		char *left = option_text(o, false);
		fputs("| ", out);
		reference_md_code(out, left);
		fputs(" | ", out);
		reference_md_cell(out, o->help);
		fputs(" |\n", out);
		free(left);
	}
	fputs("\n| metric | unit | kind | better | meaning |\n|---|---|---|---|---|\n", out);
	for (size_t i = 0; i < w->metrics.n; i++) {
		struct workload_metric_view v;
		workload_metric_view(w, w->metrics.items[i], &v);
		fputs("| ", out);
		reference_md_code(out, v.name);
		fprintf(out, " | %s | %s | %s | ", unit_text(&v), kind_text(&v),
			metric_better_word(v.def.better));
		if (v.row) {
			reference_md_cell(out, v.row->meaning ? v.row->meaning : "?");
			if (strcmp(v.row->name, v.name)) {
				fputs(" (judged by ", out);
				reference_md_code(out, v.row->name);
				fputs(")", out);
			}
		} else {
			fputs("no row", out);
		}
		fputs(" |\n", out);
		workload_metric_view_clear(&v);
	}
	char *notes = joined(&w->notes, 0, " ");
	if (*notes) {
		fputs("\n", out);
		reference_md_cell(out, notes);
		fputs("\n", out);
	}
	free(notes);
}

static void print_markdown(FILE *out, const struct workload_info *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc('\n', out);
		print_markdown_one(out, &items[i]);
	}
	struct strbuf line = STRBUF_INIT;
	line_metric_names(&line);
	fputs("\nEvery experiment line also reports, as `P.NAME` for its program P: ", out);
	reference_md_cell(out, line.buf);
	fputs(". A metric of no row in the catalogue (`lab metrics`) gets its kind from the unit it "
	      "reports, and no direction is better unless its metric lines declare one "
	      "(`\"better\":\"higher\"` or `\"lower\"`, docs/PROGRAMS.md).\n", out);
	strbuf_release(&line);
}

static json_t *option_json(const struct workload_option *o)
{
	if (*o->group)
		return json_pack("{s:s}", "group", o->group);
	return json_pack("{s:s, s:s, s:s, s:s}", "short", o->short_name, "long", o->long_name, "arg",
			 o->arg, "help", o->help);
}

static json_t *metric_json(const struct workload_info *w, const char *row)
{
	struct workload_metric_view v;
	workload_metric_view(w, row, &v);
	json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:o}", "name", v.name, "declared", row,
			      "unit", v.def.unit, "kind",
			      v.row ? json_string(metric_kind_name(v.def.kind)) : json_null(), "better",
			      metric_better_word(v.def.better), "judged_by",
			      v.row ? json_string(v.row->name) : json_null(), "meaning",
			      v.row && v.row->meaning ? json_string(v.row->meaning) : json_null());
	workload_metric_view_clear(&v);
	return o;
}

static json_t *workload_json(const struct workload_info *w)
{
	json_t *options = json_array(), *metrics = json_array();
	for (size_t i = 0; i < w->n_options; i++)
		json_array_append_new(options, option_json(&w->options[i]));
	for (size_t i = 0; i < w->metrics.n; i++)
		json_array_append_new(metrics, metric_json(w, w->metrics.items[i]));
	char *usage = joined(&w->usage, 0, "\n"), *notes = joined(&w->notes, 0, "\n");
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:s}", "name", w->name, "summary",
			      w->summary, "synopsis", workload_synopsis(w), "usage", usage, "options",
			      options, "metrics", metrics, "notes", notes);
	free(usage);
	free(notes);
	return o;
}

void workload_reference_print(FILE *out, enum reference_format format,
			      const struct workload_info *items, size_t n)
{
	switch (format) {
	case REFERENCE_TEXT:
		print_text(out, items, n);
		break;
	case REFERENCE_MARKDOWN:
		print_markdown(out, items, n);
		break;
	case REFERENCE_JSON: {
		json_t *a = json_array(), *lines = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, workload_json(&items[i]));
		size_t n_rows;
		const struct metric_def *rows = metric_catalog_rows(&n_rows);
		for (size_t i = 0; i < n_rows; i++)
			if (!strncmp(rows[i].name, "*.", 2))
				json_array_append_new(lines, json_string(rows[i].name + 2));
		reference_json_print(out, json_pack("{s:o, s:o}", "workloads", a, "every_line_reports", lines));
		break;
	}
	}
}
