/*
 * The one way the agent starts and stops its children (agent-child.h), as
 * common/run-command.c is the host's: the command, the prepare step, perf,
 * and the agent's own helpers (the kernel log forwarder, the relays).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent-cgroup.h"
#include "agent-child.h"
#include "agent-log.h"
#include "workloads/lib/sysinfo.h"

#define POLL_MS 10

/* The serial console the kernel's console= names (lab/kernel/platform.c): q35's 8250, virt's PL011. */
#if defined(__aarch64__)
#define AGENT_CONSOLE_TTY "/dev/ttyAMA0"
#else
#define AGENT_CONSOLE_TTY "/dev/ttyS0"
#endif

/* Writes VALUE to /proc/self/NAME. */
static int set_self(const char *name, const char *value)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/%s", name);
	return wl_write_text(path, value);
}

static void setup_stdio(const struct agent_child *c)
{
	if (c->controlling_tty) {
		int tty = open(AGENT_CONSOLE_TTY, O_RDWR);
		if (tty >= 0) {
			ioctl(tty, TIOCSCTTY, 1);
			dup2(tty, 0);
			dup2(tty, 1);
			dup2(tty, 2);
		}
		return;
	}
	if (c->stdin_null) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
	}
	if (c->out >= 0)
		dup2(c->out, 1);
	if (c->err >= 0)
		dup2(c->err, 2);
	if (c->err_path) {
		int err = open(c->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (err >= 0)
			dup2(err, 2);
	}
}

void agent_child_init(struct agent_child *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->close_fd = c->out = c->err = -1;
}

pid_t agent_spawn(const struct agent_child *c)
{
	pid_t pid = fork();
	if (pid != 0) {
		if (pid < 0)
			agent_log("cannot start %s: %s", c->name, strerror(errno));
		return pid;
	}
	if (c->fn)
		prctl(PR_SET_NAME, c->name);
	if (c->close_fd >= 0)
		close(c->close_fd);
	if (c->nice && setpriority(PRIO_PROCESS, 0, c->nice) < 0)
		agent_log("cannot renice %s", c->name);
	/* the agent runs at oom_score_adj -1000, which children inherit */
	if (c->oom_killable && set_self("oom_score_adj", "0") < 0)
		agent_log("cannot make %s killable by the OOM killer", c->name);
	/* a task flag that fork copies: the command's children fail too, the agent never */
	if (c->make_it_fail && set_self("make-it-fail", "1") < 0)
		agent_log("cannot let fault injection fail %s", c->name);
	if (c->workload_cgroup)
		workload_cgroup_enter();
	if (c->new_session)
		setsid();
	setup_stdio(c);
	if (c->fn) {
		c->fn(c->arg);
		_exit(0);
	}
	if (c->search_path)
		execvp(c->path, (char *const *)c->argv);
	else
		execv(c->path, (char *const *)c->argv);
	int why = errno;
	agent_log("cannot run %s: %s", c->path, strerror(why));
	_exit(why == ENOENT || why == ENOTDIR ? 127 : 126);
}

bool agent_child_alive(pid_t pid)
{
	return pid > 0 && waitpid(pid, NULL, WNOHANG) == 0;
}

bool agent_child_wait(pid_t pid, double seconds, void (*pump)(void))
{
	for (double waited = 0; waited <= seconds; waited += POLL_MS / 1000.0) {
		pid_t r = waitpid(pid, NULL, WNOHANG);
		/* ECHILD: the agent's orphan reaper collected it already */
		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		if (pump)
			pump();
		struct timespec ts = { 0, POLL_MS * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return false;
}

void agent_child_stop(pid_t pid, int sig, double seconds, void (*pump)(void), const char *name)
{
	if (pid <= 0)
		return;
	kill(pid, sig);
	if (agent_child_wait(pid, seconds, pump))
		return;
	agent_log("%s did not stop; killing it", name);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
