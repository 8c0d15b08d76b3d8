/* The workload a line stands for (workload-line.h). */
#include "workload-line.h"

#include <stdbool.h>
#include <string.h>

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

const char *const *workload_line_past_runners(const char *const *argv)
{
	if (!argv[0])
		return argv;
	const char *program = last_component(argv[0]);
	/* as lab/run/command-check.c reads `taskset [-a] [-c] MASK PROGRAM ...`;
	 * `taskset -p` pins a running process and stays taskset */
	if (!strcmp(program, "taskset")) {
		size_t next = 1;
		while (argv[next] && argv[next][0] == '-' && strcmp(argv[next], "-p"))
			next++;
		if (argv[next] && strcmp(argv[next], "-p") && argv[next + 1])
			return workload_line_past_runners(argv + next + 1);
		return argv;
	}
	/* busybox's `time [-v] [-p] [-a] [-f FMT] [-o FILE] PROGRAM ...` (an
	 * applet: ash has no time keyword) runs PROGRAM */
	if (!strcmp(program, "time")) {
		size_t next = 1;
		while (argv[next] && argv[next][0] == '-') {
			bool takes_value = !strcmp(argv[next], "-f") || !strcmp(argv[next], "-o");
			next += takes_value && argv[next + 1] ? 2 : 1;
		}
		return argv[next] ? workload_line_past_runners(argv + next) : argv;
	}
	return argv;
}

const char *const *workload_line_program(const char *const *argv)
{
	argv = workload_line_past_runners(argv);
	if (argv[0] && !strcmp(last_component(argv[0]), "oomlab-workload") && argv[1] &&
	    argv[1][0] != '-')
		return argv + 1;
	return argv;
}

const char *workload_line_name(const char *const *argv)
{
	const char *const *program = workload_line_program(argv);
	return program[0] ? last_component(program[0]) : "";
}
