/* oomlab-workload: one multi-call binary for all guest-side workloads.
 *   binder-sendvec ARGS                 (symlink to oomlab-workload)
 *   oomlab-workload binder-sendvec ARGS
 *   oomlab-workload --list | --help
 */
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "lib/args.h"
#include "workload.h"

static void usage(FILE *f)
{
	fputs("Usage: oomlab-workload WORKLOAD [OPTIONS]   (or call a symlink named WORKLOAD)\n"
	      "       oomlab-workload --list\n"
	      "Results are JSON lines on stdout, human text on stderr; WORKLOAD --help for options.\n"
	      "Workloads:\n", f);
	workload_list(f);
}

int main(int argc, char **argv)
{
	char self[256];
	const struct workload *w;

	/* A write to a closed pipe must not kill a workload half-way; the
	 * write error is enough. */
	signal(SIGPIPE, SIG_IGN);
	snprintf(self, sizeof(self), "%s", argc > 0 ? argv[0] : "oomlab-workload");
	w = workload_find(basename(self));
	if (w)
		return workload_run(w, argc, argv);

	if (argc < 2) {
		fprintf(stderr, "oomlab-workload: no workload given (try --list)\n");
		return WL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return WL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--list")) {
		for (w = workload_table; w->name; w++)
			printf("%s\n", w->name);
		return WL_EXIT_OK;
	}
	w = workload_find(argv[1]);
	if (!w) {
		fprintf(stderr, "oomlab-workload: unknown workload '%s' (try --list)\n",
			argv[1]);
		return WL_EXIT_USAGE;
	}
	return workload_run(w, argc - 1, argv + 1);
}
