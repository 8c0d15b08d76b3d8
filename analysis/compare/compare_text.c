/* compare_text.c - the default, terminal-friendly format.
 *
 * One block per metric: the metric's name on a line of its own (never cut,
 * however long), what it is below, then per variant two aligned lines: the
 * first with what decides (n, centre, diff, interval, p-adj, verdict), the
 * second with what supports it (sd, MDE, margin, raw p, and the verdict's
 * qualifier or the A/A noise). The baseline comes first. Above the blocks a
 * summary line per variant (compare_summary.h); the blocks in the table's
 * order (compare_order.h: the primary metric's first, then the selftest
 * cases newly failing, then newly passing). Variant names are
 * never cut either: the variant column is as wide as the longest name, and
 * when that would push a line past 80 columns each name goes on a line of
 * its own above its numbers. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_fmt.h"
#include "compare_summary.h"

#define TEXT_COLUMNS 80
#define NUM_WIDTH 7	/* centre, sd */
#define DIFF_WIDTH 5	/* diff number and interval ends */
/* n, centre, diff, interval, p: the columns after the variant's */
#define NUMBERS_FORMAT "%5s%9s%10s%16s%7s"
#define NUMBERS_WIDTH (5 + 9 + 10 + 16 + 7)

struct layout {
	int variant_width;	/* 0: names on lines of their own */
	const char *indent;
};

/* Prints LINE without trailing blanks (padding of empty last columns). */
static void put_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* S with control characters (tab, newline, ...) as '?': a name must not
 * break the layout. Never cut: BUF must hold all of S. */
/* What the verdict column needs: its longest word ("not detected"). */
static int verdict_room(void)
{
	size_t room = 0;

	for (int v = 0; v < VERDICT_COUNT; v++)
		if (strlen(compare_verdict_word(v)) > room)
			room = strlen(compare_verdict_word(v));
	return (int)room;
}

static struct layout layout_for(const struct compare_table *t)
{
	size_t longest = strlen("variant");

	if (t->baseline && strlen(t->baseline) > longest)
		longest = strlen(t->baseline);
	for (size_t i = 0; i < t->n_rows; i++) {
		char name[1024];

		compare_fmt_row_variant(name, sizeof(name), t, &t->rows[i]);
		if (strlen(name) > longest)
			longest = strlen(name);
	}
	if (2 + (int)longest + 1 + NUMBERS_WIDTH + 2 + verdict_room() <= TEXT_COLUMNS)
		return (struct layout){ (int)longest + 1, "  " };
	return (struct layout){ 0, "    " };
}

static void print_metric_header(FILE *out, const struct compare_metric_info *m)
{
	char name[1024], unit[64];

	compare_fmt_printable(name, sizeof(name), m->name);
	compare_fmt_printable(unit, sizeof(unit), *m->unit ? m->unit : "-");
	fprintf(out, "%s\n  [%s] %s; %s, %s\n", name, unit, metric_better_text(m->better),
		metric_kind_name(m->kind), compare_test_name(m->method, m->parametric));
}

/* Columns ANSI colour codes do not take. */
static size_t visible_width(const char *s)
{
	size_t width = 0;

	for (; *s; s++) {
		if (*s == '\033') {
			while (*s && *s != 'm')
				s++;
			if (!*s)
				break;
			continue;
		}
		width++;
	}
	return width;
}

/* One line: the variant cell (or nothing in the narrow layout), the
 * numbers, then TAIL; a tail that would pass 80 columns goes on a line of
 * its own below. */
static void print_cells(FILE *out, const struct layout *l, const char *variant,
			const char *c1, const char *c2, const char *c3, const char *c4,
			const char *c5, const char *tail)
{
	char line[2048], name[1024];

	snprintf(line, sizeof(line), "%s%-*s" NUMBERS_FORMAT "  %s", l->indent,
		 l->variant_width, l->variant_width ? compare_fmt_printable(name, sizeof(name), variant) : "",
		 c1, c2, c3, c4, c5, tail);
	if (visible_width(line) <= TEXT_COLUMNS || !*tail) {
		put_line(out, line);
		return;
	}
	snprintf(line, sizeof(line), "%s%-*s" NUMBERS_FORMAT, l->indent, l->variant_width,
		 l->variant_width ? compare_fmt_printable(name, sizeof(name), variant) : "", c1, c2, c3, c4, c5);
	put_line(out, line);
	snprintf(line, sizeof(line), "%s      %s", l->indent, tail);
	put_line(out, line);
}

/* In the narrow layout, a variant's name on its own line. */
static void print_name_line(FILE *out, const struct layout *l, const char *variant)
{
	char name[1024];

	if (!l->variant_width)
		fprintf(out, "  %s\n", compare_fmt_printable(name, sizeof(name), variant));
}

static void print_column_heads(FILE *out, const struct layout *l, const struct compare_table *t,
			       const struct compare_metric_info *m)
{
	char ci[32];

	snprintf(ci, sizeof(ci), "%g%% CI", 100.0 * t->opts.ci_level);
	print_cells(out, l, "variant", "n", compare_centre_name(m->method), "diff", ci, "p-adj",
		    "verdict");
	print_cells(out, l, "", "", "sd", "MDE", "margin", "p", t->has_noise ? "A/A" : "");
}

static void print_baseline(FILE *out, const struct layout *l, const struct compare_side *s,
			   enum compare_method method)
{
	char n[32], c[32], sd[32];

	print_name_line(out, l, s->variant);
	print_cells(out, l, s->variant, compare_fmt_n(n, sizeof(n), s),
		    compare_fmt_centre(c, sizeof(c), s, method, NUM_WIDTH), "", "", "", "baseline");
	print_cells(out, l, "", "", compare_fmt_num(sd, sizeof(sd), s->sd, NUM_WIDTH, false), "", "",
		    "", "");
}

/* What the second line ends with: why a verdict is what it is, else the
 * A/A noise. */
static void row_tail(char *buf, size_t size, const struct compare_row *r)
{
	char noise[32], what[48];

	switch (compare_verdict_info(r->verdict)->detail) {
	case VERDICT_DETAIL_MDE:
		snprintf(buf, size, "could miss %s%s%s", compare_fmt_mde(what, sizeof(what), r, 5),
			 r->why ? "; " : "", r->why ? r->why : "");
		break;
	case VERDICT_DETAIL_WHY:
		snprintf(buf, size, "%s", r->why ? r->why : "no test");
		break;
	case VERDICT_DETAIL_MARGIN:	/* the margin has a column of its own */
	case VERDICT_DETAIL_NONE:
		buf[0] = '\0';
	}
	if (isfinite(r->noise)) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%sA/A %s%s", len ? "; " : "",
			 compare_fmt_num(noise, sizeof(noise), r->noise, 6, false),
			 compare_fmt_scale_suffix(r->scale));
	}
}

static void print_row(FILE *out, const struct layout *l, const struct compare_table *t,
		      const struct compare_row *r, bool colour)
{
	const struct compare_verdict_info *v = compare_verdict_info(r->verdict);
	char n[32], c[32], diff[32], ci[48], p[16], verdict[192], sd[32], mde[32], margin[32];
	char tail[256], name[1024], change[96] = "";

	/* an equivalent row with a change it did find says both on its first line */
	if (r->changed_inside_margin)
		compare_fmt_change(change, sizeof(change), r);
	if (colour && v->sgr)
		snprintf(verdict, sizeof(verdict), "\033[%sm%s\033[0m%s%s%s", v->sgr, v->word,
			 *change ? " (" : "", change, *change ? ")" : "");
	else
		snprintf(verdict, sizeof(verdict), "%s%s%s%s", v->word, *change ? " (" : "", change,
			 *change ? ")" : "");
	compare_fmt_row_variant(name, sizeof(name), t, r);
	print_name_line(out, l, name);
	print_cells(out, l, name, compare_fmt_n(n, sizeof(n), &r->var),
		    compare_fmt_centre(c, sizeof(c), &r->var, r->method, NUM_WIDTH),
		    compare_fmt_diff(diff, sizeof(diff), r, DIFF_WIDTH),
		    compare_fmt_ci(ci, sizeof(ci), r, DIFF_WIDTH),
		    compare_fmt_p(p, sizeof(p), r->p_adj), verdict);
	row_tail(tail, sizeof(tail), r);
	print_cells(out, l, "", "", compare_fmt_num(sd, sizeof(sd), r->var.sd, NUM_WIDTH, false),
		    compare_fmt_mde(mde, sizeof(mde), r, DIFF_WIDTH),
		    compare_fmt_margin(margin, sizeof(margin), r, DIFF_WIDTH),
		    compare_fmt_p(p, sizeof(p), r->p), tail);
}

static void print_metric(FILE *out, const struct layout *l, const struct compare_table *t,
			 size_t m, bool colour)
{
	const struct compare_metric_info *info = &t->metrics[m];

	print_metric_header(out, info);
	print_column_heads(out, l, t, info);
	print_baseline(out, l, &info->base, info->method);
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].metric == m)
			print_row(out, l, t, &t->rows[i], colour);
	fprintf(out, "\n");
}

static void emit_note(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

/* A summary line in 80 columns where it can be: cut after a "; ", else at a
 * blank, the rest indented by two; a word longer than the line (a name) is
 * never cut. */
static void emit_wrapped(void *ctx, const char *line)
{
	FILE *out = ctx;
	const char *indent = "";

	while (strlen(indent) + strlen(line) > TEXT_COLUMNS) {
		size_t room = TEXT_COLUMNS - strlen(indent), cut = 0, len = strlen(line);

		for (size_t i = 0; i + 1 < len && i < room; i++)
			if (line[i] == ';' && line[i + 1] == ' ')
				cut = i + 1;
		if (!cut)	/* the last blank that leaves the piece before it in the room */
			for (size_t i = 1; i <= room && i < len; i++)
				if (line[i] == ' ')
					cut = i;
		if (!cut)
			cut = strcspn(line, " ");
		if (!line[cut])
			break;
		fprintf(out, "%s%.*s\n", indent, (int)cut, line);
		line += cut;
		while (*line == ' ')
			line++;
		indent = "  ";
	}
	fprintf(out, "%s%s\n", indent, line);
}

int compare_format_text(FILE *out, const struct compare_table *t, bool colour)
{
	struct layout l = layout_for(t);
	char base[1024];

	char clock[256];

	fprintf(out, "baseline %s: %zu metrics, %zu comparisons, %zu tests\n",
		compare_fmt_printable(base, sizeof(base), t->baseline ? t->baseline : "-"),
		t->n_metrics, t->n_rows, t->n_tests);
	compare_summary(t, emit_wrapped, out);
	if (t->clock.name)
		fprintf(out, "clock of every group: %s\n%s%s%s",
			compare_fmt_clock(clock, sizeof(clock), &t->clock),
			t->clock.meaning ? "  " : "", t->clock.meaning ? t->clock.meaning : "",
			t->clock.meaning ? "\n" : "");
	fputc('\n', out);
	for (size_t m = 0; m < t->n_metrics; m++)
		print_metric(out, &l, t, m, colour);
	compare_fmt_notes(t, emit_note, out);
	return ferror(out) ? -EIO : 0;
}
