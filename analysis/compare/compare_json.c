/* compare_json.c - the table as one JSON object (RFC 8259, via jansson). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <jansson.h>

#include "compare_fmt.h"
#include "compare_summary.h"

/* JSON has no NaN or infinity: undefined numbers are null; an MDE of
 * "nothing detectable" is null too, with "detectable": false beside it. */
static json_t *number(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *text(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *side(const struct compare_side *s, enum compare_method method)
{
	json_t *o = json_pack("{s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			      "variant", text(s->variant), "n", (json_int_t)s->n,
			      "n_other", (json_int_t)s->n_other, "centre", number(s->centre),
			      "median", number(s->median), "mean", number(s->mean),
			      "iqr", number(s->iqr), "sd", number(s->sd));

	if (o && method == COMPARE_SHARES)
		json_object_set_new(o, "yes", json_integer((json_int_t)s->yes));
	return o;
}

static json_t *margin(const struct compare_margin *m)
{
	if (isnan(m->value))
		return json_null();
	return json_pack("{s:f, s:s}", "value", m->value, "of", m->relative ? "%" : "unit");
}

static json_t *options(const struct compare_table *t)
{
	const struct compare_options *o = &t->opts;
	json_t *seq = o->seq_max ? json_pack("{s:I, s:I, s:I, s:s}", "first_look",
					     (json_int_t)o->min_trials, "max_trials",
					     (json_int_t)o->seq_max, "look", (json_int_t)t->look_n,
					     "spending", "O'Brien-Fleming (Lan-DeMets)")
				 : json_null();

	json_t *opts = json_pack("{s:f, s:f, s:f, s:f, s:o, s:{s:I, s:I, s:I}, s:I, s:o}",
			 "alpha", o->alpha, "power", o->power, "ci_level", o->ci_level,
			 "equivalence_level", 1.0 - 2.0 * o->alpha, "margin", margin(&o->margin),
			 "permutation", "seed", (json_int_t)o->perm.seed, "max_exact",
			 (json_int_t)o->perm.max_exact, "resamples", (json_int_t)o->perm.resamples,
			 "min_trials", (json_int_t)o->min_trials, "sequential", seq);

	/* only with a primary: a table without one is as it always was */
	if (opts && t->primary)
		json_object_set_new(opts, "gatekeeping",
				    json_pack("{s:s, s:I, s:I, s:b}", "primary", t->primary,
					      "primary_tests", (json_int_t)t->n_primary_tests,
					      "other_tests",
					      (json_int_t)(t->n_tests - t->n_primary_tests),
					      "gate_open", t->gate_open));
	return opts;
}

static json_t *metric(const struct compare_metric_info *m)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "name", m->name,
			 "unit", m->unit, "kind", metric_kind_name(m->kind), "better",
			 metric_better_word(m->better), "method", compare_method_key(m->method), "test",
			 compare_test_name(m->method, m->parametric), "centre", compare_centre_name(m->method),
			 "margin", margin(&m->margin), "baseline", side(&m->base, m->method));
}

static json_t *row(const struct compare_table *t, const struct compare_row *r)
{
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:s, s:s, s:s}",
			      "metric", t->metrics[r->metric].name, "variant", r->var.variant,
			      "baseline_stats", side(&r->base, r->method),
			      "variant_stats", side(&r->var, r->method),
			      "method", compare_method_key(r->method),
			      "test", compare_test_name(r->method, r->parametric),
			      "scale", compare_scale_key(r->scale));

	if (!o)
		return NULL;
	json_object_set_new(o, "diff", number(r->diff));
	json_object_set_new(o, "ci_lo", number(r->ci_lo));
	json_object_set_new(o, "ci_hi", number(r->ci_hi));
	json_object_set_new(o, "eq_lo", number(r->eq_lo));
	json_object_set_new(o, "eq_hi", number(r->eq_hi));
	json_object_set_new(o, "margin", number(r->margin));
	json_object_set_new(o, "exact", json_boolean(r->exact));
	json_object_set_new(o, "p", number(r->p));
	json_object_set_new(o, "p_adj", number(r->p_adj));
	json_object_set_new(o, "level", number(r->level));
	json_object_set_new(o, "mde", number(r->mde));
	json_object_set_new(o, "detectable", json_boolean(!isinf(r->mde)));
	json_object_set_new(o, "aa_noise", number(r->noise));
	json_object_set_new(o, "within_noise", json_boolean(r->within_noise));
	json_object_set_new(o, "verdict", json_string(compare_verdict_word(r->verdict)));
	json_object_set_new(o, "decided", json_boolean(compare_verdict_decided(r->verdict)));
	json_object_set_new(o, "why", text(r->why));
	json_object_set_new(o, "equivalent_excludes_zero", json_boolean(r->changed_inside_margin));
	char claim[160];
	json_object_set_new(o, "claim", json_string(compare_fmt_verdict(claim, sizeof(claim), r)));
	return o;
}

static json_t *clock(const struct compare_clock *c)
{
	if (!c->name)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:i}", "name", c->name, "settings",
			 c->settings ? c->settings : "", "meaning", text(c->meaning), "trials_at_once",
			 c->trials_at_once > 1 ? (int)c->trials_at_once : 1);
}

static void add_line(void *ctx, const char *line)
{
	json_array_append_new(ctx, json_string(line));
}

int compare_format_json(FILE *out, const struct compare_table *t)
{
	json_t *metrics = json_array(), *rows = json_array(), *doc;
	int rc;

	for (size_t m = 0; m < t->n_metrics; m++)
		json_array_append_new(metrics, metric(&t->metrics[m]));
	for (size_t i = 0; i < t->n_rows; i++)
		json_array_append_new(rows, row(t, &t->rows[i]));
	doc = json_pack("{s:o, s:o, s:o, s:I, s:o, s:o}", "baseline", text(t->baseline),
			"clock", clock(&t->clock), "options", options(t),
			"tests", (json_int_t)t->n_tests, "metrics", metrics, "rows", rows);
	if (!doc)
		return -ENOMEM;
	json_t *summary = json_array();
	compare_summary(t, add_line, summary);
	json_object_set_new(doc, "summary", summary);
	if (t->n_context_notes) {
		json_t *notes = json_array();
		for (size_t i = 0; i < t->n_context_notes; i++)
			json_array_append_new(notes, json_string(t->context_notes[i]));
		json_object_set_new(doc, "notes", notes);
	}
	rc = json_dumpf(doc, out, JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(doc);
	fputc('\n', out);
	return rc == 0 && !ferror(out) ? 0 : -EIO;
}
