/* Debug groups against their plain twins on memory pressure (debug_pressure.h). */
#include "debug_pressure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/stats.h"

#define CHECK_LEVEL 0.05
#define DEBUG_SUFFIX "+debug"

/* How many of LABEL's finished trials ended with OUTCOME, of how many. */
static void outcome_share(const struct run_data *rd, const char *label, const char *outcome, unsigned *k,
			  unsigned *n)
{
	*k = *n = 0;
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		if (strcmp(t->label, label) || !t->trial)
			continue;
		(*n)++;
		*k += !strcmp(t->outcome, outcome);
	}
}

static void add_share(struct strlist *lines, const char *what, unsigned kd, unsigned nd, unsigned kp, unsigned np,
		      bool *flagged)
{
	if (!nd || !np || (!kd && !kp))
		return;
	double p = 1;
	stats_fisher_exact(kd, nd - kd, kp, np - kp, &p);
	strlist_push_owned(lines, xasprintf("  %s %u/%u against %u/%u (p %.3g)", what, kd, nd, kp, np, p));
	*flagged |= p < CHECK_LEVEL;
}

/* Trials of LABEL (ok ones) with METRIC above zero. */
static void metric_share(const struct run_data *rd, const char *metric, const char *label, unsigned *k,
			 unsigned *n)
{
	size_t count, other;
	const char *unit;
	double *v = run_data_values(rd, metric, label, &count, &other, &unit);
	*k = 0;
	*n = (unsigned)count;
	for (size_t i = 0; i < count; i++)
		*k += v[i] > 0;
	free(v);
}

static void add_mean(struct strlist *lines, const struct run_data *rd, const char *metric, const char *what,
		     const char *debug, const char *plain, unsigned long seed, bool *flagged)
{
	size_t nd, np, other;
	const char *unit;
	double *d = run_data_values(rd, metric, debug, &nd, &other, &unit);
	double *p = run_data_values(rd, metric, plain, &np, &other, &unit);
	if (nd && np) {
		double md = 0, mp = 0;
		for (size_t i = 0; i < nd; i++)
			md += d[i] / (double)nd;
		for (size_t i = 0; i < np; i++)
			mp += p[i] / (double)np;
		const struct stats_permutation how = { .seed = seed, .max_exact = 20000, .resamples = 20000 };
		double t, pv = 1;
		bool exact, tested = md != mp && nd >= 2 && np >= 2 &&
				     stats_permutation_test(p, np, d, nd, &how, &t, &pv, &exact) == 0;
		char tail[32] = "";
		if (tested)
			snprintf(tail, sizeof(tail), " (p %.3g)", pv);
		strlist_push_owned(lines, xasprintf("  %s %.3g against %.3g a trial%s", what, md, mp, tail));
		*flagged |= tested && pv < CHECK_LEVEL;
	}
	free(d);
	free(p);
}

void debug_pressure_notes(const struct run_data *rd, unsigned long seed, struct strlist *notes)
{
	for (size_t g = 0; g < rd->labels.n; g++) {
		const char *debug = rd->labels.items[g];
		size_t len = strlen(debug), suffix = strlen(DEBUG_SUFFIX);
		if (len <= suffix || strcmp(debug + len - suffix, DEBUG_SUFFIX))
			continue;
		char *plain = xstrndup(debug, len - suffix);
		if (!strlist_has(&rd->labels, plain)) {
			free(plain);
			continue;
		}
		struct strlist lines = STRLIST_INIT;
		bool flagged = false;
		add_mean(&lines, rd, "binder_page_array_order3_failed", "failed order-3 page-array tries", debug,
			 plain, seed, &flagged);
		add_mean(&lines, rd, "page_alloc_high_order_failed", "failed high-order allocations", debug,
			 plain, seed, &flagged);
		unsigned kd, nd, kp, np;
		metric_share(rd, "oom_kills", debug, &kd, &nd);
		metric_share(rd, "oom_kills", plain, &kp, &np);
		add_share(&lines, "trials with an OOM kill", kd, nd, kp, np, &flagged);
		outcome_share(rd, debug, "panic", &kd, &nd);
		outcome_share(rd, plain, "panic", &kp, &np);
		add_share(&lines, "panics", kd, nd, kp, np, &flagged);
		outcome_share(rd, debug, "off-target", &kd, &nd);
		outcome_share(rd, plain, "off-target", &kp, &np);
		add_share(&lines, "off-target trials", kd, nd, kp, np, &flagged);
		if (lines.n) {
			strlist_push_owned(notes, xasprintf("pressure, %s against %s: %s", debug, plain,
							    flagged ? "other pressure (p < 0.05, uncorrected):"
								    : "no difference shown at 0.05"));
			if (flagged)
				strlist_push(notes, "  its rows compare another memory regime");
			for (size_t i = 0; i < lines.n; i++)
				strlist_push(notes, lines.items[i]);
		}
		strlist_clear(&lines);
		free(plain);
	}
}
