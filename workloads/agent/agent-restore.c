/*
 * The agent's restore point. The lab saves the VM while the agent waits
 * here, and restores it once per trial with a line of its own (protocol.h),
 * so that restored trials are not one trial replayed: each gets the
 * kernel's random pool reseeded from its seed (ASLR, hash seeds, what the
 * workloads read from /dev/urandom) and its seed and id in the command's
 * environment. QEMU's own random source (TCG's RDRAND) gets the same seed
 * from the lab (-seed), so the same seed replays the same trial.
 */
#include "agent-restore.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "agent-ctl.h"
#include "agent-ports.h"
#include "agent-self.h"
#include "workloads/lib/report.h"

/* The trial port is added with the others, from a work queue (agent-ports.c). */
static int open_trial_port(void)
{
	double give_up = uptime_seconds() + PORTS_WAIT_SECONDS;
	int fd;
	while ((fd = port_open_input(TRIAL_PORT_NAME)) < 0 && uptime_seconds() < give_up) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return fd;
}

/* One line from FD into BUF (without its newline): 0, or -1 at EOF first. */
static int read_line(int fd, char *buf, size_t size)
{
	size_t n = 0;
	while (n + 1 < size) {
		ssize_t r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (buf[n] == '\n') {
			buf[n + 1] = '\0';
			return 0;
		}
		n++;
	}
	buf[n] = '\0';
	return n ? 0 : -1;
}

/* The seed mixed into the input pool, credited, and the generator reseeded
 * from it at once (both need CAP_SYS_ADMIN: PID 1 has it). The seed alone,
 * not the trial id: two restores with one seed are to be one trial replayed. */
static int reseed_kernel(unsigned long long seed)
{
	struct {
		struct rand_pool_info info;
		unsigned char bytes[sizeof(seed)];
	} in;
	memset(&in, 0, sizeof(in));
	memcpy(in.bytes, &seed, sizeof(seed));
	in.info.buf_size = (int)sizeof(in.bytes);
	in.info.entropy_count = 8 * (int)sizeof(seed);
	int fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = ioctl(fd, RNDADDENTROPY, &in.info) < 0 || ioctl(fd, RNDRESEEDCRNG) < 0 ? -1 : 0;
	close(fd);
	return rc;
}

int restore_point_wait(void)
{
	int fd = open_trial_port();
	if (fd < 0) {
		ctl_event(CTL_WARNING, "message", "the restore point: no port named " TRIAL_PORT_NAME);
		return -1;
	}
	ctl_event(CTL_RESTORE_POINT, NULL, NULL);
	char line[128];
	unsigned long long seed;
	char trial[RESTORE_TRIAL_ID_MAX];
	int got = read_line(fd, line, sizeof(line));
	close(fd);
	if (got < 0 || restore_line_parse(line, &seed, trial) < 0) {
		ctl_event(CTL_WARNING, "message", "the restore point: the trial port's line is not "
			  "'seed=N trial=ID'");
		return -1;
	}
	if (reseed_kernel(seed) < 0)
		ctl_event(CTL_WARNING, "message", "the restore point: the kernel's random pool could "
			  "not be reseeded");
	char text[32];
	snprintf(text, sizeof(text), "%llu", seed);
	setenv(GUEST_ENV_SEED, text, 1);
	setenv(GUEST_ENV_TRIAL, trial, 1);
	struct jl j;
	ctl_begin(&j, CTL_RESTORED);
	jl_i64(&j, RESTORED_SEED, (int64_t)seed);
	jl_str(&j, RESTORED_TRIAL, trial);
	jl_emit(&j, port_fd(CHANNEL_CTL));
	return 0;
}
