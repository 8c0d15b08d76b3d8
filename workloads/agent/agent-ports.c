/* The agent's channels to the host: virtio-serial ports found by name. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent-child.h"
#include "agent-log.h"
#include "agent-ports.h"
#include "agent-self.h"
#include "workloads/lib/sysinfo.h"

/* every channel protocol.c defines starts closed, however many there are (a GNU range) */
static int fds[CHANNEL_COUNT] = { [0 ... CHANNEL_COUNT - 1] = -1 };
static pid_t relays[CHANNEL_COUNT];

const char *port_name(enum channel port)
{
	return channel_port_name[port];
}

int port_fd(enum channel port)
{
	/* Without its port a channel's data goes to the console rather than nowhere. */
	return fds[port] >= 0 ? fds[port] : 1;
}

/* Opens every named port that has appeared and is not open yet; returns how many are still missing. */
static int open_ports_present(void)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[512], name[64] = "";
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		for (int p = 0; p < CHANNEL_COUNT; p++) {
			if (fds[p] >= 0 || strcmp(name, channel_port_name[p]))
				continue;
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			fds[p] = open(path, O_WRONLY | O_CLOEXEC);
		}
	}
	if (d)
		closedir(d);
	int missing = 0;
	for (int p = 0; p < CHANNEL_COUNT; p++)
		missing += fds[p] < 0;
	return missing;
}

/*
 * The driver adds a port when the host's control message for it arrives,
 * from a work queue, so PID 1 can start before its ports exist (seen on
 * arm64 under icount, about one boot in seven). Wait for them, bounded.
 */
void ports_open(void)
{
	double start = uptime_seconds();
	bool waited = false;
	while (open_ports_present() > 0 && uptime_seconds() < start + PORTS_WAIT_SECONDS) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		waited = true;
	}
	if (waited)
		agent_log("waited %.3f s for the ports to appear", uptime_seconds() - start);
	for (int p = 0; p < CHANNEL_COUNT; p++)
		if (fds[p] < 0)
			agent_log("no virtio port named %s", channel_port_name[p]);
}

/*
 * The virtio console driver copies each write into a kmalloc'd buffer of
 * the write's size (up to 32 KiB). Above 4 KiB that is a high-order
 * allocation, which on a fragmented guest stalls or even OOM-kills a
 * workload: the lab would be measuring itself. So nothing is written to a
 * port in pieces larger than a page.
 */
void port_write(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len < PORT_WRITE_MAX ? len : PORT_WRITE_MAX);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		data += n;
		len -= (size_t)n;
	}
}

void send_buffer(const char *record_name, const char *data, size_t len)
{
	char header[FILES_RECORD_NAME_MAX + 64];
	int n = files_record_header(header, sizeof(header), record_name, len);
	int fd = port_fd(CHANNEL_FILES);
	port_write(fd, header, (size_t)n);
	port_write(fd, data, len);
	port_write(fd, "\n", 1);
}

struct relay {
	int in;
	enum channel port;
};

static void relay_copy(void *arg)
{
	const struct relay *r = arg;
	char buf[PORT_WRITE_MAX];
	for (;;) {
		ssize_t n = read(r->in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		port_write(port_fd(r->port), buf, (size_t)n);
	}
}

int relay_start(enum channel port)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	struct relay r = { fds[0], port };
	struct agent_child c;
	agent_child_init(&c, "oomlab-relay");
	c.fn = relay_copy;
	c.arg = &r;
	c.close_fd = fds[1];
	/* As perf's: the relay must keep up while the workload reclaims. It keeps
	 * the agent's oom_score_adj of -1000: it must outlive the workload. */
	c.nice = -10;
	pid_t pid = agent_spawn(&c);
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return -1;
	}
	relays[port] = pid;
	return fds[1];
}

void relay_finish(enum channel port)
{
	/* The writers are gone and our end is closed: the relay drains the pipe and exits. */
	if (relays[port] > 0)
		agent_child_wait(relays[port], 3.0, NULL);
	relays[port] = 0;
}

void send_file(const char *record_name, const char *path)
{
	char *buf;
	ssize_t len = wl_read_text_alloc(path, &buf);
	if (len < 0)
		return;
	send_buffer(record_name, buf, (size_t)len);
	free(buf);
}
