/*
 * The prepare step: a command (such as `fragment`) that shapes the machine
 * before the workload and holds that shape while it runs. It runs outside
 * the workload cgroup; its output is forwarded to the host like the
 * workload's, and the workload starts only once it printed a JSON event
 * named "ready". After the workload it is stopped with SIGTERM.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-child.h"
#include "agent-ctl.h"
#include "agent-log.h"
#include "agent-ports.h"
#include "agent-prepare.h"
#include "agent-self.h"
#include "workloads/lib/report.h"
#include "workloads/lib/sysinfo.h"

#define READY_MARK "\"name\":\"ready\""
#define STOP_TIMEOUT_S 30
/*
 * How long the prepare step has to report ready (guest seconds). A constant:
 * the agent once read it from the spec key "prepare_timeout", which the lab
 * never wrote (no profile or experiment key sets it), so every trial took
 * this default. The host bounds the whole boot anyway (lab/trial/trial.c's
 * watchdogs: the heartbeats sent while waiting keep the silence watchdog
 * quiet, the total one cuts the trial), so a second, per-trial knob would
 * set nothing the host does not.
 */
#define PREPARE_READY_TIMEOUT_S 600

static pid_t prepare_pid = -1;
static int prepare_out = -1;
static char pending[65536];
static size_t pending_len;
static bool saw_ready;

/* Forwards whole lines to the out port and watches for the ready event. */
static void forward_lines(bool flush_all)
{
	size_t start = 0;
	for (size_t i = 0; i < pending_len; i++) {
		if (pending[i] != '\n')
			continue;
		pending[i] = '\0';
		if (strstr(pending + start, READY_MARK))
			saw_ready = true;
		pending[i] = '\n';
		port_write(port_fd(CHANNEL_OUT), pending + start, i + 1 - start);
		start = i + 1;
	}
	if (flush_all || start == 0) {
		/* A line longer than the buffer goes out as it is. */
		if (flush_all || pending_len == sizeof(pending)) {
			if (pending_len > start)
				port_write(port_fd(CHANNEL_OUT), pending + start, pending_len - start);
			start = pending_len;
		}
	}
	memmove(pending, pending + start, pending_len - start);
	pending_len -= start;
}

void prepare_pump(void)
{
	if (prepare_out < 0)
		return;
	for (;;) {
		ssize_t n = read(prepare_out, pending + pending_len, sizeof(pending) - pending_len);
		if (n > 0) {
			pending_len += (size_t)n;
			forward_lines(false);
			continue;
		}
		if (n == 0) {
			forward_lines(true);
			close(prepare_out);
			prepare_out = -1;
		}
		return;
	}
}

static bool prepare_ended;
static int prepare_status;
static double prepare_ended_at;

bool prepare_reaped(pid_t pid, int status)
{
	if (pid <= 0 || pid != prepare_pid)
		return false;
	prepare_ended = true;
	prepare_status = status;
	prepare_ended_at = uptime_seconds();
	return true;
}

static bool prepare_alive(void)
{
	if (prepare_ended)
		return false;
	int status;
	pid_t r = prepare_pid > 0 ? waitpid(prepare_pid, &status, WNOHANG) : -1;
	if (r == 0)
		return true;
	if (r == prepare_pid)
		prepare_reaped(r, status);
	return false;
}

/* include/linux/sched.h: the task is in do_exit(); it got there by a fatal signal */
#define PF_EXITING_FLAG 0x4
#define PF_SIGNALED_FLAG 0x400
#define SIGKILL_PENDING (1ull << (SIGKILL - 1))

/* True when task PID is a member of process group GROUP that is on its way out. */
static bool member_dying(const char *pid, pid_t group)
{
	char path[300], text[1024];
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (wl_read_line(path, text, sizeof(text)) < 0)
		return false;
	/* after the command name's closing parenthesis: state ppid pgrp session tty tpgid flags */
	const char *rest = strrchr(text, ')');
	char state;
	int ppid, pgrp, session, tty, tpgid;
	unsigned long flags;
	if (!rest || sscanf(rest + 1, " %c %d %d %d %d %d %lu", &state, &ppid, &pgrp, &session, &tty,
			    &tpgid, &flags) != 7 || pgrp != group)
		return false;
	/* a member that ends on its own (a shell's child) is no loss; one a signal ends is */
	if ((state == 'Z' || state == 'X' || (flags & PF_EXITING_FLAG)) && (flags & PF_SIGNALED_FLAG))
		return true;
	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool killed = false;
	unsigned long long mask;
	while (!killed && fgets(text, sizeof(text), f))
		if (sscanf(text, "ShdPnd: %llx", &mask) == 1 || sscanf(text, "SigPnd: %llx", &mask) == 1)
			killed = (mask & SIGKILL_PENDING) != 0;
	fclose(f);
	return killed;
}

/*
 * An OOM kill is not an end yet: the victim frees its memory in do_exit(),
 * which under TCG and a debug kernel can outlast the command by seconds. So
 * a step with a SIGKILL pending, or exiting or a zombie by a signal (it or a
 * process of its group, such as the fragmenter's stress-ng), counts as ended.
 */
static bool prepare_dying(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	bool dying = false;
	while (!dying && d && (de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			dying = member_dying(de->d_name, prepare_pid);
	if (d)
		closedir(d);
	return dying;
}

void prepare_report_lost(void)
{
	if (prepare_pid <= 0)
		return;
	int code;
	if (prepare_alive()) {
		if (!prepare_dying())
			return;
		code = -1;  /* still on its way out: no status yet */
		prepare_ended_at = uptime_seconds();
	} else {
		code = WIFSIGNALED(prepare_status) ? 128 + WTERMSIG(prepare_status) : WEXITSTATUS(prepare_status);
	}
	struct jl j;
	ctl_begin(&j, CTL_PREPARE_LOST);
	jl_i64(&j, PREPARE_LOST_STATUS, code);
	jl_dbl(&j, PREPARE_LOST_ENDED_UPTIME, prepare_ended_at);
	jl_emit(&j, port_fd(CHANNEL_CTL));
	agent_log("the prepare step ended during the workload (status %d)", code);
	prepare_pid = -1;
}

int prepare_start(const struct job *job)
{
	const char *command = job->prepare;
	if (!command || !*command)
		return 1;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	const char *argv[] = { "sh", "-c", command, NULL };
	struct agent_child c;
	agent_child_init(&c, "the prepare step");
	c.path = "/bin/sh";
	c.argv = argv;
	/* Outside the workload cgroup and killable like any process; it may set its own adj.
	 * Its own process group, so that its processes can be found (prepare_dying). */
	c.oom_killable = true;
	c.new_session = true;
	c.stdin_null = true;
	c.out = fds[1];
	c.err = port_fd(CHANNEL_OUT);
	prepare_pid = agent_spawn(&c);
	close(fds[1]);
	prepare_out = fds[0];
	fcntl(prepare_out, F_SETFL, O_NONBLOCK);
	for (long ms = 0; ms < PREPARE_READY_TIMEOUT_S * 1000 && !saw_ready; ms += 100) {
		struct pollfd p = { .fd = prepare_out, .events = POLLIN };
		poll(&p, 1, 100);
		prepare_pump();
		if (!saw_ready && !prepare_alive() && prepare_out < 0)
			break;
		if (ms % 1000 == 0)
			ctl_event(CTL_HEARTBEAT, NULL, NULL);
	}
	if (!saw_ready) {
		agent_log("the prepare step did not report ready");
		prepare_stop();
		return -1;
	}
	return 0;
}

void prepare_stop(void)
{
	if (prepare_pid <= 0 || prepare_ended)
		return;
	agent_child_stop(prepare_pid, SIGTERM, STOP_TIMEOUT_S, prepare_pump, "the prepare step");
	prepare_pid = -1;
	prepare_pump();
}
