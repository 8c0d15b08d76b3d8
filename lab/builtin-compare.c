/* lab compare: which differences between variants are real, how large, how sure. */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare/compare.h"
#include "builtin.h"
#include "options.h"
#include "analysis/run/run-data.h"

static const char compare_usage[] =
	"usage: lab compare RUN [RUN...] [options]\n"
	"\n"
	"Compares every metric of every variant against the baseline over the trials\n"
	"of the named runs (run ids under results/, or run folders): n, median and\n"
	"mean, spread, the difference in percent with a 95% bootstrap interval\n"
	"(seeded), a p-value from a test that fits the metric (Mann-Whitney U for\n"
	"times and throughputs, a Poisson rate test for counts, Fisher's exact test\n"
	"for outcomes), Holm's correction over the table, the smallest difference\n"
	"these trials could detect, the A/A noise floor where the run has one, and a\n"
	"verdict: better, worse, differs, no difference or inconclusive.\n"
	"\n";

static const char compare_tail[] =
	"A difference is a result, not an error: the exit status is 0 whatever the\n"
	"verdicts, and 2 on bad input. Colour only on a terminal, never with NO_COLOR.\n";

struct metric_input {
	char *name;
	struct compare_group *groups;
	double **values;
	size_t n_groups;
};

static bool wanted(const char *name, const struct strlist *globs)
{
	if (!globs->n)
		return true;
	for (size_t i = 0; i < globs->n; i++)
		if (!fnmatch(globs->items[i], name, 0))
			return true;
	return false;
}

/* True when every value of every group is the same: such a metric has nothing to compare. */
static bool constant_metric(const struct metric_input *in)
{
	bool seen = false;
	double first = 0;
	for (size_t g = 0; g < in->n_groups; g++)
		for (size_t i = 0; i < in->groups[g].n; i++) {
			if (!seen) {
				first = in->groups[g].values[i];
				seen = true;
			} else if (in->groups[g].values[i] != first) {
				return false;
			}
		}
	return true;
}

static void free_input(struct metric_input *in)
{
	for (size_t g = 0; g < in->n_groups; g++)
		free(in->values[g]);
	free(in->values);
	free(in->groups);
	memset(in, 0, sizeof(*in));
}

int compare_runs(const struct strlist *runs, const char *baseline, const struct strlist *globs,
		 const char *format, unsigned long seed, bool all, FILE *out)
{
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < runs->n; i++)
		if (run_data_add(&rd, runs->items[i], &err) < 0)
			die_usage("compare: %s", err.buf);
	if (baseline && !strlist_has(&rd.labels, baseline))
		die_usage("compare: no variant '%s' in the run", baseline);

	/* The experiment named its headline metrics up front: they are the family tested. */
	bool headline = !globs->n && !all && rd.headline.n;
	if (headline)
		globs = &rd.headline;
	struct strlist names = STRLIST_INIT;
	run_data_metric_names(&rd, &names);
	struct compare_metric *metrics = xcalloc(names.n, sizeof(*metrics));
	struct metric_input *inputs = xcalloc(names.n, sizeof(*inputs));
	size_t n_metrics = 0, hidden = 0;
	for (size_t m = 0; m < names.n; m++) {
		if (!wanted(names.items[m], globs))
			continue;
		struct metric_input *in = &inputs[n_metrics];
		in->name = names.items[m];
		in->groups = xcalloc(rd.labels.n, sizeof(*in->groups));
		in->values = xcalloc(rd.labels.n, sizeof(*in->values));
		const char *unit = NULL;
		for (size_t g = 0; g < rd.labels.n; g++) {
			const char *u = NULL;
			struct compare_group *grp = &in->groups[in->n_groups];
			in->values[in->n_groups] = run_data_values(&rd, in->name, rd.labels.items[g], &grp->n,
								   &grp->n_other, &u);
			grp->values = in->values[in->n_groups];
			grp->label = rd.labels.items[g];
			if (!unit)
				unit = u;
			in->n_groups++;
		}
		/* Outcomes always show: "every trial ok" is a finding too. */
		if (!all && strcmp(in->name, "trial_ok") && constant_metric(in)) {
			free_input(in);
			hidden++;
			continue;
		}
		metric_resolve(in->name, unit ? unit : "", &metrics[n_metrics].def);
		metrics[n_metrics].groups = in->groups;
		metrics[n_metrics].n_groups = in->n_groups;
		n_metrics++;
	}
	if (!n_metrics)
		die_usage("compare: no metric matches");

	struct compare_options opts;
	compare_options_default(&opts);
	opts.baseline = baseline ? baseline : rd.baseline;
	opts.seed = seed;
	struct compare_table table;
	int rc = compare_table_build(metrics, n_metrics, &opts, &table);
	if (rc < 0)
		die("compare: the comparison could not be built (%d)", rc);
	if (!strcmp(format, "text")) {
		bool colour = isatty(fileno(out)) && !getenv("NO_COLOR");
		fprintf(out, "%s on %s, %zu trials in %zu run%s\n", rd.experiment ? rd.experiment : "run",
			rd.profile ? rd.profile : "?", rd.n, rd.dirs.n, rd.dirs.n == 1 ? "" : "s");
		compare_format_text(out, &table, colour);
		if (hidden)
			fprintf(out, "%zu metric%s with one value in every trial not shown (--all shows them)\n",
				hidden, hidden == 1 ? "" : "s");
		if (headline)
			fprintf(out, "the experiment's headline metrics; every metric: --all, or --metric GLOB\n");
	} else if (!strcmp(format, "markdown")) {
		compare_format_markdown(out, &table);
	} else if (!strcmp(format, "json")) {
		compare_format_json(out, &table);
	} else {
		compare_format_csv(out, &table);
	}
	compare_table_free(&table);
	for (size_t m = 0; m < n_metrics; m++)
		free_input(&inputs[m]);
	free(inputs);
	free(metrics);
	strlist_clear(&names);
	run_data_free(&rd);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *baseline = NULL, *format = "text";
	unsigned long seed = 1;
	bool all = false;
	struct strlist globs = STRLIST_INIT, runs = STRLIST_INIT;
	const struct opt opts[] = {
		OPT_STRING('b', "baseline", &baseline, "VARIANT",
			   "compare against this variant (default: the run's)"),
		OPT_CALL('m', "metric", &globs, "GLOB", opt_push,
			 "only metrics matching GLOB (repeatable); without it, the experiment's "
			 "headline metrics (its `metrics` key), Holm's correction then runs over "
			 "those alone"),
		OPT_FLAG('a', "all", &all,
			 "every metric, also those that took one value in every trial (hidden "
			 "otherwise: nothing to compare)"),
		OPT_STRING('f', "format", &format, "F", "text (default, fits 80 columns), markdown, json, csv"),
		OPT_ULONG(0, "seed", &seed, "N", 1, ULONG_MAX, "bootstrap seed (default 1)"),
		OPT_END(),
	};
	int n = lab_parse_options("compare", argc, argv, opts, compare_usage, compare_tail);
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
	    strcmp(format, "csv"))
		die_usage("compare: --format wants text, markdown, json or csv, not '%s'", format);
	for (int i = 1; i <= n; i++)
		strlist_push(&runs, argv[i]);
	if (!runs.n)
		die_usage("compare: name a run (see lab results)");
	int rc = compare_runs(&runs, baseline, &globs, format, seed, all, stdout);
	strlist_clear(&globs);
	strlist_clear(&runs);
	return rc;
}
