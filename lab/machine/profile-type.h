/* A profile's settings (profile.h): the struct its key table (profile-keys.c)
 * sets and profile.c checks, loads and writes, apart so that the table
 * need not include profile.h, whose profile.c uses the table. */
#ifndef LAB_PROFILE_TYPE_H
#define LAB_PROFILE_TYPE_H

#include <stdbool.h>

#include "apic-timer.h"
#include "clock.h"
#include "fault-inject.h"
#include "common/proto/killer-kinds.h"
#include "common/proto/lmkd-config.h"

#define PROFILE_MAX_NODES 8

struct profile {
	char *name;
	char *path;
	char *description;
	unsigned long long memory;                 /* bytes */
	unsigned cpus;
	unsigned numa_nodes;                       /* 1 when not NUMA */
	unsigned long long node_memory[PROFILE_MAX_NODES];
	unsigned long long zram_size;              /* 0: no zram swap */
	char *zram_algorithm;
	long min_free_kbytes;                      /* -1: kernel default */
	long watermark_scale_factor;               /* -1: kernel default */
	char *thp;                                 /* always|madvise|never, NULL: default */
	int compact_unevictable_allowed;           /* -1: default, else 0/1 */
	unsigned long long slow_disk_size;         /* 0: no slow disk */
	unsigned long long slow_disk_bps;
	unsigned long slow_disk_iops;
	/* the ext4 disk a trial of selftest lines works on (trial.c); 0: none */
	unsigned long long scratch_disk_size;
	char *cgroup_memory_max;                   /* values as cgroup files take them */
	char *cgroup_memory_high;
	char *cgroup_memory_swap_max;
	int cgroup_memory_oom_group;               /* 0/1 */
	char *cgroup2_options;                     /* cgroup2-options.h; "none" */
	enum guest_clock clock;                    /* default realtime */
	bool clock_given;                          /* the file says clock = */
	/* x86_64's per-CPU timer (apic-timer.h); APIC_TIMER_DEFAULT: the clock's */
	enum apic_timer apic_timer;
	/* fail_page_alloc = ..., failslab = ... (fault-inject.h); an experiment's win */
	struct fault_plan faults;
	/* killer = NAME (common/proto/killer-kinds.h; default kernel) and each
	 * kind's keys: their values (the row's defaults where the file is
	 * silent) and the line that set each, 0 where none did. Only the
	 * chosen kind's keys may be set. */
	enum killer_kind killer;
	long killer_v[KILLER_KIND_COUNT][KILLER_KEYS_MAX];
	int killer_line[KILLER_KIND_COUNT][KILLER_KEYS_MAX];
	/* killer = lmkd: its settings, killer_v's lmkd row after lmkd.low_ram
	 * and the checks lmkd's keys make against each other */
	struct lmkd_config lmkd;
	/* lmkd.low_ram = yes: the lmkd.* keys the file does not set take
	 * Android's low-RAM defaults (lmkd_config_low_ram()) */
	bool lmkd_low_ram;
	int lmkd_low_ram_line;
};

#endif
