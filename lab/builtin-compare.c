/* lab compare: which differences between variants are real, how large, how sure. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare/compare_fail_on.h"
#include "analysis/compare/compare_verdict.h"
#include "analysis/verdict/compare_family.h"
#include "builtin.h"
#include "lab/run/metric-check.h"
#include "lab/cli/options.h"
#include "analysis/run/run-data.h"

/* The head of the usage, up to the sentence that names the verdicts
 * (compare_usage_head() adds it from their table). */
static const char compare_usage_lead[] =
	"usage: lab compare RUN [RUN...] [options]\n"
	"\n"
	"Compares the metrics of every variant against the baseline over the trials\n"
	"of the named runs (run ids under results/, or run folders). The trial is\n"
	"the unit: one value per boot. Per row: n, the centre (geometric mean for\n"
	"times and throughputs, mean for counts, share for outcomes and rare events\n"
	"such as OOM kills), the difference with its 95% interval, a p-value (a\n"
	"permutation test of Welch's t between trials, or Fisher's exact test for\n"
	"shares), Holm's correction over the table, the smallest difference these\n"
	"trials could detect (MDE), the equivalence margin, the A/A noise floor where\n";

static void compare_usage_head(struct strbuf *head)
{
	struct strbuf verdicts = STRBUF_INIT;

	strbuf_addstr(head, compare_usage_lead);
	strbuf_addstr(&verdicts, "the run has one, and a verdict: ");
	compare_verdict_list(&verdicts, VERDICTS_ALL, true);
	strbuf_addstr(&verdicts, ".");
	usage_add_paragraph(head, strbuf_str(&verdicts));
	strbuf_addstr(head, "\n");
	strbuf_release(&verdicts);
}

static const char compare_tail[] =
	"The text begins with a line per variant that sums up its verdicts. The\n"
	"primary metric's rows come first, then the kernel selftests' cases newly\n"
	"failing (worse than the baseline), then those newly passing (better), in\n"
	"the table and in each variant's line. An equivalent row whose interval\n"
	"excludes zero says so: \"equivalent (a +0.16% change inside the 2% margin)\".\n"
	"\n"
	"A difference is a result, not an error: the exit status is 0 whatever the\n"
	"verdicts, unless --fail-on names one a row has: then 3. 1 is an error, 2 bad\n"
	"input. --format tap writes TAP version 13 (a test point per row, \"not ok\"\n"
	"for the rows --fail-on names, every row \"ok\" without it); --format junit a\n"
	"JUnit XML suite (a <failure> for those rows). Colour only on a terminal,\n"
	"never with NO_COLOR.\n";

int compare_runs(const struct strlist *runs, const char *baseline, const struct strlist *globs,
		 const char *format, unsigned long seed, bool all, unsigned fail_on, FILE *out)
{
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < runs->n; i++)
		if (run_data_add(&rd, runs->items[i], &err) < 0)
			die_usage("compare: %s", err.buf);
	if (run_check_metric_options(&rd, globs, &err) < 0)
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
		if (compare_table_variants(table) >= 2) {
			/* three kernels or more: the overview first, each row in full below */
			compare_format_compact(out, table);
			fputc('\n', out);
		}
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
	} else if (!strcmp(format, "tap")) {
		compare_format_tap(out, table, fail_on);
	} else if (!strcmp(format, "junit")) {
		compare_format_junit(out, table, fail_on);
	} else if (!strcmp(format, "compact")) {
		compare_format_compact(out, table);
	} else {
		compare_format_csv(out, table);
	}
	fflush(out);
	size_t failures = compare_table_failures(table, fail_on);
	if (failures) {
		struct strbuf words = STRBUF_INIT;
		compare_fail_on_words(&words, fail_on);
		error("compare: --fail-on %s: %zu row%s of %zu %s one of these verdicts (exit %d)",
		      words.buf, failures, failures == 1 ? "" : "s", table->n_rows,
		      failures == 1 ? "has" : "have", COMPARE_EXIT_FAIL_ON);
		strbuf_release(&words);
	}
	compare_family_free(&family);
	strbuf_release(&err);
	run_data_free(&rd);
	return failures ? COMPARE_EXIT_FAIL_ON : 0;
}

int cmd_compare(int argc, char **argv)
{
	static const char *const formats[] = { "text", "markdown", "json", "csv", "tap", "junit",
					       "compact", NULL };
	const char *baseline = NULL;
	int format = 0;
	unsigned long seed = 1;
	bool all = false;
	unsigned fail_on = 0;
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
		OPT_CHOICE('f', "format", &format, "F", formats,
			   "text (default, fits 80 columns; three kernels or more begin with the "
			   "compact overview), markdown, json, csv, tap, junit, compact (a line per "
			   "metric, the kernels as columns)"),
		OPT_CALL(0, "fail-on", &fail_on, "WORDS", opt_fail_on, opt_fail_on_help()),
		OPT_ULONG(0, "seed", &seed, "N", 1, ULONG_MAX, "seed of sampled permutations (default 1)"),
		OPT_END(),
	};
	struct strbuf head = STRBUF_INIT;
	compare_usage_head(&head);
	int n = lab_parse_options("compare", argc, argv, opts, strbuf_str(&head), compare_tail);
	strbuf_release(&head);
	for (int i = 1; i <= n; i++)
		strlist_push(&runs, argv[i]);
	if (!runs.n)
		die_usage("compare: name a run (see lab results)");
	int rc = compare_runs(&runs, baseline, &globs, formats[format], seed, all, fail_on, stdout);
	strlist_clear(&globs);
	strlist_clear(&runs);
	return rc;
}
