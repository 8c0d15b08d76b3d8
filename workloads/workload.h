/* The workload table: every guest-side workload is one C file with a main
 * function and a usage text, listed once in WORKLOADS
 * (common/proto/workload-list.h, the way stress-ng registers its stressors).  workloads/main.c dispatches on the program
 * name, so `binder-sendvec -> oomlab-workload` symlinks work, and so does
 * `oomlab-workload binder-sendvec ARGS`.
 */
#ifndef OOMLAB_WORKLOAD_H
#define OOMLAB_WORKLOAD_H

#include <stdio.h>

#include "common/proto/workload-list.h"
#include "common/proto/workload-metrics.h"
#include "lib/check.h"

struct workload {
	const char *name;                     /* argv[0] / symlink name */
	const char *summary;                  /* one line */
	int (*main)(int argc, char **argv);   /* argv[0] is the name */
	const char *usage;                    /* --help text */
	/* Every metric it reports, its rows (common/proto/workload-metrics.h,
	 * ending with a row whose name is NULL): printed by --metrics as
	 * trial.json names them, "<name>.<row>[.<label set>]", which the lab
	 * checks an experiment's metric names against. */
	const struct metric_row *metrics;
};

extern const struct workload workload_table[];  /* ends with name == NULL */

const struct workload *workload_find(const char *name);
/* Runs w with argv[0] replaced by w->name; sets the report source. */
int workload_run(const struct workload *w, int argc, char **argv);
/* Checks argv as w would in a guest of that shape, without running it
 * (lib/check.h): 0 when good, else w's usage error (2). Does not return
 * when the arguments are good. */
int workload_check(const struct workload *w, const struct wl_guest_shape *guest, int argc,
		   char **argv);
void workload_list(FILE *f);
/* Every workload's summary, --help and metrics as records on stdout
 * (common/proto/workload-describe.h): oomlab-workload --describe. */
void workload_describe(void);
/* Every workload's declared metrics, one "<workload>.<row>" a line. */
void workload_list_metrics(FILE *f);

/* Each workload of the one list (common/proto/workload-list.h): its main and
 * its usage text (its metrics are rows, common/proto/workload-metrics.h). */
#define WORKLOAD_DECLARE(ident, name, summary) \
	int ident##_main(int argc, char **argv); \
	extern const char ident##_usage[];
WORKLOADS(WORKLOAD_DECLARE)
#undef WORKLOAD_DECLARE

#endif
