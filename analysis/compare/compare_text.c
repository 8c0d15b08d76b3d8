/* compare_text.c - the default, terminal-friendly format (80 columns).
 *
 * One block per metric: a header line, then per variant two aligned lines,
 * the first with what decides (centre, spread, diff, CI, p-adj, verdict),
 * the second with the supporting numbers (the other centre and spread, the
 * raw p, the MDE and the A/A noise). The baseline comes first. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare_fmt.h"

#define TEXT_COLUMNS 80
#define VARIANT_WIDTH 9	/* in a column of 10: always a blank after */
#define NUM_WIDTH 7	/* centre, spread, MDE, A/A */
#define DIFF_WIDTH 5	/* diff number and CI ends */
/* indent, variant, n, centre, spread, diff, CI, p: then the verdict */
#define ROW_FORMAT "  %-10s%6s%8s%8s%10s%14s%7s"

/* Prints LINE without trailing blanks (padding of empty last columns). */
static void put_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* Copies S with control characters (tab, newline, ...) as '?': a name
 * must not break the layout. Cut to fit SIZE. */
static const char *printable(char *buf, size_t size, const char *s)
{
	size_t i = 0;

	for (; s[i] && i + 1 < size; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

static const char *variant_cell(char *buf, size_t size, const char *name)
{
	char clean[VARIANT_WIDTH + 2];

	printable(clean, sizeof(clean), name);
	if (strlen(name) <= VARIANT_WIDTH)
		snprintf(buf, size, "%s", clean);
	else	/* cut, and say so */
		snprintf(buf, size, "%.*s~", VARIANT_WIDTH - 1, clean);
	return buf;
}

static const char *spread_name(enum stats_centre centre)
{
	return centre == STATS_MEDIAN ? "IQR" : "sd";
}

static void print_metric_header(FILE *out, const struct compare_metric_info *m)
{
	char tail[TEXT_COLUMNS + 1], unit[16], name[TEXT_COLUMNS + 1];
	int room;

	snprintf(tail, sizeof(tail), "  [%s] %s; diff of %ss",
		 *m->unit ? printable(unit, sizeof(unit), m->unit) : "-",
		 metric_better_text(m->better), compare_centre_name(m->centre));
	room = TEXT_COLUMNS - (int)strlen(tail);
	printable(name, sizeof(name), m->name);
	if ((int)strlen(name) <= room)
		fprintf(out, "%s%s\n", name, tail);
	else	/* cut, and say so */
		fprintf(out, "%.*s~%s\n", room - 1, name, tail);
}

static void print_column_heads(FILE *out, const struct compare_table *t,
			       enum stats_centre centre)
{
	enum stats_centre other = centre == STATS_MEDIAN ? STATS_MEAN : STATS_MEDIAN;
	char line[256], ci[32];

	snprintf(ci, sizeof(ci), "%g%% CI", 100.0 * t->opts.ci_level);
	snprintf(line, sizeof(line), ROW_FORMAT "  %s", "variant", "n",
		 compare_centre_name(centre), spread_name(centre), "diff", ci,
		 "p-adj", "verdict");
	put_line(out, line);
	snprintf(line, sizeof(line), ROW_FORMAT, "", "", compare_centre_name(other),
		 spread_name(other), "p", "MDE", "A/A");
	put_line(out, line);
}

/* The side's centre and spread for the first (MAIN) or second line. */
static void side_numbers(const struct compare_side *s, enum stats_centre centre,
			 bool main, char *c, char *sp, size_t size)
{
	bool median = (centre == STATS_MEDIAN) == main;

	compare_fmt_num(c, size, median ? s->median : s->mean, NUM_WIDTH, false);
	compare_fmt_num(sp, size, median ? s->iqr : s->sd, NUM_WIDTH, false);
}

static void print_baseline(FILE *out, const struct compare_side *s,
			   enum stats_centre centre)
{
	char line[256], name[32], n[32], c[32], sp[32];

	side_numbers(s, centre, true, c, sp, sizeof(c));
	snprintf(line, sizeof(line), ROW_FORMAT, variant_cell(name, sizeof(name),
		 s->variant), compare_fmt_n(n, sizeof(n), s), c, sp, "", "", "");
	put_line(out, line);
	side_numbers(s, centre, false, c, sp, sizeof(c));
	snprintf(line, sizeof(line), ROW_FORMAT, "", "", c, sp, "", "", "");
	put_line(out, line);
}

static const char *verdict_colour(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_BETTER:       return "\033[32m";	/* green */
	case VERDICT_WORSE:        return "\033[31m";	/* red */
	case VERDICT_DIFFERS:      return "\033[33m";	/* yellow */
	case VERDICT_INCONCLUSIVE: return "\033[2m";	/* dim */
	case VERDICT_NO_DIFFERENCE: break;
	}
	return NULL;
}

static void print_row_main(FILE *out, const struct compare_row *r,
			   enum stats_centre centre, bool colour)
{
	const char *on = colour ? verdict_colour(r->verdict) : NULL;
	char line[256], name[32], n[32], c[32], sp[32], diff[32], ci[48], p[16];

	side_numbers(&r->var, centre, true, c, sp, sizeof(c));
	snprintf(line, sizeof(line), ROW_FORMAT "  %s%s%s",
		 variant_cell(name, sizeof(name), r->var.variant),
		 compare_fmt_n(n, sizeof(n), &r->var), c, sp,
		 compare_fmt_diff(diff, sizeof(diff), r, DIFF_WIDTH),
		 compare_fmt_ci(ci, sizeof(ci), r, DIFF_WIDTH),
		 compare_fmt_p(p, sizeof(p), r->p_adj), on ? on : "",
		 compare_verdict_word(r->verdict), on ? "\033[0m" : "");
	put_line(out, line);
}

static void print_row_detail(FILE *out, const struct compare_row *r,
			     enum stats_centre centre)
{
	char line[256], c[32], sp[32], p[16], mde[32], noise[32];

	side_numbers(&r->var, centre, false, c, sp, sizeof(c));
	snprintf(line, sizeof(line), ROW_FORMAT, "", "", c, sp,
		 compare_fmt_p(p, sizeof(p), r->p),
		 compare_fmt_num(mde, sizeof(mde), r->mde, NUM_WIDTH, false),
		 compare_fmt_num(noise, sizeof(noise), r->noise, 6, false));
	put_line(out, line);
}

static void print_metric(FILE *out, const struct compare_table *t, size_t m,
			 bool colour)
{
	const struct compare_metric_info *info = &t->metrics[m];

	print_metric_header(out, info);
	print_column_heads(out, t, info->centre);
	print_baseline(out, &info->base, info->centre);
	for (size_t i = 0; i < t->n_rows; i++) {
		if (t->rows[i].metric != m)
			continue;
		print_row_main(out, &t->rows[i], info->centre, colour);
		print_row_detail(out, &t->rows[i], info->centre);
	}
	fprintf(out, "\n");
}

static void emit_note(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

int compare_format_text(FILE *out, const struct compare_table *t, bool colour)
{
	char base[TEXT_COLUMNS / 2];

	fprintf(out, "baseline %s: %zu metrics, %zu comparisons, %zu tests\n\n",
		printable(base, sizeof(base), t->baseline ? t->baseline : "-"),
		t->n_metrics, t->n_rows, t->n_tests);
	for (size_t m = 0; m < t->n_metrics; m++)
		print_metric(out, t, m, colour);
	compare_fmt_notes(t, emit_note, out);
	return ferror(out) ? -EIO : 0;
}
