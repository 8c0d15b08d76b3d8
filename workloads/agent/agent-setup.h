/* Guest set-up (agent-setup.c): file systems, the loopback interface, the
 * disks, sysctls and zram swap. */
#ifndef OOMLAB_AGENT_SETUP_H
#define OOMLAB_AGENT_SETUP_H

#include "agent-job.h"

/* Where mount_filesystems puts cgroup v2. */
#define AGENT_CGROUP_MOUNT "/sys/fs/cgroup"
void mount_filesystems(void);
/* The loopback interface up, and /etc/hosts naming localhost. */
void setup_loopback(void);
int mount_tools_disk(void);
/* Mounts the scratch disk, when the trial has one (DISK_SCRATCH_SERIAL), at
 * GUEST_SCRATCH_DISK_DIR: 0, or -1 with the reason said (a kernel without ext4). */
int mount_scratch_disk(void);
void apply_sysctls(const struct job *job);
int setup_zram(const struct job *job);
/* /sys/fs/cgroup with the profile's cgroup2_options: 0, or -1 (logged). */
int remount_cgroup2(const struct job *job);
const char *find_disk_by_serial(const char *serial);

#endif
