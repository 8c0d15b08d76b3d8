/* compare_fmt.c - number formatting and the legend shared by the formatters. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compare_fmt.h"

char *compare_fmt_num(char *buf, size_t size, double x, int width, bool sign)
{
	static const char *const si[] = { "", "k", "M", "G", "T" };
	size_t k = 0;

	if (isnan(x)) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (isinf(x)) {
		snprintf(buf, size, "%s", x > 0 ? (sign ? "+inf" : "inf") : "-inf");
		return buf;
	}
	while (fabs(x) >= 9999.5 && k + 1 < sizeof(si) / sizeof(si[0])) {
		x /= 1000.0;
		k++;
	}
	for (int prec = 4; prec >= 1; prec--) {
		snprintf(buf, size, sign ? "%+.*g%s" : "%.*g%s", prec, x, si[k]);
		if ((int)strlen(buf) <= width)
			return buf;
	}
	/* small numbers near 0 (an interval's end): fewer decimals, not an
	 * exponent: +0.0056 in 5 columns is +0.01, 0.0004 is 0 */
	for (int decimals = width - 3; decimals >= 0; decimals--) {
		snprintf(buf, size, sign ? "%+.*f" : "%.*f", decimals, x);
		if ((int)strlen(buf) <= width && fabs(x) < 1.0)
			return buf;
	}
	snprintf(buf, size, sign ? "%+.0e%s" : "%.0e%s", x, si[k]);
	if ((int)strlen(buf) > width)
		snprintf(buf, size, "#");	/* cannot happen for width >= 7 */
	return buf;
}

char *compare_fmt_p(char *buf, size_t size, double p)
{
	if (isnan(p))
		snprintf(buf, size, "-");
	else if (p < 0.001)
		snprintf(buf, size, "<0.001");
	else
		snprintf(buf, size, "%.3f", p);
	return buf;
}

const char *compare_fmt_scale_suffix(enum compare_scale scale)
{
	switch (scale) {
	case SCALE_PERCENT: return "%";
	case SCALE_POINTS:  return "pp";
	case SCALE_UNIT:    break;
	}
	return "";
}

char *compare_fmt_diff(char *buf, size_t size, const struct compare_row *row, int num_width)
{
	char num[32];

	if (isnan(row->diff)) {
		snprintf(buf, size, "-");
		return buf;
	}
	compare_fmt_num(num, sizeof(num), row->diff, num_width, true);
	snprintf(buf, size, "%s%s%s", row->within_noise ? "~" : "", num,
		 compare_fmt_scale_suffix(row->scale));
	return buf;
}

char *compare_fmt_ci(char *buf, size_t size, const struct compare_row *row, int num_width)
{
	char lo[32], hi[32];

	if (isnan(row->ci_lo) || isnan(row->ci_hi)) {
		snprintf(buf, size, "-");
		return buf;
	}
	snprintf(buf, size, "[%s,%s]",
		 compare_fmt_num(lo, sizeof(lo), row->ci_lo, num_width, true),
		 compare_fmt_num(hi, sizeof(hi), row->ci_hi, num_width, true));
	return buf;
}

static char *plus_minus(char *buf, size_t size, double x, enum compare_scale scale,
			int num_width)
{
	char num[32];

	if (isnan(x))
		snprintf(buf, size, "-");
	else if (isinf(x))
		snprintf(buf, size, "any");
	else
		snprintf(buf, size, "+-%s%s", compare_fmt_num(num, sizeof(num), x, num_width, false),
			 compare_fmt_scale_suffix(scale));
	return buf;
}

char *compare_fmt_mde(char *buf, size_t size, const struct compare_row *row, int num_width)
{
	return plus_minus(buf, size, row->mde, row->scale, num_width);
}

char *compare_fmt_margin(char *buf, size_t size, const struct compare_row *row, int num_width)
{
	return plus_minus(buf, size, row->margin, row->scale, num_width);
}

char *compare_fmt_change(char *buf, size_t size, const struct compare_row *row)
{
	char diff[32], margin[32];

	/* the interval is the row's own 95% one, before the family's correction:
	 * said as such, since the row's test did not find the change */
	snprintf(buf, size, "%s%s inside the %s%s margin, 0 outside its uncorrected 95%% interval",
		 compare_fmt_num(diff, sizeof(diff), row->diff, 6, true),
		 compare_fmt_scale_suffix(row->scale),
		 compare_fmt_num(margin, sizeof(margin), row->margin, 6, false),
		 compare_fmt_scale_suffix(row->scale));
	return buf;
}

char *compare_fmt_result(char *buf, size_t size, const struct compare_row *row)
{
	char claim[160], diff[32], ci[48], p[16];

	snprintf(buf, size, "%s; diff %s %s, p-adj %s", compare_fmt_verdict(claim, sizeof(claim), row),
		 compare_fmt_diff(diff, sizeof(diff), row, 6), compare_fmt_ci(ci, sizeof(ci), row, 6),
		 compare_fmt_p(p, sizeof(p), row->p_adj));
	return buf;
}

char *compare_fmt_detail(char *buf, size_t size, const struct compare_row *row)
{
	char what[32];

	switch (compare_verdict_info(row->verdict)->detail) {
	case VERDICT_DETAIL_MARGIN:
		if (row->changed_inside_margin)
			compare_fmt_change(buf, size, row);
		else
			snprintf(buf, size, "%s", compare_fmt_margin(what, sizeof(what), row, 5));
		break;
	case VERDICT_DETAIL_MDE:
		snprintf(buf, size, "could miss %s", compare_fmt_mde(what, sizeof(what), row, 5));
		break;
	case VERDICT_DETAIL_WHY:
		snprintf(buf, size, "%s", row->why ? row->why : "no test");
		break;
	case VERDICT_DETAIL_NONE:
		snprintf(buf, size, "%s", "");
	}
	return buf;
}

char *compare_fmt_verdict(char *buf, size_t size, const struct compare_row *row)
{
	const char *word = compare_verdict_word(row->verdict);
	char what[128];

	if (*compare_fmt_detail(what, sizeof(what), row))
		snprintf(buf, size, "%s (%s)", word, what);
	else
		snprintf(buf, size, "%s", word);
	return buf;
}

char *compare_fmt_clock(char *buf, size_t size, const struct compare_clock *clock)
{
	char at_once[128] = "";
	/* Under realtime, trials that ran beside each other shared the host's
	 * cores, and so their timings; counts and outcomes did not. */
	if (clock->trials_at_once > 1)
		snprintf(at_once, sizeof(at_once), ", %u trials at a time%s", clock->trials_at_once,
			 clock->name && !strcmp(clock->name, "realtime")
				 ? ": timings shared the host's cores (compare them only with runs at the same -j)"
				 : "");
	if (!clock->name)
		snprintf(buf, size, "-");
	else if (clock->settings && *clock->settings)
		snprintf(buf, size, "%s (%s)%s", clock->name, clock->settings, at_once);
	else
		snprintf(buf, size, "%s%s", clock->name, at_once);
	return buf;
}

char *compare_fmt_n(char *buf, size_t size, const struct compare_side *side)
{
	if (side->n_other)
		snprintf(buf, size, "%zu+%zu", side->n, side->n_other);
	else
		snprintf(buf, size, "%zu", side->n);
	return buf;
}

char *compare_fmt_centre(char *buf, size_t size, const struct compare_side *side,
			 enum compare_method method, int width)
{
	if (method == COMPARE_SHARES && side->n)
		snprintf(buf, size, "%zu/%zu", side->yes, side->n);
	else
		compare_fmt_num(buf, size, side->centre, width, false);
	return buf;
}

struct notes {
	void (*emit)(void *ctx, const char *line);
	void *ctx;
};

static void note(const struct notes *to, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const struct notes *to, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	to->emit(to->ctx, line);
}

static bool any_method(const struct compare_table *t, enum compare_method method)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].method == method)
			return true;
	return false;
}

/* Rows of the log-means or means method whose p comes from Student's t
 * (PARAMETRIC) or from the permutation test (!PARAMETRIC). */
static bool any_t_test(const struct compare_table *t, bool parametric)
{
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct compare_row *r = &t->rows[i];

		if ((r->method == COMPARE_LOG_MEANS || r->method == COMPARE_MEANS) &&
		    r->parametric == parametric)
			return true;
	}
	return false;
}

static bool any_noisy(const struct compare_table *t)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].within_noise)
			return true;
	return false;
}

static void method_notes(const struct compare_table *t, const struct notes *to)
{
	const struct compare_options *o = &t->opts;

	note(to, "Every test takes one value per trial (boot): events inside a boot are");
	note(to, "  not counted as independent samples.");
	if (any_method(t, COMPARE_LOG_MEANS))
		note(to, "geomean rows: ratio of geometric means, Welch t interval on the logs");
	if (any_method(t, COMPARE_MEANS))
		note(to, "mean rows: ratio of means (Fieller interval), or the difference in the "
			 "unit");
	if (any_t_test(t, false)) {
		note(to, "p of %sgeomean and mean rows: permutation test of Welch's t, over every",
		     any_t_test(t, true) ? "the other " : "");
		note(to, "  split up to %zu, else %zu random ones (seed %lu)", o->perm.max_exact,
		     o->perm.resamples, o->perm.seed);
	}
	if (any_t_test(t, true)) {
		note(to, "p of Welch t rows (the experiment's parametric key): Welch's t against");
		note(to, "  Student's t with the Welch-Satterthwaite df, not permutations; their");
		note(to, "  MDE is at the level itself (no permutation steps)");
	}
	if (any_method(t, COMPARE_SHARES))
		note(to, "share rows: trials ok / with an event; diff in percentage points,");
	if (any_method(t, COMPARE_SHARES))
		note(to, "  Newcombe interval, Fisher's exact test");
}

/* The serial gatekeeping rule of a table with a primary metric. */
static void gate_notes(const struct compare_table *t, const struct notes *to)
{
	const struct compare_options *o = &t->opts;
	size_t n1 = t->n_primary_tests, n2 = t->n_tests - t->n_primary_tests;

	note(to, "p-adj: primary %s first at alpha %g (Holm over its %zu row%s), then", t->primary,
	     o->alpha, n1, n1 == 1 ? "" : "s");
	note(to, "  Holm over the other %zu test%s when it is decided (every primary row", n2,
	     n2 == 1 ? "" : "s");
	note(to, "  better, worse or differs); p-adj of those is at least the primary's%s",
	     o->seq_max ? ";" : "");
	if (o->seq_max)
		note(to, "  scaled to the look");
	if (!t->gate_open)
		note(to, "gate closed: the primary was not decided, so the other rows are not tested");
}

static void level_notes(const struct compare_table *t, const struct notes *to)
{
	const struct compare_options *o = &t->opts;

	if (o->seq_max) {
		note(to, "sequential: look at %zu of at most %zu trials a side; levels are the",
		     t->look_n, o->seq_max);
		note(to, "  O'Brien-Fleming boundaries of looks after every round from %zu",
		     o->min_trials);
	}
	if (t->primary)
		gate_notes(t, to);
	else
		note(to, "p-adj: Holm over the %zu tests of this table%s", t->n_tests,
		     o->seq_max ? ", scaled to the look" : "");
	note(to, "MDE: the difference found with power %g at Holm's first level%s", o->power,
	     t->primary ? " of its family" : "");
	if (t->has_noise)
		note(to, "A/A: larger end of the %g%% interval of a variant against its twin",
		     100.0 * o->ci_level);
	if (any_noisy(t))
		note(to, "~: |diff| smaller than the A/A noise");
}

char *compare_fmt_row_variant(char *buf, size_t size, const struct compare_table *t,
			      const struct compare_row *r)
{
	if (r->base.variant && r->base.variant != t->baseline && strcmp(r->base.variant, t->baseline))
		snprintf(buf, size, "%s (vs %s)", r->var.variant, r->base.variant);
	else
		snprintf(buf, size, "%s", r->var.variant);
	return buf;
}

static bool own_baselines(const struct compare_table *t)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].base.variant != t->baseline)
			return true;
	return false;
}

void compare_fmt_notes(const struct compare_table *t,
		       void (*emit)(void *ctx, const char *line), void *ctx)
{
	const struct notes to = { emit, ctx };
	const struct compare_options *o = &t->opts;

	note(&to, "n: trials that count, +k: trials that ended otherwise");
	note(&to, "diff: variant against baseline, with its %g%% interval",
	     100.0 * o->ci_level);
	if (own_baselines(t)) {
		note(&to, "V+debug (vs %s+debug): a debug build against the baseline's debug",
		     t->baseline);
		note(&to, "  build, so that a row changes one thing; %s+debug against %s", t->baseline,
		     t->baseline);
	}
	method_notes(t, &to);
	level_notes(t, &to);
	/* the rules are compare_row_decide()'s; the words are the table's */
	note(&to, "%s/%s: p-adj < %g in the metric's direction; %s: the same",
	     compare_verdict_word(VERDICT_BETTER), compare_verdict_word(VERDICT_WORSE), o->alpha,
	     compare_verdict_word(VERDICT_DIFFERS));
	note(&to, "  for a metric with no better direction");
	note(&to, "%s: the %g%% interval lies inside +-margin (two one-sided",
	     compare_verdict_word(VERDICT_EQUIVALENT), 100.0 * (1.0 - 2.0 * o->alpha));
	note(&to, "  tests%s)", o->seq_max ? ", at the look's level" : "");
	note(&to, "%s: neither; a difference up to the MDE could be missed",
	     compare_verdict_word(VERDICT_NOT_DETECTED));
	note(&to, "%s: fewer than %zu trials on a side, no test, or no",
	     compare_verdict_word(VERDICT_INCONCLUSIVE), o->min_trials);
	note(&to, "  difference at all could have reached the level");
	/* whole: note() cuts at its buffer, and a context note names a metric */
	for (size_t i = 0; i < t->n_context_notes; i++)
		to.emit(to.ctx, t->context_notes[i]);
}

char *compare_fmt_printable(char *buf, size_t size, const char *s)
{
	size_t i = 0;

	for (; s[i] && i + 1 < size; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}
