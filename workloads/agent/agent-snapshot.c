/* Snapshots of the guest's memory state, sent as files to the host. */
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "agent-ctl.h"
#include "agent-job.h"
#include "agent-ports.h"
#include "agent-snapshot.h"
#include "common/kernel-text/buddyinfo.h"
#include "workloads/lib/report.h"

void send_snapshots(const char *when)
{
	for (const struct snapshot_file *f = snapshot_files; f->name; f++) {
		char name[128];
		snprintf(name, sizeof(name), "%s/%s", when, f->name);
		send_file(name, f->guest_path);
	}
}

/* The whole of a small /proc file; its length, 0 when it cannot be read. */
static size_t read_proc(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return len;
}

static uint64_t free_blocks_ge(const char *buddyinfo, int order)
{
	struct buddyinfo bi;
	uint64_t n = 0;

	if (buddyinfo_parse(buddyinfo, &bi) < 0)
		return 0;
	for (int z = 0; z < bi.nzones; z++)
		for (int o = order; o < bi.z[z].norders; o++)
			n += bi.z[z].free[o];
	return n;
}

/* One edge of the stall window (protocol.h): the reads first, their time
 * right after, then the event and the texts (sending takes a while under
 * TCG; the reads are what count). */
void send_window(const char *edge, const struct job *job)
{
	static char vmstat[32768], buddy[4096];
	bool start = !strcmp(edge, WINDOW_EDGE_START);
	uint64_t begin_ns = mono_ns();
	size_t vlen = read_proc("/proc/vmstat", vmstat, sizeof(vmstat));
	size_t blen = start ? read_proc("/proc/buddyinfo", buddy, sizeof(buddy)) : 0;
	uint64_t read_ns = mono_ns();
	struct window_state w = { .edge = edge, .read_begin_ns = begin_ns, .read_ns = read_ns };

	if (start) {
		w.target_order = job->set.target_order;
		w.target_max_blocks = job->set.target_max_blocks;
		w.free_blocks_ge = blen ? (int64_t)free_blocks_ge(buddy, w.target_order) : -1;
	}
	ctl_window(&w);
	send_buffer(start ? SNAPSHOT_WINDOW_START "/" SNAP_VMSTAT : SNAPSHOT_WINDOW_END "/" SNAP_VMSTAT,
		    vmstat, vlen);
	if (start && blen)
		send_buffer(SNAPSHOT_WINDOW_START "/" SNAP_BUDDYINFO, buddy, blen);
}
