/* Running other programs with their process groups under the lab's control. */
#include "run-command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LIVE_CHILDREN 64

static pid_t live_children[MAX_LIVE_CHILDREN];
volatile int interrupted_by;

static void register_child(pid_t pid)
{
	for (int i = 0; i < MAX_LIVE_CHILDREN; i++)
		if (!live_children[i]) {
			live_children[i] = pid;
			return;
		}
}

static void unregister_child(pid_t pid)
{
	for (int i = 0; i < MAX_LIVE_CHILDREN; i++)
		if (live_children[i] == pid)
			live_children[i] = 0;
}

static void kill_all_children(void)
{
	for (int i = 0; i < MAX_LIVE_CHILDREN; i++)
		if (live_children[i] > 0)
			kill(-live_children[i], SIGKILL);
}

static void on_terminating_signal(int sig)
{
	interrupted_by = sig;
	kill_all_children();
	/* Die of the same signal so our parent sees what happened. */
	signal(sig, SIG_DFL);
	raise(sig);
}

void install_child_reaper(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_terminating_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(kill_all_children);
}

/* In the child: a file its output was to go to cannot be made (a link in
 * the way, say). It does not run with its output elsewhere. */
static void child_cannot_open(const char *path)
{
	dprintf(2, "lab: cannot open %s: %s\n", path, strerror(errno));
	_exit(127);
}

static void child_setup_stdio(const struct child_process *cp, int pipe_write)
{
	if (!cp->stdin_inherit) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0) {
			dup2(null, 0);
			close(null);
		}
	}
	int out = -1;
	if (cp->capture)
		out = pipe_write;
	else if (cp->out_path) {
		out = open(cp->out_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
		if (out < 0)
			child_cannot_open(cp->out_path);
	} else if (cp->stdout_to_stderr)
		out = dup(2);
	if (out >= 0) {
		dup2(out, 1);
		if (cp->err_to_out)
			dup2(out, 2);
		if (out > 2)
			close(out);
	}
	if (cp->err_path && !cp->err_to_out) {
		/* made afresh: whatever is there (a link, say) is removed, never followed */
		if (unlink(cp->err_path) < 0 && errno != ENOENT)
			child_cannot_open(cp->err_path);
		int err = open(cp->err_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
		if (err < 0)
			child_cannot_open(cp->err_path);
		dup2(err, 2);
		close(err);
	}
}

/*
 * Forks a child in a process group of its own that dies with the lab: 0 in
 * the child, its pid in the parent (registered), -1 when fork failed. All
 * signals are blocked across the fork so that the child cannot be killed
 * before it is registered; both return with them still blocked, *OLD the
 * mask to restore.
 */
static pid_t fork_controlled(sigset_t *old)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, old, NULL);
		return error("cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		return 0;
	}
	setpgid(pid, pid);
	register_child(pid);
	return pid;
}

int start_command(struct child_process *cp)
{
	int fds[2] = { -1, -1 };
	if (cp->capture && pipe2(fds, O_CLOEXEC) < 0)
		return error("cannot create a pipe: %s", strerror(errno));

	sigset_t old;
	pid_t pid = fork_controlled(&old);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		child_setup_stdio(cp, fds[1]);
		if (cp->dir && chdir(cp->dir) < 0) {
			fprintf(stderr, "lab: cannot enter %s: %s\n", cp->dir, strerror(errno));
			_exit(127);
		}
		for (const char *const *e = cp->env; e && *e; e++)
			putenv((char *)*e);
		execvp(cp->argv[0], (char *const *)cp->argv);
		fprintf(stderr, "lab: cannot run %s: %s\n", cp->argv[0], strerror(errno));
		_exit(127);
	}
	if (cp->foreground && cp->stdin_inherit && isatty(0)) {
		/* Its own process group keeps a child killable as a whole; a terminal reads only
		 * to its foreground group, so an interactive child is made that group. */
		signal(SIGTTOU, SIG_IGN);
		tcsetpgrp(0, pid);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	cp->pid = pid;
	if (cp->capture) {
		close(fds[1]);
		cp->out_fd = fds[0];
	}
	return 0;
}

int start_function(struct child_process *cp, int (*fn)(void *arg), void *arg)
{
	/* Buffered output would otherwise be written twice, once by each copy. */
	fflush(NULL);
	sigset_t old;
	pid_t pid = fork_controlled(&old);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* The siblings are the parent's to kill, not this copy's. */
		memset(live_children, 0, sizeof(live_children));
		sigprocmask(SIG_SETMASK, &old, NULL);
		int rc = fn(arg);
		exit(rc < 0 ? 1 : rc);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	cp->pid = pid;
	return 0;
}

static int decode_status(struct child_process *cp, int status)
{
	cp->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

static void take_terminal_back(const struct child_process *cp)
{
	if (cp->foreground && cp->stdin_inherit && isatty(0))
		tcsetpgrp(0, getpgrp());
}

int finish_command(struct child_process *cp)
{
	int status;
	while (waitpid(cp->pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	take_terminal_back(cp);
	unregister_child(cp->pid);
	/* Grandchildren left in the group (make's compilers) go with it. */
	kill(-cp->pid, SIGKILL);
	return decode_status(cp, status);
}

int finish_command_timeout(struct child_process *cp, double timeout)
{
	double deadline = now_monotonic() + timeout;
	for (;;) {
		int status;
		pid_t r = waitpid(cp->pid, &status, WNOHANG);
		if (r == cp->pid) {
			take_terminal_back(cp);
			unregister_child(cp->pid);
			kill(-cp->pid, SIGKILL);
			return decode_status(cp, status);
		}
		if (r < 0 && errno != EINTR)
			return -1;
		if (now_monotonic() >= deadline)
			return -2;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

int run_command(struct child_process *cp)
{
	if (start_command(cp) < 0)
		return -1;
	return finish_command(cp);
}

void kill_command(struct child_process *cp, int sig)
{
	if (cp->pid > 0)
		kill(-cp->pid, sig);
}

int capture_command(const char *const *argv, const char *dir, struct strbuf *out)
{
	struct child_process cp = { .argv = argv, .dir = dir, .capture = true, .err_to_out = true };
	if (start_command(&cp) < 0)
		return -1;
	char buf[8192];
	for (;;) {
		ssize_t n = read(cp.out_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t)n);
	}
	close(cp.out_fd);
	return finish_command(&cp);
}

int capture_command_or_say(const char *const *argv, struct strbuf *out, struct strbuf *err)
{
	if (capture_command(argv, NULL, out) == 0)
		return 0;
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(err, "%s%s", i ? " " : "", argv[i]);
	strbuf_addf(err, " failed: %s", strbuf_first_line(out));
	strbuf_release(out);
	return -1;
}

int capture_lines(const char *const *argv, const char *dir, struct strlist *lines)
{
	struct strbuf out = STRBUF_INIT;
	int status = capture_command(argv, dir, &out);
	strlist_add_lines(lines, strbuf_str(&out), out.len);
	strbuf_release(&out);
	return status;
}

int capture_lines_or_say(const char *const *argv, struct strlist *lines, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	if (capture_command_or_say(argv, &out, err) < 0)
		return -1;
	strlist_add_lines(lines, strbuf_str(&out), out.len);
	strbuf_release(&out);
	return 0;
}

bool have_program(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	char *copy = xstrdup(path), *save = NULL;
	bool found = false;
	for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *candidate = xasprintf("%s/%s", dir, name);
		found = access(candidate, X_OK) == 0;
		free(candidate);
	}
	free(copy);
	return found;
}
