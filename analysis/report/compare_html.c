/* compare_html.c - the comparison table as HTML (declared in report_html.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "analysis/compare/compare_fmt.h"
#include "analysis/compare/compare_summary.h"
#include "report_html.h"

#define HTML_NUM_WIDTH 10

static void cell(FILE *out, const char *cls, const char *text)
{
	fputs(cls ? "<td class=\"" : "<td>", out);
	if (cls) {
		html_put(out, cls);
		fputs("\">", out);
	}
	html_put(out, text);
	fputs("</td>", out);
}

static void num(FILE *out, double x)
{
	char buf[32];
	cell(out, "num", compare_fmt_num(buf, sizeof(buf), x, HTML_NUM_WIDTH, false));
}

static void side(FILE *out, const char *label, const struct compare_side *s,
		 enum compare_method method)
{
	char n[32], c[32];
	cell(out, NULL, label);
	cell(out, "num", compare_fmt_n(n, sizeof(n), s));
	cell(out, "num", compare_fmt_centre(c, sizeof(c), s, method, HTML_NUM_WIDTH));
	num(out, s->sd);
}

static void emit_note(void *ctx, const char *line)
{
	FILE *out = ctx;
	/* continuation lines start with blanks: they go on the same item */
	if (line[0] == ' ') {
		fputc(' ', out);
		html_put(out, line + 2);
	} else {
		fputs("\n<li>", out);
		html_put(out, line);
	}
}

/* A variant's summary line (compare_summary.h) above the table. */
static void emit_summary(void *ctx, const char *line)
{
	FILE *out = ctx;
	fputs("<p class=\"summary\"><strong>", out);
	html_put(out, line);
	fputs("</strong></p>\n", out);
}

int compare_format_html(FILE *out, const struct compare_table *t)
{
	char clock[256];

	fputs("<p>Baseline: <strong>", out);
	html_put(out, t->baseline ? t->baseline : "-");
	fputs("</strong></p>\n", out);
	compare_summary(t, emit_summary, out);
	if (t->clock.name) {
		fputs("<p class=\"clock\">Clock of every group: <strong>", out);
		html_put(out, compare_fmt_clock(clock, sizeof(clock), &t->clock));
		fputs("</strong>", out);
		if (t->clock.meaning) {
			fputs(": ", out);
			html_put(out, t->clock.meaning);
		}
		fputs("</p>\n", out);
	}
	fprintf(out, "<div class=\"scroll\"><table class=\"compare\">\n<tr><th>metric</th><th>unit</th>"
		"<th>variant</th><th>n</th><th>centre</th><th>sd</th>"
		"<th>diff</th><th>%g%% CI</th><th>p</th><th>p-adj</th><th>MDE</th><th>margin</th>"
		"<th>A/A</th><th>verdict</th></tr>\n",
		100.0 * t->opts.ci_level);
	for (size_t m = 0; m < t->n_metrics; m++) {
		const struct compare_metric_info *mi = &t->metrics[m];
		char what[96];
		snprintf(what, sizeof(what), "%s (%s)", mi->unit, compare_centre_name(mi->method));
		fputs("<tr class=\"base\">", out);
		cell(out, "metric", mi->name);
		cell(out, NULL, what);
		side(out, mi->base.variant, &mi->base, mi->method);
		fputs("<td></td><td></td><td></td><td></td><td></td><td></td><td></td>"
		      "<td>baseline</td></tr>\n", out);
		for (size_t i = 0; i < t->n_rows; i++) {
			const struct compare_row *r = &t->rows[i];
			char buf[160], name[1024];
			if (r->metric != m)
				continue;
			/* the verdict and p-adj as data too, for scripts and the tests
			 * that hold the report to lab compare's table */
			fputs("<tr data-metric=\"", out);
			html_put(out, mi->name);
			fputs("\" data-variant=\"", out);
			html_put(out, r->var.variant);
			fprintf(out, "\" data-verdict=\"%s\" data-p-adj=\"", compare_verdict_word(r->verdict));
			if (isfinite(r->p_adj))
				fprintf(out, "%.6g", r->p_adj);
			fputs("\">", out);
			cell(out, "metric", mi->name);
			cell(out, NULL, what);
			side(out, compare_fmt_row_variant(name, sizeof(name), t, r), &r->var, r->method);
			cell(out, "num", compare_fmt_diff(buf, sizeof(buf), r, HTML_NUM_WIDTH));
			cell(out, "num", compare_fmt_ci(buf, sizeof(buf), r, HTML_NUM_WIDTH));
			cell(out, "num", compare_fmt_p(buf, sizeof(buf), r->p));
			cell(out, "num", compare_fmt_p(buf, sizeof(buf), r->p_adj));
			cell(out, "num", compare_fmt_mde(buf, sizeof(buf), r, HTML_NUM_WIDTH));
			cell(out, "num", compare_fmt_margin(buf, sizeof(buf), r, HTML_NUM_WIDTH));
			num(out, r->noise);
			cell(out, compare_verdict_info(r->verdict)->css_class,
			     compare_fmt_verdict(buf, sizeof(buf), r));
			fputs("</tr>\n", out);
		}
	}
	fputs("</table></div>\n<ul class=\"notes\">", out);
	compare_fmt_notes(t, emit_note, out);
	fputs("\n</ul>\n", out);
	return ferror(out) ? -EIO : 0;
}
