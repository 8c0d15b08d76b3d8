/* Snapshots of the guest's memory state, sent as files to the host. */
#include <stdio.h>

#include "agent.h"

void send_snapshots(const char *when)
{
	for (const struct snapshot_file *f = snapshot_files; f->name; f++) {
		char name[128];
		snprintf(name, sizeof(name), "%s/%s", when, f->name);
		send_file(name, f->guest_path);
	}
}
