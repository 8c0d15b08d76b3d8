/* lab version (and lab --version): the lab's version (version.h). */
#include <stdio.h>

#include "builtin.h"
#include "lab/cli/options.h"
#include "lab/util/version.h"

static const char version_usage[] =
	"usage: lab version\n"
	"       lab --version\n"
	"\n"
	"Prints the lab's version: git describe --always --dirty of its source when\n"
	"it was built (-dirty: with edits not committed), or 'unknown' when it was\n"
	"built outside git. run.json, every trial.json and the report carry it.\n";

int cmd_version(int argc, char **argv)
{
	const struct opt opts[] = { OPT_END() };
	if (lab_parse_options("version", argc, argv, opts, version_usage, NULL) > 0)
		die_usage("version: unexpected argument '%s'", argv[1]);
	printf("lab %s\n", lab_version());
	return 0;
}
