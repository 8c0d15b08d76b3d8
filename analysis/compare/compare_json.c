/* compare_json.c - the table as one JSON object (RFC 8259). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "compare_fmt.h"

/* Quotes S, escaping what JSON requires: quote, backslash and the control
 * characters; other bytes (UTF-8) pass unchanged. */
static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		switch (*c) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*c < 0x20)
				fprintf(out, "\\u%04x", *c);
			else
				fputc(*c, out);
		}
	}
	fputc('"', out);
}

/* JSON has no NaN or infinity: undefined numbers are null. */
static void put_number(FILE *out, double x)
{
	if (isfinite(x))
		fprintf(out, "%.10g", x);
	else
		fputs("null", out);
}

static void put_key(FILE *out, const char *key, bool first)
{
	if (!first)
		fputc(',', out);
	put_string(out, key);
	fputc(':', out);
}

static void put_num_field(FILE *out, const char *key, double x, bool first)
{
	put_key(out, key, first);
	put_number(out, x);
}

static void put_str_field(FILE *out, const char *key, const char *s, bool first)
{
	put_key(out, key, first);
	if (s)
		put_string(out, s);
	else
		fputs("null", out);
}

static void put_bool_field(FILE *out, const char *key, bool b)
{
	put_key(out, key, false);
	fputs(b ? "true" : "false", out);
}

static void put_side(FILE *out, const char *key, const struct compare_side *s)
{
	put_key(out, key, false);
	fputc('{', out);
	put_str_field(out, "variant", s->variant, true);
	fprintf(out, ",\"n\":%zu,\"n_other\":%zu", s->n, s->n_other);
	put_num_field(out, "median", s->median, false);
	put_num_field(out, "mean", s->mean, false);
	put_num_field(out, "iqr", s->iqr, false);
	put_num_field(out, "sd", s->sd, false);
	fputc('}', out);
}

static void put_options(FILE *out, const struct compare_options *o)
{
	put_key(out, "options", false);
	fputc('{', out);
	put_num_field(out, "alpha", o->alpha, true);
	put_num_field(out, "power", o->power, false);
	put_num_field(out, "ci_level", o->ci_level, false);
	fprintf(out, ",\"bootstrap_iterations\":%zu,\"seed\":%lu,\"min_trials\":%zu}",
		o->iterations, o->seed, o->min_trials);
}

static const char *better_word(enum metric_better b)
{
	return b == BETTER_LOWER ? "lower" : b == BETTER_HIGHER ? "higher" : "neither";
}

static void put_metric(FILE *out, const struct compare_metric_info *m, bool first)
{
	if (!first)
		fputc(',', out);
	fputc('{', out);
	put_str_field(out, "name", m->name, true);
	put_str_field(out, "unit", m->unit, false);
	put_str_field(out, "kind", metric_kind_name(m->kind), false);
	put_str_field(out, "better", better_word(m->better), false);
	put_str_field(out, "centre", compare_centre_name(m->centre), false);
	put_side(out, "baseline", &m->base);
	fputc('}', out);
}

static void put_row(FILE *out, const struct compare_table *t,
		    const struct compare_row *r, bool first)
{
	if (!first)
		fputc(',', out);
	fputc('{', out);
	put_str_field(out, "metric", t->metrics[r->metric].name, true);
	put_str_field(out, "variant", r->var.variant, false);
	put_side(out, "baseline_stats", &r->base);
	put_side(out, "variant_stats", &r->var);
	put_num_field(out, "diff", r->diff, false);
	put_str_field(out, "diff_unit", r->absolute ? "absolute" : "percent", false);
	put_num_field(out, "ci_lo", r->ci_lo, false);
	put_num_field(out, "ci_hi", r->ci_hi, false);
	put_str_field(out, "test", compare_test_name(r->test), false);
	put_bool_field(out, "exact", r->exact);
	put_num_field(out, "p", r->p, false);
	put_num_field(out, "p_adj", r->p_adj, false);
	put_num_field(out, "mde", r->mde, false);
	put_num_field(out, "aa_noise", r->noise, false);
	put_bool_field(out, "within_noise", r->within_noise);
	put_str_field(out, "verdict", compare_verdict_word(r->verdict), false);
	put_str_field(out, "why", r->why, false);
	fputc('}', out);
}

int compare_format_json(FILE *out, const struct compare_table *t)
{
	fputc('{', out);
	put_str_field(out, "baseline", t->baseline, true);
	put_options(out, &t->opts);
	fprintf(out, ",\"tests\":%zu", t->n_tests);
	put_key(out, "metrics", false);
	fputc('[', out);
	for (size_t m = 0; m < t->n_metrics; m++)
		put_metric(out, &t->metrics[m], m == 0);
	fputs("],", out);
	put_key(out, "rows", true);
	fputc('[', out);
	for (size_t i = 0; i < t->n_rows; i++)
		put_row(out, t, &t->rows[i], i == 0);
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
