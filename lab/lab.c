/*
 * lab: the oomlab orchestrator. One binary, subcommands in a table (as git
 * and perf do); each subcommand lives in builtin-<name>.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "common/run-command.h"
#include "lab/cli/command-suggest.h"
#include "common/util.h"
#include "lab/util/version.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "kernel", cmd_kernel, "list kernel variants and build them into the cache" },
	{ "boot", cmd_boot, "boot a variant in a memory-constrained VM and run a command" },
	{ "profiles", cmd_profiles, "list the low-memory machine profiles" },
	{ "new", cmd_new, "write a commented experiment or profile file to fill in" },
	{ "keys", cmd_keys, "list the keys of experiment and profile files: type, default, meaning" },
	{ "workloads", cmd_workloads, "list the guest workloads: options and the metrics they report" },
	{ "metrics", cmd_metrics, "list the metrics: unit, kind, better direction, meaning, source" },
	{ "run", cmd_run, "run an experiment's trials and compare the variants" },
	{ "compare", cmd_compare, "compare the variants of one or more runs" },
	{ "results", cmd_results, "list the stored runs, summarise one, import run folders" },
	{ "report", cmd_report, "write an HTML report of a run: comparison, figures, environment" },
	{ "export", cmd_export, "export a run for Perfetto, perf or spreadsheets (csv, json)" },
	{ "bisect", cmd_bisect, "find the commit that moved a metric, steps that know the noise" },
	{ "version", cmd_version, "print the lab's version (git describe of its source)" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* NAME is no command: one line saying so, with the commands nearest it
 * (command-suggest.h, as a mistyped metric gets), and exit 2: bad input. */
static void __attribute__((noreturn)) unknown_command(const char *name)
{
	const char *names[N_COMMANDS];
	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	die_not_a_command(NULL, name, names, N_COMMANDS);
}

static void print_usage(FILE *out)
{
	fprintf(out, "usage: lab [--quiet] <command> [<args>]\n       lab --version\n\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nlab <command> --help describes a command and its options. A name that is no\n"
		     "command is bad input (exit 2), with the commands nearest it.\n");
}

int main(int argc, char **argv)
{
	install_child_reaper();
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			static char *args[] = { (char *)"version", NULL };
			return cmd_version(1, args);
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			quiet = true;
		} else {
			die_usage("unknown option '%s' (see lab --help)", argv[i]);
		}
	}
	if (i == argc) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 < argc) {
			static char *args[3];
			args[0] = argv[i + 1];
			args[1] = (char *)"--help";
			argv = args;
			argc = 2;
			i = 0;
		} else {
			print_usage(stdout);
			return 0;
		}
	}
	for (size_t c = 0; c < N_COMMANDS; c++)
		if (!strcmp(argv[i], commands[c].name)) {
			return commands[c].run(argc - i, argv + i);
		}
	unknown_command(argv[i]);
}
