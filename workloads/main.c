/* oomlab-workload: one multi-call binary for all guest-side workloads.
 *   binder-sendvec ARGS                 (symlink to oomlab-workload)
 *   oomlab-workload binder-sendvec ARGS
 *   oomlab-workload --check [--mem-total B] [--numa-nodes N] WORKLOAD ARGS
 *   oomlab-workload --list | --metrics | --describe | --help
 */
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/proto/workload-describe.h"
#include "lib/args.h"
#include "workload.h"

static const char check_usage[] =
	"Usage: oomlab-workload --check [OPTIONS] WORKLOAD [ARGS]\n"
	"Checks ARGS as WORKLOAD would in a guest, without running it: exit 0 when they\n"
	"are good, else WORKLOAD's one-line error and exit 2. What only the guest can\n"
	"tell (whether a file or device exists there) is not checked.\n"
	"\n";

static void usage(FILE *f)
{
	fputs("Usage: oomlab-workload WORKLOAD [OPTIONS]   (or call a symlink named WORKLOAD)\n"
	      "       oomlab-workload --check [OPTIONS] WORKLOAD [ARGS]   (--check --help)\n"
	      "       oomlab-workload --list\n"
	      "       oomlab-workload --metrics   (every metric a workload reports, as trial.json names it)\n"
	      "       oomlab-workload --describe   (every workload's summary, options and metrics, for lab workloads)\n"
	      "Results are JSON lines on stdout, human text on stderr; WORKLOAD --help for options.\n"
	      "Workloads:\n", f);
	workload_list(f);
}

static const struct workload *find_or_complain(const char *name)
{
	const struct workload *w = workload_find(name);

	if (!w)
		fprintf(stderr, "oomlab-workload: unknown workload '%s' (try --list)\n", name);
	return w;
}

/* argv[0] is "--check"; the guest's shape, then the workload and its arguments. */
static int check_main(int argc, char **argv)
{
	struct wl_guest_shape guest = { 0, 1 };
	char err[OPT_ERR_MAX];
	const struct opt opts[] = {
		OPT_U64(0, "mem-total", &guest.mem_total, "BYTES", 1, UINT64_MAX,
			"the guest's MemTotal, of which '%' sizes are shares (default: the host's)"),
		OPT_INT(0, "numa-nodes", &guest.numa_nodes, "N", 1, 1024,
			"the guest's NUMA nodes (default 1)"),
		OPT_END(),
	};
	int n = parse_options_until(argc, argv, opts, 0, err);

	if (n == OPT_PARSE_HELP) {
		print_usage(stdout, check_usage, opts, NULL);
		return WL_EXIT_OK;
	}
	if (n == OPT_PARSE_ERROR)
		return wl_usage_error("oomlab-workload --check", "%s", err);
	if (n < 1)
		return wl_usage_error("oomlab-workload --check", "name a workload (try --list)");
	const struct workload *w = find_or_complain(argv[1]);
	if (!w)
		return WL_EXIT_USAGE;
	return workload_check(w, &guest, n, argv + 1);
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
	if (!strcmp(argv[1], DESCRIBE_FLAG)) {
		workload_describe();
		return WL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--metrics")) {
		workload_list_metrics(stdout);
		return WL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--check"))
		return check_main(argc - 1, argv + 1);
	w = find_or_complain(argv[1]);
	if (!w)
		return WL_EXIT_USAGE;
	return workload_run(w, argc - 1, argv + 1);
}
