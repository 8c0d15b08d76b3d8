/* Snapshots of the guest's memory state, sent as files to the host. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "workloads/lib/report.h"

void send_snapshots(const char *when)
{
	for (const struct snapshot_file *f = snapshot_files; f->name; f++) {
		char name[128];
		snprintf(name, sizeof(name), "%s/%s", when, f->name);
		send_file(name, f->guest_path);
	}
}

/* One edge of the stall window (protocol.h): the read first, its time
 * right after, then the event and the text (sending takes a while under
 * TCG; the read is what counts). */
void send_window(const char *edge)
{
	static char text[32768];
	int fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);
	ssize_t len = 0, n;

	if (fd < 0)
		return;
	while (len < (ssize_t)sizeof(text) && (n = read(fd, text + len, sizeof(text) - (size_t)len)) > 0)
		len += n;
	close(fd);
	uint64_t read_ns = mono_ns();
	char name[64];
	ctl_window(edge, read_ns);
	snprintf(name, sizeof(name), "%s/" SNAP_VMSTAT,
		 !strcmp(edge, WINDOW_EDGE_START) ? SNAPSHOT_WINDOW_START : SNAPSHOT_WINDOW_END);
	send_buffer(name, text, (size_t)len);
}
