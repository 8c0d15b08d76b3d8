/* compare_fmt.c - number formatting and notes shared by the formatters. */
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

char *compare_fmt_diff(char *buf, size_t size, const struct compare_row *row,
		       int num_width)
{
	char num[32];

	compare_fmt_num(num, sizeof(num), row->diff, num_width, true);
	snprintf(buf, size, "%s%s%s", row->within_noise ? "~" : "", num,
		 row->absolute && !isnan(row->diff) ? "abs" : "");
	return buf;
}

char *compare_fmt_ci(char *buf, size_t size, const struct compare_row *row,
		     int num_width)
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

char *compare_fmt_n(char *buf, size_t size, const struct compare_side *side)
{
	if (side->n_other)
		snprintf(buf, size, "%zu+%zu", side->n, side->n_other);
	else
		snprintf(buf, size, "%zu", side->n);
	return buf;
}

const char *compare_centre_name(enum stats_centre centre)
{
	return centre == STATS_MEDIAN ? "median" : "mean";
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

static bool any_row(const struct compare_table *t,
		    bool (*pred)(const struct compare_row *))
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (pred(&t->rows[i]))
			return true;
	return false;
}

static bool is_rank(const struct compare_row *r) { return r->test == COMPARE_TEST_RANK; }
static bool is_rate(const struct compare_row *r) { return r->test == COMPARE_TEST_RATE; }
static bool is_prop(const struct compare_row *r) { return r->test == COMPARE_TEST_PROPORTION; }
static bool is_abs(const struct compare_row *r) { return r->absolute && !isnan(r->diff); }
static bool is_noisy(const struct compare_row *r) { return r->within_noise; }

static void method_notes(const struct compare_table *t, const struct notes *to)
{
	if (any_row(t, is_rank)) {
		note(to, "Mann-Whitney U: exact if no ties and na + nb <= %d, else normal",
		     STATS_MWU_EXACT_MAX_N);
		note(to, "  approximation with tie and continuity correction");
	}
	if (any_row(t, is_rate))
		note(to, "Poisson rate: conditional binomial test on the event totals");
	if (any_row(t, is_prop))
		note(to, "Fisher exact: trials ok (value != 0) vs not ok");
	note(to, "p-adj: Holm-Bonferroni over the %zu p-values of this table;",
	     t->n_tests);
	note(to, "  better/worse/differs when p-adj < %g, else no difference",
	     t->opts.alpha);
}

void compare_fmt_notes(const struct compare_table *t,
		       void (*emit)(void *ctx, const char *line), void *ctx)
{
	const struct notes to = { emit, ctx };

	note(&to, "n: trials that count, +k: trials that ended otherwise");
	note(&to, "diff: variant vs baseline centre, in %% of the baseline; CI: %g%%",
	     100.0 * t->opts.ci_level);
	note(&to, "  percentile bootstrap, %zu resamples, seed %lu",
	     t->opts.iterations, t->opts.seed);
	if (any_row(t, is_abs))
		note(&to, "abs: baseline centre 0 (or 0 in a resample): diff in the unit");
	method_notes(t, &to);
	note(&to, "MDE: smallest diff detectable at alpha %g, power %g (normal",
	     t->opts.alpha, t->opts.power);
	note(&to, "  approximation from the pooled sd and n)");
	if (t->has_noise)
		note(&to, "A/A: larger end of the %g%% CI of A vs A (e.g. x vs x#2)",
		     100.0 * t->opts.ci_level);
	if (any_row(t, is_noisy))
		note(&to, "~: |diff| smaller than the A/A noise");
	note(&to, "inconclusive: fewer than %zu trials on a side, or no test possible",
	     t->opts.min_trials);
}
