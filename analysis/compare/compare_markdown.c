/* compare_markdown.c - one GitHub-flavoured Markdown table, notes below. */
#include <errno.h>
#include <stdio.h>

#include "compare_fmt.h"

#define MD_NUM_WIDTH 9

/* Escapes what Markdown would act on: '|' ends a cell, * _ ` ~ format,
 * a line break ends the row, and < > & are HTML (a guest's <script>), as
 * entities; other control characters as '?'. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<' || *s == '>' || *s == '&') {
			fputs(*s == '<' ? "&lt;" : *s == '>' ? "&gt;" : "&amp;", out);
			continue;
		}
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`' ||
		    *s == '~')
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' ? ' ' : (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s,
		      out);
	}
}

static void put_cell_text(FILE *out, const char *s)
{
	fputs("| ", out);
	put_escaped(out, s);
	fputc(' ', out);
}

static void put_cell_num(FILE *out, double x)
{
	char buf[32];

	put_cell_text(out, compare_fmt_num(buf, sizeof(buf), x, MD_NUM_WIDTH, false));
}

static void put_side(FILE *out, const char *label, const struct compare_side *s,
		     enum compare_method method)
{
	char n[32], c[32];

	put_cell_text(out, label);
	put_cell_text(out, compare_fmt_n(n, sizeof(n), s));
	put_cell_text(out, compare_fmt_centre(c, sizeof(c), s, method, MD_NUM_WIDTH));
	put_cell_num(out, s->sd);
}

static void put_baseline(FILE *out, const struct compare_metric_info *m)
{
	put_cell_text(out, m->name);
	put_side(out, m->base.variant, &m->base, m->method);
	fputs("| | | | | | | | baseline |\n", out);
}

static void put_row(FILE *out, const struct compare_table *t,
		    const struct compare_row *r)
{
	char buf[160], name[1024];

	put_cell_text(out, t->metrics[r->metric].name);
	put_side(out, compare_fmt_row_variant(name, sizeof(name), t, r), &r->var, r->method);
	put_cell_text(out, compare_fmt_diff(buf, sizeof(buf), r, MD_NUM_WIDTH));
	put_cell_text(out, compare_fmt_ci(buf, sizeof(buf), r, MD_NUM_WIDTH));
	put_cell_text(out, compare_fmt_p(buf, sizeof(buf), r->p));
	put_cell_text(out, compare_fmt_p(buf, sizeof(buf), r->p_adj));
	put_cell_text(out, compare_fmt_mde(buf, sizeof(buf), r, MD_NUM_WIDTH));
	put_cell_text(out, compare_fmt_margin(buf, sizeof(buf), r, MD_NUM_WIDTH));
	put_cell_num(out, r->noise);
	put_cell_text(out, compare_fmt_verdict(buf, sizeof(buf), r));
	fputs("|\n", out);
}

static void emit_note(void *ctx, const char *line)
{
	/* continuation lines start with blanks; join them to the bullet */
	fprintf(ctx, "%s%s", line[0] == ' ' ? " " : "\n- ", line[0] == ' ' ? line + 2 : line);
}

int compare_format_markdown(FILE *out, const struct compare_table *t)
{
	char clock[256];

	fputs("Baseline: ", out);
	put_escaped(out, t->baseline ? t->baseline : "-");
	if (t->clock.name) {
		fputs("\n\nClock of every group: ", out);
		put_escaped(out, compare_fmt_clock(clock, sizeof(clock), &t->clock));
		if (t->clock.meaning) {
			fputs(": ", out);
			put_escaped(out, t->clock.meaning);
		}
	}
	fprintf(out, "\n\n| metric | variant | n | centre | sd | diff | "
		"%g%% CI | p | p-adj | MDE | margin | A/A | verdict |\n", 100.0 * t->opts.ci_level);
	fputs("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n", out);
	for (size_t m = 0; m < t->n_metrics; m++) {
		put_baseline(out, &t->metrics[m]);
		for (size_t i = 0; i < t->n_rows; i++)
			if (t->rows[i].metric == m)
				put_row(out, t, &t->rows[i]);
	}
	compare_fmt_notes(t, emit_note, out);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
