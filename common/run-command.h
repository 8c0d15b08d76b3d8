/*
 * Running other programs: make, patch, tar, QEMU. Every child the lab starts
 * is registered so that a signal to the lab (Ctrl-C, SIGTERM) takes the
 * child's whole process group down with it, and every child also asks the
 * kernel to kill it should the lab die without running any handler.
 */
#ifndef LAB_RUN_COMMAND_H
#define LAB_RUN_COMMAND_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

struct child_process {
	const char *const *argv;  /* NULL-terminated; argv[0] is looked up in PATH */
	const char *dir;          /* working directory, or NULL */
	const char *const *env;   /* extra "NAME=value" entries, NULL-terminated */
	const char *out_path;     /* stdout to this file (appended), or NULL */
	bool err_to_out;          /* stderr goes where stdout goes */
	const char *err_path;     /* else stderr to this file (truncated), or NULL */
	bool capture;             /* stdout (and stderr if err_to_out) into out_fd */
	bool stdin_inherit;       /* default: stdin is /dev/null */
	bool foreground;          /* with stdin_inherit on a terminal: the child's group owns it */
	bool stdout_to_stderr;    /* keep our stdout clean for tables */
	pid_t pid;
	int out_fd;               /* read end when capture */
	int term_signal;          /* once finished: the signal that ended it, 0 when it exited */
};

int start_command(struct child_process *cp);
/* Starts FN(ARG) in a forked copy of this process instead of a program, under
 * the same control as start_command's children (its own process group, killed
 * with the lab, dead with it); it exits with FN's return value. The copy keeps
 * the terminating-signal handlers and owns only the children it starts itself.
 * cp->argv is unused; dir, env and stdio settings are ignored. */
int start_function(struct child_process *cp, int (*fn)(void *arg), void *arg);
/* Returns the exit status, 128+N for death by signal N, -1 if waiting failed. */
int finish_command(struct child_process *cp);
/* Like finish_command but gives up after timeout seconds: returns -2 then. */
int finish_command_timeout(struct child_process *cp, double timeout);
int run_command(struct child_process *cp);
/* Signals the child's whole process group. */
void kill_command(struct child_process *cp, int sig);

/* Runs argv with stdout and stderr captured into out; returns the status. */
int capture_command(const char *const *argv, const char *dir, struct strbuf *out);
/* capture_command for output the caller reads: 0, or -1 with "ARGV... failed:
 * FIRST LINE" in err and out released. */
int capture_command_or_say(const char *const *argv, struct strbuf *out, struct strbuf *err);
/* capture_command, the output appended to LINES a line an item: without its
 * newline, an empty line as "", a last line without a newline as a line too.
 * Returns the status; the lines are taken whatever it is. */
int capture_lines(const char *const *argv, const char *dir, struct strlist *lines);
/* capture_lines for output the caller reads: 0, or -1 with "ARGV... failed:
 * FIRST LINE" in err (capture_command_or_say) and nothing added to LINES. */
int capture_lines_or_say(const char *const *argv, struct strlist *lines, struct strbuf *err);
/* True if NAME is an executable found in PATH. */
bool have_program(const char *name);

/* Installs the handlers that kill registered children on SIGINT/SIGTERM/SIGHUP. */
void install_child_reaper(void);
/* Set once a terminating signal arrived; long loops check it and unwind. */
extern volatile int interrupted_by;

#endif
