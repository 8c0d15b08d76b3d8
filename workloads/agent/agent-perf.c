/*
 * The recorder: perf record for the whole workload, in pipe mode into the
 * perf port (through a relay, in page-sized writes), so every event already
 * recorded is on the host even if the guest dies a moment later. perf is
 * launched before the prepare step, while memory is whole (its set-up reads
 * tracefs with order-2 allocations that a fragmented guest may not grant),
 * with its events off; the agent enables them through perf's control fifo
 * once the machine is prepared, waiting for the acknowledgement, so the
 * workload never starts before the recording does.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent-child.h"
#include "agent-ctl.h"
#include "agent-log.h"
#include "agent-perf.h"
#include "agent-pin.h"
#include "agent-ports.h"
#include "workloads/lib/report.h"

#define PERF "/usr/bin/perf"
#define CTL_FIFO "/tmp/oomlab-perf-ctl"
#define ACK_FIFO "/tmp/oomlab-perf-ack"
#define PERF_STDERR "/tmp/oomlab-perf.stderr"
#define PERF_MAX_ARGS 256
#define START_TIMEOUT_MS 60000
#define STOP_TIMEOUT_S 60
#define RECORDER_NICE -10

static pid_t perf_pid = -1;
static int ack_fd = -1, ctl_fd = -1;

/* The events of the "-e EVENT" pairs among perf's arguments, ','
 * separated: what the trace can hold (the CTL_RECORDING event says it). */
static char recorded_events[4096];

static void note_events(char *const *args, int n)
{
	size_t len = 0;

	recorded_events[0] = '\0';
	for (int i = 0; i + 1 < n; i++)
		if (!strcmp(args[i], "-e") && len + strlen(args[i + 1]) + 2 < sizeof(recorded_events))
			len += (size_t)snprintf(recorded_events + len, sizeof(recorded_events) - len,
						"%s%s", len ? "," : "", args[i + 1]);
}

const char *perf_recorded_events(void)
{
	return recorded_events;
}

static int read_args(const char *path, char **argv, int max)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int n = 0;
	char line[1024];
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line)
			argv[n++] = strdup(line);
	}
	fclose(f);
	return n;
}

static bool perf_alive(void)
{
	return agent_child_alive(perf_pid);
}

/* Opens the control fifo once perf reads it; gives up if perf died. */
static int open_ctl(void)
{
	for (int ms = 0; ms < START_TIMEOUT_MS; ms += 20) {
		int fd = open(CTL_FIFO, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != ENXIO || !perf_alive())
			return -1;
		usleep(20 * 1000);
	}
	return -1;
}

static bool wait_for_ack(int ack)
{
	char buf[16];
	size_t got = 0;
	for (int ms = 0; ms < START_TIMEOUT_MS && perf_alive(); ms += 100) {
		struct pollfd p = { .fd = ack, .events = POLLIN };
		if (poll(&p, 1, 100) > 0) {
			ssize_t n = read(ack, buf + got, sizeof(buf) - got - 1);
			if (n > 0) {
				got += (size_t)n;
				buf[got] = '\0';
				if (strstr(buf, "ack"))
					return true;
			}
		}
	}
	return false;
}

/* Sends one command through perf's control fifo and waits for its ack. */
static bool perf_command(const char *command)
{
	if (ctl_fd < 0)
		ctl_fd = open_ctl();
	return ctl_fd >= 0 && write(ctl_fd, command, strlen(command)) == (ssize_t)strlen(command) &&
	       wait_for_ack(ack_fd);
}

void perf_flush(void)
{
	/*
	 * perf reads its ring buffers each time it wakes; a ping wakes it. Pinged a
	 * ten times a second, perf sends what was recorded within a fraction of a
	 * second (so a panic loses at most that), without the per-event wake-ups
	 * of --no-buffering, which cost a spawn loop 15% under TCG. Acks are
	 * drained without waiting; a fifo that is full is skipped.
	 */
	if (perf_pid <= 0 || ctl_fd < 0)
		return;
	if (write(ctl_fd, "ping\n", 5) < 0 && errno != EAGAIN)
		return;
	char drain[256];
	while (read(ack_fd, drain, sizeof(drain)) > 0)
		;
}

int perf_launch(const char *args_path)
{
	char *extra[PERF_MAX_ARGS];
	int n = read_args(args_path, extra, PERF_MAX_ARGS);
	if (n == 0)
		return 1;
	note_events(extra, n);
	unlink(CTL_FIFO);
	unlink(ACK_FIFO);
	if (mkfifo(CTL_FIFO, 0600) < 0 || mkfifo(ACK_FIFO, 0600) < 0) {
		agent_log("cannot make perf's control fifos: %s", strerror(errno));
		return -1;
	}
	/* Opened before perf starts so perf's ack write finds a reader. */
	int ack = open(ACK_FIFO, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int out = relay_start(CHANNEL_PERF);
	const char *argv[PERF_MAX_ARGS + 16];
	int a = 0;
	argv[a++] = "perf";
	argv[a++] = "record";
	argv[a++] = "--all-cpus";
	argv[a++] = "--clockid";
	argv[a++] = "CLOCK_MONOTONIC";
	argv[a++] = "--delay=-1";
	argv[a++] = "--control=fifo:" CTL_FIFO "," ACK_FIFO;
	argv[a++] = "--quiet";
	argv[a++] = "-o";
	argv[a++] = "-";
	for (int i = 0; i < n; i++)
		argv[a++] = extra[i];
	argv[a] = NULL;
	struct agent_child c;
	agent_child_init(&c, "perf");
	c.path = PERF;
	c.argv = argv;
	c.out = out >= 0 ? out : port_fd(CHANNEL_PERF);
	c.err_path = PERF_STDERR;
	/*
	 * The recorder keeps the agent's oom_score_adj of -1000, and a better
	 * nice than the workload's, so that a workload reclaiming on every CPU
	 * does not starve it of the moment it needs to pass its events on.
	 */
	c.nice = RECORDER_NICE;
	perf_pid = agent_spawn(&c);
	if (out >= 0)
		close(out);
	for (int i = 0; i < n; i++)
		free(extra[i]);
	ack_fd = ack;
	/* perf answers a ping once it is set up: formats read, buffers mapped, events off. */
	if (perf_pid < 0 || !perf_command("ping\n")) {
		agent_log("perf did not get ready to record");
		perf_stop();
		return -1;
	}
	/* while memory is whole: the recorder's own pages must not be reclaimed under the workload */
	struct jl j;
	ctl_begin(&j, CTL_PINNED);
	jl_u64(&j, PINNED_BYTES, pin_file_pages_of(perf_pid));
	jl_emit(&j, port_fd(CHANNEL_CTL));
	return 0;
}

int perf_enable(void)
{
	if (perf_pid <= 0)
		return -1;
	if (!perf_command("enable\n")) {
		agent_log("perf did not start recording");
		perf_stop();
		return -1;
	}
	return 0;
}

void perf_stop(void)
{
	if (perf_pid <= 0)
		return;
	/* SIGINT: perf flushes its buffers into the pipe and writes its end. */
	agent_child_stop(perf_pid, SIGINT, STOP_TIMEOUT_S, NULL, "perf");
	perf_pid = -1;
	relay_finish(CHANNEL_PERF);
	if (ctl_fd >= 0) {
		close(ctl_fd);
		ctl_fd = -1;
	}
	if (ack_fd >= 0) {
		close(ack_fd);
		ack_fd = -1;
	}
	send_file(FILE_PERF_STDERR, PERF_STDERR);
}
