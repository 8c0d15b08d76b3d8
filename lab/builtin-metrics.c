/* lab metrics: the catalogue of metrics, from the rows the comparison uses. */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "common/util.h"
#include "lab/cli/options.h"
#include "lab/reference/metric-reference.h"

static const char metrics_usage[] =
	"usage: lab metrics [--format text|markdown|json] [GLOB]\n"
	"\n"
	"Lists the metrics the lab can judge: each name or family (a glob), its unit,\n"
	"its kind (which test compares it), which direction is better, what the\n"
	"figure is and where it comes from. The rows are the ones the comparison\n"
	"looks up, in its order: the first row a name matches judges it. GLOB keeps\n"
	"the rows whose names as written it matches (else those some name of which\n"
	"it can match); a plain name shows the one row that judges it. A GLOB that\n"
	"matches no row is bad input (exit 2), with the nearest names.\n"
	"\n";

int cmd_metrics(int argc, char **argv)
{
	int format = REFERENCE_TEXT;
	const struct opt opts[] = {
		OPT_CHOICE('f', "format", &format, "F", reference_format_names,
			   "text (default), markdown (a table, for docs/REFERENCE.md) or json"),
		OPT_END(),
	};
	int n = lab_parse_options("metrics", argc, argv, opts, metrics_usage, NULL);
	if (n > 1)
		die_usage("metrics: one GLOB at most, not '%s' too (see lab metrics --help)", argv[2]);
	struct metric_reference *rows;
	size_t n_rows;
	struct strbuf err = STRBUF_INIT;
	if (metric_reference_select(n ? argv[1] : NULL, &rows, &n_rows, &err) < 0)
		die_usage("metrics: %s", err.buf);
	metric_reference_print(stdout, (enum reference_format)format, rows, n_rows);
	free(rows);
	return 0;
}
