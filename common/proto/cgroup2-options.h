/*
 * cgroup2's mount options: the ones the guest's kernel takes, and the ones
 * the agent mounts /sys/fs/cgroup with unless the profile says otherwise
 * (profile key cgroup2_options, job key of the same name).
 */
#ifndef OOMLAB_CGROUP2_OPTIONS_H
#define OOMLAB_CGROUP2_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* As systemd mounts it: a memcg's memory.min and memory.low protect its
 * children too, so the workload cgroup's children share what it gets. */
#define CGROUP2_OPTIONS_DEFAULT "nsdelegate,memory_recursiveprot"
/* The value that asks for none of them. */
#define CGROUP2_OPTIONS_NONE "none"

/* Linux 6.12's cgroup2_fs_parameters (kernel/cgroup/cgroup.c), NULL-ended,
 * and the same names as one line for the key's reference. */
extern const char *const cgroup2_option_names[];
extern const char cgroup2_options_known[];

/* VALUE: options joined by commas, each once, or "none". NULL when it is
 * one; else the first option the kernel lacks, in BAD (BADSZ bytes). */
const char *cgroup2_options_check(const char *value, char *bad, size_t badsz);

/* The data mount(2) takes for VALUE: "" for "none". */
const char *cgroup2_options_mount_data(const char *value);

#endif
