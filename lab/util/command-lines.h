/*
 * The command lines of an experiment (its prepare and workload lines) or of
 * lab boot (the command and --prepare), each split once as the guest's
 * /bin/sh would split it (shell-words.h). The command check, the metric
 * check and the selftests' build all read this one split; command-check.h
 * makes it, with the guest's variables as the host knows them.
 */
#ifndef LAB_COMMAND_LINES_H
#define LAB_COMMAND_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "shell-words.h"

struct command_line {
	const char *key;       /* "prepare", "workload", "the command", "--prepare" */
	const char *text;      /* the line as written (not owned) */
	int line;              /* its line in the file, 0 for none */
	bool program_first;    /* a workload line: exec starts its first command */
	struct shell_line split;
	char *bad;             /* NULL, or why the line cannot be split as the guest
				  would (a quote left open, a variable the guest lacks):
				  SPLIT is empty then */
};

struct command_lines {
	const char *file;      /* the experiment file, or "boot" */
	struct command_line *items;
	size_t n, alloc;
};

void command_lines_clear(struct command_lines *c);

#endif
