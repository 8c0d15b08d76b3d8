/* compare_csv.c - one line per comparison row, RFC 4180. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "common/csv.h"
#include "compare_fmt.h"

/* Undefined numbers are empty fields. */
static void put_num(FILE *out, double x)
{
	fputc(',', out);
	if (isfinite(x))
		fprintf(out, "%.10g", x);
}

static void put_count(FILE *out, size_t n)
{
	fprintf(out, ",%zu", n);
}

/* An infinite MDE (nothing detectable) is written "inf". */
static void put_mde(FILE *out, double x)
{
	if (isinf(x))
		fputs(",inf", out);
	else
		put_num(out, x);
}

static const char *const header[] = {
	"metric", "unit", "kind", "better", "method", "test", "variant", "baseline",
	"n_base", "n_other_base", "n", "n_other",
	"centre_base", "centre", "median_base", "median", "mean_base", "mean",
	"sd_base", "sd", "diff", "scale", "ci_lo", "ci_hi", "eq_lo", "eq_hi", "margin",
	"exact", "p", "p_adj", "level", "mde", "aa_noise", "within_noise", "verdict", "why",
	"clock",
};

static void put_header(FILE *out)
{
	for (size_t i = 0; i < sizeof(header) / sizeof(header[0]); i++)
		csv_put_field(out, header[i], i == 0);
	fputs("\r\n", out);
}

static void put_row(FILE *out, const struct compare_table *t,
		    const struct compare_row *r)
{
	const struct compare_metric_info *m = &t->metrics[r->metric];
	char clock[256];

	csv_put_field(out, m->name, true);
	csv_put_field(out, m->unit, false);
	csv_put_field(out, metric_kind_name(m->kind), false);
	csv_put_field(out, metric_better_text(m->better), false);
	csv_put_field(out, compare_method_key(r->method), false);
	csv_put_field(out, compare_test_name(r->method, r->parametric), false);
	csv_put_field(out, r->var.variant, false);
	csv_put_field(out, r->base.variant, false);
	put_count(out, r->base.n);
	put_count(out, r->base.n_other);
	put_count(out, r->var.n);
	put_count(out, r->var.n_other);
	put_num(out, r->base.centre);
	put_num(out, r->var.centre);
	put_num(out, r->base.median);
	put_num(out, r->var.median);
	put_num(out, r->base.mean);
	put_num(out, r->var.mean);
	put_num(out, r->base.sd);
	put_num(out, r->var.sd);
	put_num(out, r->diff);
	csv_put_field(out, compare_scale_key(r->scale), false);
	put_num(out, r->ci_lo);
	put_num(out, r->ci_hi);
	put_num(out, r->eq_lo);
	put_num(out, r->eq_hi);
	put_num(out, r->margin);
	csv_put_field(out, r->exact ? "true" : "false", false);
	put_num(out, r->p);
	put_num(out, r->p_adj);
	put_num(out, r->level);
	put_mde(out, r->mde);
	put_num(out, r->noise);
	csv_put_field(out, r->within_noise ? "true" : "false", false);
	csv_put_field(out, compare_verdict_word(r->verdict), false);
	csv_put_field(out, r->why ? r->why : "", false);
	/* a table built without a clock (not from a run) has an empty one */
	csv_put_field(out, t->clock.name ? compare_fmt_clock(clock, sizeof(clock), &t->clock) : "",
		      false);
	fputs("\r\n", out);
}

int compare_format_csv(FILE *out, const struct compare_table *t)
{
	put_header(out);
	for (size_t i = 0; i < t->n_rows; i++)
		put_row(out, t, &t->rows[i]);
	return ferror(out) ? -EIO : 0;
}
