/* lab compare: which differences between variants are real, how large, how sure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare/compare_family.h"
#include "builtin.h"
#include "options.h"
#include "analysis/run/run-data.h"

static const char compare_usage[] =
	"usage: lab compare RUN [RUN...] [options]\n"
	"\n"
	"Compares the metrics of every variant against the baseline over the trials\n"
	"of the named runs (run ids under results/, or run folders). The trial is\n"
	"the unit: one value per boot. Per row: n, the centre (geometric mean for\n"
	"times and throughputs, mean for counts, share for outcomes and rare events\n"
	"such as OOM kills), the difference with its 95% interval, a p-value (a\n"
	"permutation test of Welch's t between trials, or Fisher's exact test for\n"
	"shares), Holm's correction over the table, the smallest difference these\n"
	"trials could detect (MDE), the equivalence margin, the A/A noise floor where\n"
	"the run has one, and a verdict: better, worse, differs, equivalent, not\n"
	"detected (with what could have been missed) or inconclusive.\n"
	"\n"
	"  -b, --baseline VARIANT   compare against this variant (default: the run's)\n"
	"  -m, --metric GLOB        only metrics matching GLOB (repeatable); without it,\n"
	"                           the experiment's headline metrics (its `metrics`\n"
	"                           key), Holm's correction then runs over those alone\n"
	"  -a, --all                every metric, also those that took one value in\n"
	"                           every trial (hidden otherwise: nothing to compare)\n"
	"  -f, --format F           text (default, fits 80 columns), markdown, json, csv\n"
	"      --seed N             seed of sampled permutations (default 1)\n"
	"  -h, --help               this text\n"
	"\n"
	"A difference is a result, not an error: the exit status is 0 whatever the\n"
	"verdicts, and 2 on bad input. Colour only on a terminal, never with NO_COLOR.\n";

int compare_runs(const struct strlist *runs, const char *baseline, const struct strlist *globs,
		 const char *format, unsigned long seed, bool all, FILE *out)
{
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < runs->n; i++)
		if (run_data_add(&rd, runs->items[i], &err) < 0)
			die_usage("compare: %s", err.buf);
	struct compare_family_spec spec = { .baseline = baseline, .globs = globs, .all = all,
					    .seed = seed };
	struct compare_family family;
	if (compare_family_build(&rd, &spec, &family, &err) < 0)
		die_usage("compare: %s", err.buf);
	const struct compare_table *table = &family.table;
	if (!strcmp(format, "text")) {
		bool colour = isatty(fileno(out)) && !getenv("NO_COLOR");
		fprintf(out, "%s on %s, %zu trials in %zu run%s\n", rd.experiment ? rd.experiment : "run",
			rd.profile ? rd.profile : "?", rd.n, rd.dirs.n, rd.dirs.n == 1 ? "" : "s");
		compare_format_text(out, table, colour);
		if (family.hidden)
			fprintf(out, "%zu metric%s with one value in every trial not shown (--all shows them)\n",
				family.hidden, family.hidden == 1 ? "" : "s");
		if (family.headline)
			fprintf(out, "the experiment's headline metrics; every metric: --all, or --metric GLOB\n");
	} else if (!strcmp(format, "markdown")) {
		compare_format_markdown(out, table);
	} else if (!strcmp(format, "json")) {
		compare_format_json(out, table);
	} else {
		compare_format_csv(out, table);
	}
	compare_family_free(&family);
	strbuf_release(&err);
	run_data_free(&rd);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "metric", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 'S' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *baseline = NULL, *format = "text";
	unsigned long seed = 1;
	bool all = false;
	struct strlist globs = STRLIST_INIT, runs = STRLIST_INIT;
	for (;;) {
		int c = next_option("compare", argc, argv, "b:m:f:ah", opts);
		if (c == -1)
			break;
		switch (c) {
		case 'b': baseline = optarg; break;
		case 'm': strlist_push(&globs, optarg); break;
		case 'f': format = optarg; break;
		case 'S': seed = option_ulong("compare", "--seed", optarg); break;
		case 'a': all = true; break;
		case 'h': fputs(compare_usage, stdout); return 0;
		}
	}
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
	    strcmp(format, "csv"))
		die_usage("compare: --format wants text, markdown, json or csv, not '%s'", format);
	for (int i = optind; i < argc; i++)
		strlist_push(&runs, argv[i]);
	if (!runs.n)
		die_usage("compare: name a run (see lab results)");
	int rc = compare_runs(&runs, baseline, &globs, format, seed, all, stdout);
	strlist_clear(&globs);
	strlist_clear(&runs);
	return rc;
}
