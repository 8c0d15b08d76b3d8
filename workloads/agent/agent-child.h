/* The one way the agent starts and stops a child (agent-child.c). */
#ifndef OOMLAB_AGENT_CHILD_H
#define OOMLAB_AGENT_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

struct agent_child {
	const char *name;           /* for messages; a function child's process name */
	const char *path;           /* the program to run, with argv ... */
	bool search_path;           /* path is looked up in $PATH (execvp) */
	const char *const *argv;
	void (*fn)(void *arg);      /* ... or a function to run, then exit */
	void *arg;
	int close_fd;               /* closed in the child (the other end of its pipe); -1: none */
	bool stdin_null;            /* stdin from /dev/null */
	int out, err;               /* stdout and stderr to these; -1: the agent's */
	const char *err_path;       /* stderr to this file (truncated) */
	int nice;                   /* niceness; 0: the agent's */
	bool oom_killable;          /* oom_score_adj 0 rather than the agent's -1000 */
	bool workload_cgroup;       /* in the workload cgroup */
	bool make_it_fail;          /* fault injection may fail its allocations, and its children's */
	bool new_session;
	bool controlling_tty;       /* stdin, stdout and stderr on the serial console, as its tty */
};
/* Every field off, the fds -1. */
void agent_child_init(struct agent_child *c, const char *name);
/* Starts the child; its pid, or -1 (logged). A program that cannot be run
 * ends the child as a shell says it: 127 not found, 126 not runnable. */
pid_t agent_spawn(const struct agent_child *c);
bool agent_child_alive(pid_t pid);
/* Waits up to SECONDS for PID to end, calling PUMP (may be NULL) meanwhile; true once it is gone. */
bool agent_child_wait(pid_t pid, double seconds, void (*pump)(void));
/* Sends SIG, waits up to SECONDS (calling PUMP), then SIGKILL; returns once it is gone. */
void agent_child_stop(pid_t pid, int sig, double seconds, void (*pump)(void), const char *name);

#endif
