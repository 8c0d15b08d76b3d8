/* The lab's subcommands, one file each (builtin-<name>.c), listed in lab.c. */
#ifndef LAB_BUILTIN_H
#define LAB_BUILTIN_H

int cmd_boot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_workloads(int argc, char **argv);

#include <stdbool.h>
#include <stdio.h>

#include "common/util.h"
#include "lab/trial/trial-plan.h"

/* What lab boot asks of its trial's machine: --arch and --page-size as
 * PLATFORM, the profile, --clock OPTION (from NULL: not given). */
struct trial_asked boot_trial_asked(const struct platform *platform, const struct profile *profile,
				    struct clock_choice option);

/* The comparison table of runs; used by lab compare, lab bisect and at the
 * end of lab run. FAIL_ON: a set of verdicts (analysis/compare/compare_fail_on.h;
 * 0: none). Returns 0, or COMPARE_EXIT_FAIL_ON (3) when a row has one of
 * them, said on stderr. */
int compare_runs(const struct strlist *runs, const char *baseline, const struct strlist *globs,
		 const char *format, unsigned long seed, bool all, unsigned fail_on, FILE *out);

/* lab report's work: the HTML report of RUNS (lab run writes one at its end). */
struct report_request {
	const char *out;		/* NULL: report.html in the first run's folder */
	const char *baseline;		/* NULL: the run's */
	const struct strlist *globs;	/* NULL or empty: the headline metrics */
	bool all;
	unsigned long seed;
	bool list_figures;		/* print which figures were drawn */
};
int report_runs(const struct strlist *runs, const struct report_request *req);

#endif
