/* aa-precision: the precision an A/A run shows, with the lab's own statistics.
 *
 *   aa-precision RUN GROUP TWIN METRIC...
 *
 * For each metric, the trials of GROUP and of its twin TWIN (the same
 * kernel booted as a second group, "stock" and "stock#2") are compared as
 * if they were baseline and variant, by the engine behind lab compare
 * (compare_table_build, defaults: alpha 0.05, power 0.8, 95% interval).
 * One line per metric:
 *   n       trials a side
 *   centre  GROUP's geometric mean, in the metric's unit
 *   cv      the spread of one trial: sd of the log values, in percent
 *   noise   the A/A noise the engine reports: the larger end of the 95%
 *           interval of the difference (analysis/compare/compare_row.c)
 *   mde     the smallest difference these trials detect (the row's MDE)
 *   n_2pct  trials a side that would detect a 2% change at alpha 0.05 with
 *           power 0.8 when the spread is the one measured: the MDE formula
 *           of the engine (stats_mde_t at the level the permutation test
 *           can reach, on the log scale) with n trials a side
 * Only metrics the engine compares on the log scale (times, throughputs)
 * are meant; others print "n/a". Exit 2 on bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare.h"
#include "analysis/metrics/metric_catalog.h"
#include "analysis/run/run-data.h"

#define TARGET_PCT 2.0
#define MAX_TRIALS 100000

/* sd of the logs of X (all > 0), NAN otherwise */
static double log_sd(const double *x, size_t n)
{
	double *l = xcalloc(n ? n : 1, sizeof(*l));
	double sd;

	for (size_t i = 0; i < n; i++)
		l[i] = x[i] > 0 ? log(x[i]) : NAN;
	sd = stats_sd(l, n);
	free(l);
	return sd;
}

/* The engine's MDE in percent for N trials a side with log spreads SA, SB. */
static double mde_at(size_t n, double sa, double sb, const struct compare_options *o)
{
	double va = sa * sa / (double)n, vb = sb * sb / (double)n;
	double se = sqrt(va + vb);
	double df = (va + vb) * (va + vb) / (va * va / (double)(n - 1) + vb * vb / (double)(n - 1));
	double level = stats_permutation_attainable(n, n, &o->perm, o->alpha);

	if (level <= 0.0)
		return INFINITY;
	return 100.0 * expm1(stats_mde_t(se, df, level, o->power));
}

static void one_metric(const struct run_data *rd, const char *group, const char *twin,
		       const char *name)
{
	size_t na, nb, other_a, other_b;
	const char *unit = NULL;
	double *a = run_data_values(rd, name, group, &na, &other_a, &unit);
	double *b = run_data_values(rd, name, twin, &nb, &other_b, NULL);
	struct compare_group groups[2] = {
		{ .label = group, .variant = "A", .values = a, .n = na, .n_other = other_a },
		{ .label = twin, .variant = "A'", .values = b, .n = nb, .n_other = other_b },
	};
	struct compare_metric m = { .margin = { .value = NAN }, .groups = groups, .n_groups = 2 };
	struct compare_options o;
	struct compare_table t;

	metric_catalog_resolve(name, unit ? unit : "", &m.def);
	compare_options_default(&o);
	if (compare_table_build(&m, 1, &o, &t) != 0 || t.n_rows != 1 ||
	    t.rows[0].method != COMPARE_LOG_MEANS || !isfinite(t.rows[0].ci_lo)) {
		printf("%-46s n/a (n %zu+%zu)\n", name, na, nb);
		free(a);
		free(b);
		return;
	}
	const struct compare_row *r = &t.rows[0];
	double sa = log_sd(a, na), sb = log_sd(b, nb);
	size_t need = 0;

	for (size_t n = 3; n <= MAX_TRIALS && !need; n++)
		if (mde_at(n, sa, sb, &o) <= TARGET_PCT)
			need = n;
	printf("%-46s %2zu+%-2zu centre %-10.4g cv %5.2f%%  A/A noise %6.2f%%  MDE %6.2f%%  2%%: ",
	       name, na, nb, r->base.centre, 100.0 * sqrt((sa * sa + sb * sb) / 2.0),
	       fmax(fabs(r->ci_lo), fabs(r->ci_hi)), r->mde);
	if (need)
		printf("%zu trials a side\n", need);
	else
		printf("more than %d trials a side\n", MAX_TRIALS);
	/* the formula above is the engine's: at the run's own n it gives the row's MDE */
	if (na == nb && fabs(mde_at(na, sa, sb, &o) - r->mde) > 1e-6 * fmax(1.0, r->mde))
		fprintf(stderr, "aa-precision: %s: MDE %g here, %g in the engine\n", name,
			mde_at(na, sa, sb, &o), r->mde);
	compare_table_free(&t);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;

	if (argc < 5) {
		fprintf(stderr, "usage: aa-precision RUN GROUP TWIN METRIC...\n");
		return 2;
	}
	if (run_data_add(&rd, argv[1], &err) < 0) {
		fprintf(stderr, "aa-precision: %s\n", err.buf);
		return 2;
	}
	for (int i = 2; i <= 3; i++)
		if (!strlist_has(&rd.labels, argv[i])) {
			fprintf(stderr, "aa-precision: %s: no group '%s'\n", argv[1], argv[i]);
			return 2;
		}
	for (int i = 4; i < argc; i++)
		one_metric(&rd, argv[2], argv[3], argv[i]);
	run_data_free(&rd);
	strbuf_release(&err);
	return 0;
}
