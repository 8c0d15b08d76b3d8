/* The one table of workloads.  Add a workload: write workloads/NAME.c with
 * NAME_main() and NAME_usage[], declare it in workload.h, add a row here. */
#include "workload.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/report.h"

const struct workload workload_table[] = {
	{ "binder-sendvec",
	  "synchronous binder echo of 4..65536 bytes (BM_sendVec_binder)",
	  binder_sendvec_main, binder_sendvec_usage },
	{ "binder-throughput",
	  "binder transactions between worker processes (binderThroughputTest)",
	  binder_throughput_main, binder_throughput_usage },
	{ "binder-objects",
	  "churn of binder threads, nodes, refs and death notifications; slab usage",
	  binder_objects_main, binder_objects_usage },
	{ "binder-mmap",
	  "many binder opens with a 4 MiB mmap each (the kcalloc/kvcalloc path)",
	  binder_mmap_main, binder_mmap_usage },
	{ "spawn",
	  "fork+exec of /bin/true N times; spawns per second",
	  spawn_main, spawn_usage },
	{ "oom-hog",
	  "memory eaters that drive a memcg or the VM into OOM kills (memcg, global, reaper)",
	  oom_hog_main, oom_hog_usage },
	{ "fragment",
	  "leave memory fragmented to a target (pinned order-0 holes) and hold it",
	  fragment_main, fragment_usage },
	{ NULL, NULL, NULL, NULL },
};

const struct workload *workload_find(const char *name)
{
	if (!name)
		return NULL;
	for (const struct workload *w = workload_table; w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

int workload_run(const struct workload *w, int argc, char **argv)
{
	argv[0] = (char *)w->name;
	report_set_source(w->name);
	return w->main(argc, argv);
}

/* A workload that acts instead of stopping at wl_start() cannot do much on the
 * host in check mode: 1 GiB of address space, ten seconds. */
static void check_limits(void)
{
	const struct rlimit mem = { 1ul << 30, 1ul << 30 };

	setrlimit(RLIMIT_AS, &mem);
	alarm(10);
}

int workload_check(const struct workload *w, const struct wl_guest_shape *guest, int argc,
		   char **argv)
{
	check_limits();
	wl_check_mode(guest);
	int rc = workload_run(w, argc, argv);
	/* Good arguments end in wl_start(); a return is an error, or a workload that
	 * forgot to call it. */
	if (rc == WL_EXIT_OK) {
		fprintf(stderr, "%s: returned without calling wl_start() in check mode\n", w->name);
		return WL_EXIT_FAIL;
	}
	return rc;
}

void workload_list(FILE *f)
{
	for (const struct workload *w = workload_table; w->name; w++)
		fprintf(f, "  %-18s %s\n", w->name, w->summary);
}
