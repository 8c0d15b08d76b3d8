/* lab workloads: the guest's workloads, from the table the guest runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "common/util.h"
#include "lab/cli/options.h"
#include "lab/reference/workload-catalog.h"
#include "lab/reference/workload-reference.h"
#include "lab/util/glob.h"

/* How many names a mistyped workload is offered. */
#define SUGGESTED 3

static const char workloads_usage[] =
	"usage: lab workloads [--format text|markdown|json] [NAME]\n"
	"\n"
	"Lists the guest's workloads (workloads/workload.h, read from the built\n"
	"oomlab-workload --describe): each one's summary, usage, options and the\n"
	"metrics it reports, with the unit, kind and better direction the\n"
	"comparison gives each (the rows of lab metrics; a metric of no row is\n"
	"judged by the unit it reports, neither better). NAME shows one workload;\n"
	"a NAME that is no workload is bad input (exit 2), with the nearest names.\n"
	"\n";

/* The workload named NAME of C, or exit 2 with the nearest names. */
static const struct workload_info *find_or_die(const struct workload_catalog *c, const char *name)
{
	const char **names = xcalloc(c->n, sizeof(*names));
	for (size_t i = 0; i < c->n; i++) {
		if (!strcmp(c->items[i].name, name)) {
			free(names);
			return &c->items[i];
		}
		names[i] = c->items[i].name;
	}
	struct strbuf near = STRBUF_INIT;
	if (glob_suggest(&near, names, c->n, name, SUGGESTED))
		die_usage("workloads: '%s' is no workload; did you mean %s? (see lab workloads)", name,
			  near.buf);
	die_usage("workloads: '%s' is no workload (see lab workloads)", name);
}

int cmd_workloads(int argc, char **argv)
{
	int format = REFERENCE_TEXT;
	const struct opt opts[] = {
		OPT_CHOICE('f', "format", &format, "F", reference_format_names,
			   "text (default), markdown (for docs/REFERENCE.md) or json"),
		OPT_END(),
	};
	int n = lab_parse_options("workloads", argc, argv, opts, workloads_usage, NULL);
	if (n > 1)
		die_usage("workloads: one NAME at most, not '%s' too (see lab workloads --help)", argv[2]);
	struct workload_catalog c;
	struct strbuf err = STRBUF_INIT;
	if (workload_catalog_load(NULL, &c, &err) < 0)
		die("workloads: %s", err.buf);
	const struct workload_info *items = c.items;
	size_t n_items = c.n;
	if (n) {
		items = find_or_die(&c, argv[1]);
		n_items = 1;
	}
	workload_reference_print(stdout, (enum reference_format)format, items, n_items);
	workload_catalog_clear(&c);
	return 0;
}
