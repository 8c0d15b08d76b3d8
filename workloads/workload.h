/* The workload table: every guest-side workload is one C file with a main
 * function and a usage text, listed once in WORKLOADS below (the way
 * stress-ng registers its stressors).  workloads/main.c dispatches on the program
 * name, so `binder-sendvec -> oomlab-workload` symlinks work, and so does
 * `oomlab-workload binder-sendvec ARGS`.
 */
#ifndef OOMLAB_WORKLOAD_H
#define OOMLAB_WORKLOAD_H

#include <stdio.h>

#include "lib/check.h"

struct workload {
	const char *name;                     /* argv[0] / symlink name */
	const char *summary;                  /* one line */
	int (*main)(int argc, char **argv);   /* argv[0] is the name */
	const char *usage;                    /* --help text */
	/* Every metric it reports (lib/report.h), named as trial.json names it
	 * after "<name>.": the metric, then each label as ".KEY=*" in key order
	 * ("sendvec_ns_per_rt.size=*"); a label that is not always there is a
	 * second row. NULL-terminated. The lab checks an experiment's metric
	 * names against these (oomlab-workload --metrics). */
	const char *const *metrics;
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

/*
 * The one list of workloads: X(ident, "name", "summary") for each file
 * workloads/<name>.c, which defines ident_main(), ident_usage[] and
 * ident_metrics[] (struct workload's metrics). The
 * declarations below, the table (registry.c) and the tests all come from it.
 */
#define WORKLOADS(X)                                                                                  \
	X(binder_sendvec, "binder-sendvec",                                                          \
	  "synchronous binder echo of 4..65536 bytes (BM_sendVec_binder)")                            \
	X(binder_throughput, "binder-throughput",                                                    \
	  "binder transactions between worker processes (binderThroughputTest)")                      \
	X(binder_objects, "binder-objects",                                                          \
	  "churn of binder threads, nodes, refs and death notifications; slab usage")                 \
	X(binder_mmap, "binder-mmap", "many binder opens with a 4 MiB mmap each (the kcalloc/kvcalloc path)") \
	X(spawn, "spawn", "fork+exec of /bin/true N times; spawns per second")                       \
	X(oom_hog, "oom-hog",                                                                        \
	  "memory eaters that drive a memcg or the VM into OOM kills (memcg, global, reaper)")        \
	X(fragment, "fragment", "leave memory fragmented to a target (pinned order-0 holes) and hold it") \
	X(selftest, "selftest", "one of the kernel's selftests from the variant's tree; one outcome per case") \
	X(apps, "apps", "Android apps that come and go: seeded switches, oom_score_adj tiers, cold/warm starts")

#define WORKLOAD_DECLARE(ident, name, summary) \
	int ident##_main(int argc, char **argv); \
	extern const char ident##_usage[]; \
	extern const char *const ident##_metrics[];
WORKLOADS(WORKLOAD_DECLARE)
#undef WORKLOAD_DECLARE

#define WORKLOAD_ONE(ident, name, summary) +1
/* How many workloads the list has. */
enum { WORKLOAD_COUNT = 0 WORKLOADS(WORKLOAD_ONE) };
#undef WORKLOAD_ONE

#endif
