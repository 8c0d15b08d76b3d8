/* Command-line option helpers shared by the subcommands. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "common/util.h"

int next_option(const char *command, int argc, char **argv, const char *shortopts,
		const struct option *longopts)
{
	opterr = 0;
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?') {
		const char *arg = argv[optind - 1];
		if (optopt && strchr(shortopts, optopt))
			die_usage("%s: option '-%c' needs a value (see lab %s --help)", command, optopt,
				  command);
		if (!optopt && arg && starts_with(arg, "--") && strchr(arg, '='))
			die_usage("%s: unknown option or value '%s' (see lab %s --help)", command, arg,
				  command);
		if (!optopt && arg && starts_with(arg, "--")) {
			for (const struct option *o = longopts; o && o->name; o++)
				if (!strcmp(arg + 2, o->name))
					die_usage("%s: option '%s' needs a value (see lab %s --help)",
						  command, arg, command);
			die_usage("%s: unknown option '%s' (see lab %s --help)", command, arg, command);
		}
		if (optopt)
			die_usage("%s: unknown option '-%c' (see lab %s --help)", command, optopt, command);
		die_usage("%s: unknown option '%s' (see lab %s --help)", command, arg ? arg : "?",
			  command);
	}
	if (c == ':')
		die_usage("%s: option '%s' needs a value", command, argv[optind - 1]);
	return c;
}

unsigned long option_ulong(const char *command, const char *name, const char *value)
{
	unsigned long v;
	if (!parse_ulong(value, &v) || v == 0)
		die_usage("%s: %s wants a positive whole number, not '%s'", command, name, value);
	return v;
}

double option_seconds(const char *command, const char *name, const char *value)
{
	double v;
	if (!parse_double(value, &v) || v <= 0)
		die_usage("%s: %s wants a positive number of seconds, not '%s'", command, name, value);
	return v;
}
