/*
 * The agent's restore point. The lab saves the VM while the agent waits
 * here, and restores it once per trial with a line of its own written into
 * a page of the agent's (protocol.h), so that restored trials are not one
 * trial replayed: each gets the
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
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "agent-ctl.h"
#include "agent-ports.h"
#include "workloads/lib/report.h"

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

/* The locked page the lab writes the line into (protocol.h), or NULL. */
static unsigned char *slot_page(void)
{
	unsigned char *page = mmap(NULL, RESTORE_SLOT_PAGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (page == MAP_FAILED)
		return NULL;
	/* in memory, and in no swap: the saved VM must hold it as a page */
	if (mlock(page, RESTORE_SLOT_PAGE) < 0) {
		munmap(page, RESTORE_SLOT_PAGE);
		return NULL;
	}
	restore_slot_fill(page);
	return page;
}

int restore_point_wait(void)
{
	unsigned char *page = slot_page();
	if (!page) {
		ctl_event(CTL_WARNING, "message", "the restore point: no page for the restore's line");
		return -1;
	}
	unsigned char first = page[0];
	ctl_event(CTL_RESTORE_POINT, NULL, NULL);
	/* the lab saves the VM in this loop; a restore finds its line here at the
	 * next look, a guest instant no host event decides */
	const volatile unsigned char *seen = page;
	while (seen[0] == first) {
		struct timespec ts = { 0, RESTORE_POLL_MS * 1000L * 1000L };
		nanosleep(&ts, NULL);
	}
	char line[RESTORE_SLOT_LINE];
	memcpy(line, page, sizeof(line));
	line[sizeof(line) - 1] = '\0';
	munmap(page, RESTORE_SLOT_PAGE);
	unsigned long long seed;
	char trial[RESTORE_TRIAL_ID_MAX];
	if (restore_line_parse(line, &seed, trial) < 0) {
		ctl_event(CTL_WARNING, "message", "the restore point: the line is not 'seed=N trial=ID'");
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
