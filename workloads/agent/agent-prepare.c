/*
 * The prepare step: a command (such as `fragment`) that shapes the machine
 * before the workload and holds that shape while it runs. It runs outside
 * the workload cgroup; its output is forwarded to the host like the
 * workload's, and the workload starts only once it printed a JSON event
 * named "ready". After the workload it is stopped with SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"

#define READY_MARK "\"name\":\"ready\""
#define STOP_TIMEOUT_S 30

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

static bool prepare_alive(void)
{
	return agent_child_alive(prepare_pid);
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
	/* Outside the workload cgroup and killable like any process; it may set its own adj. */
	c.oom_killable = true;
	c.stdin_null = true;
	c.out = fds[1];
	c.err = port_fd(CHANNEL_OUT);
	prepare_pid = agent_spawn(&c);
	close(fds[1]);
	prepare_out = fds[0];
	fcntl(prepare_out, F_SETFL, O_NONBLOCK);
	long timeout_s = job_get_long(job, "prepare_timeout", 600);
	for (long ms = 0; ms < timeout_s * 1000 && !saw_ready; ms += 100) {
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
	if (prepare_pid <= 0)
		return;
	agent_child_stop(prepare_pid, SIGTERM, STOP_TIMEOUT_S, prepare_pump, "the prepare step");
	prepare_pid = -1;
	prepare_pump();
}
