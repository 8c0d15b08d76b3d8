/* Command-line option helpers shared by the subcommands. */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

/*
 * getopt_long with the lab's manners: an unknown option or a missing
 * argument is a one-line error naming the command, and exit status 2.
 * Returns the option character, or -1 at the end of the options.
 */
int next_option(const char *command, int argc, char **argv, const char *shortopts,
		const struct option *longopts);
/* Parses a positive number for option NAME or dies with status 2. */
unsigned long option_ulong(const char *command, const char *name, const char *value);
double option_seconds(const char *command, const char *name, const char *value);

#endif
