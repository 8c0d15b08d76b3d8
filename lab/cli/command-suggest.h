/*
 * A name that is no command of the lab, or no subcommand of one of its
 * commands: one line saying so, with the names nearest it (glob_suggest(),
 * as a mistyped metric or key gets), and exit 2: bad input.
 */
#ifndef LAB_COMMAND_SUGGEST_H
#define LAB_COMMAND_SUGGEST_H

#include <stddef.h>

/* How many names a mistyped command is offered. */
#define COMMAND_SUGGESTED 3

/* The message for TYPED, which none of NAMES (N of them) is, into a
 * malloc'd string: "'rnu' is not a lab command. Did you mean 'run'?", or
 * for the subcommands of COMMAND (NULL: the lab's own commands) "kernel:
 * 'biuld' is not a lab kernel command. Did you mean 'build'?"; with no name
 * near, where the commands are listed instead. */
char *not_a_command(const char *command, const char *typed, const char *const *names, size_t n);
/* not_a_command()'s line on stderr, and exit 2. */
void die_not_a_command(const char *command, const char *typed, const char *const *names, size_t n)
	__attribute__((noreturn));

#endif
