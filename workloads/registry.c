/* The table of workloads, from the one list (common/proto/workload-list.h).
 * Add a workload: write workloads/NAME.c with NAME_main() and NAME_usage[],
 * add it to that list and its metrics' rows to common/proto/workload-metrics.h. */
#include "workload.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/proto/workload-describe.h"
#include "lib/args.h"
#include "lib/report.h"

#define WORKLOAD_ROW(ident, name, summary) { name, summary, ident##_main, ident##_usage, ident##_metric_rows },
const struct workload workload_table[] = {
	WORKLOADS(WORKLOAD_ROW)
	{ NULL, NULL, NULL, NULL, NULL },
};
#undef WORKLOAD_ROW

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

/* Each name ROWS declare, a line: PREFIX, SEP, the row's name and its label set. */
static void print_declared(FILE *f, const char *prefix, const char *sep, const struct metric_row *rows)
{
	for (const struct metric_row *row = rows; row->name; row++) {
		const char *set;
		for (size_t i = 0; (set = metric_row_label_set(row, i)); i++)
			fprintf(f, "%s%s%s%s%s\n", prefix, sep, row->name, *set ? "." : "", set);
	}
}

void workload_describe(void)
{
	wl_set_describe();
	for (const struct workload *w = workload_table; w->name; w++) {
		printf(DESCRIBE_WORKLOAD "\t%s\t%s\n", w->name, w->summary);
		fflush(stdout);
		char *argv[] = { (char *)w->name, (char *)"--help", NULL };
		workload_run(w, 2, argv);
		print_declared(stdout, DESCRIBE_METRIC, "\t", w->metrics);
	}
	fflush(stdout);
}

void workload_list_metrics(FILE *f)
{
	for (const struct workload *w = workload_table; w->name; w++)
		print_declared(f, w->name, ".", w->metrics);
}
