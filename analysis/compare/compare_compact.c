/* compare_compact.c - one line per metric, the kernels as columns (compare.h).
 *
 * As mmtests' compare table has it: the metric, the baseline's centre, then
 * for each other variant its centre, its difference and the verdict's word.
 * For three or more variants the full text table repeats each metric's block
 * once per variant; this is the overview a reader scans first. Widths come
 * from the cells, so nothing is cut. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_fmt.h"
#include "common/util.h"

#define CENTRE_WIDTH 7
#define DIFF_WIDTH 5

/* The columns: the baseline, then each variant in the rows' order. */
static size_t variant_columns(const struct compare_table *t, const char **names)
{
	size_t n = 0;
	for (size_t k = 0; k < t->n_rows; k++) {
		const char *v = t->rows[k].var.variant;
		size_t i = 0;
		while (i < n && strcmp(names[i], v))
			i++;
		if (i == n)
			names[n++] = v;
	}
	return n;
}

static const struct compare_row *row_of(const struct compare_table *t, size_t metric, const char *variant)
{
	for (size_t k = 0; k < t->n_rows; k++)
		if (t->rows[k].metric == metric && !strcmp(t->rows[k].var.variant, variant))
			return &t->rows[k];
	return NULL;
}

/* The cell of ROW: "6/6 +100pp worse", "-" when the variant has no row. */
static char *cell(const struct compare_table *t, const struct compare_row *row)
{
	if (!row)
		return xstrdup("-");
	char centre[32], diff[48];
	compare_fmt_centre(centre, sizeof(centre), &row->var, t->metrics[row->metric].method, CENTRE_WIDTH);
	compare_fmt_diff(diff, sizeof(diff), row, DIFF_WIDTH);
	return xasprintf("%s %s %s", centre, diff, compare_verdict_word(row->verdict));
}

static size_t widest(size_t w, const char *s)
{
	size_t n = strlen(s);
	return n > w ? n : w;
}

size_t compare_table_variants(const struct compare_table *t)
{
	const char **names = xcalloc(t->n_rows + 1, sizeof(*names));
	size_t n = variant_columns(t, names);
	free(names);
	return n;
}

int compare_format_compact(FILE *out, const struct compare_table *t)
{
	const char **names = xcalloc(t->n_rows + 1, sizeof(*names));
	size_t n_var = variant_columns(t, names), cols = n_var + 2;
	char **cells = xcalloc((t->n_metrics + 1) * cols, sizeof(*cells));
	size_t *width = xcalloc(cols, sizeof(*width));
	cells[0] = xstrdup("metric");
	cells[1] = xstrdup(t->baseline ? t->baseline : "baseline");
	for (size_t v = 0; v < n_var; v++)
		cells[2 + v] = xstrdup(names[v]);
	for (size_t m = 0; m < t->n_metrics; m++) {
		char **line = cells + (m + 1) * cols, centre[32];
		line[0] = xstrdup(t->metrics[m].name);
		compare_fmt_centre(centre, sizeof(centre), &t->metrics[m].base, t->metrics[m].method,
				   CENTRE_WIDTH);
		line[1] = xstrdup(centre);
		for (size_t v = 0; v < n_var; v++)
			line[2 + v] = cell(t, row_of(t, m, names[v]));
	}
	for (size_t i = 0; i < (t->n_metrics + 1) * cols; i++)
		width[i % cols] = widest(width[i % cols], cells[i]);
	for (size_t m = 0; m <= t->n_metrics; m++) {
		char **line = cells + m * cols;
		for (size_t c = 0; c < cols; c++) {
			bool last = c + 1 == cols;
			fprintf(out, c ? "  %*s" : "%-*s", last && c ? 0 : (int)width[c], line[c]);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < (t->n_metrics + 1) * cols; i++)
		free(cells[i]);
	free(cells);
	free(width);
	free(names);
	return ferror(out) ? -EIO : 0;
}
