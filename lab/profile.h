/*
 * Low-memory machine profiles (configs/profiles/<name>.conf): the VM's
 * RAM, CPUs and NUMA layout, zram swap, VM sysctls, an optional throttled
 * "slow flash" disk, the cgroup v2 limits of the workload cgroup, and the
 * guest's clock (clock.h; an experiment's own clock wins).
 * Files are `key = value` lines; unknown keys and bad values are errors
 * naming the file and line. `killer = NAME` picks who kills under pressure,
 * one row of common/proto/killer-kinds.h, and that row's keys set it
 * (`lmkd.*`, `oomd.*`).
 */
#ifndef LAB_PROFILE_H
#define LAB_PROFILE_H

#include <stdbool.h>

#include "apic-timer.h"
#include "clock.h"
#include "fault-inject.h"
#include "common/proto/killer-kinds.h"
#include "common/proto/lmkd-config.h"
#include "common/util.h"
#include "key-table.h"

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

/* scratch_disk_size's default: room for the page cache and files of mm's and
 * cgroup's tests; sparse on the host, which stores only what is written. */
#define PROFILE_SCRATCH_DISK_DEFAULT (1ULL << 30)

/* Every key a profile may set, the table profile_parse() sets them through
 * (profile-keys.c). */
extern const struct key_table profile_keys;

/* Parses TEXT as profile NAME read from FILE; on error err holds "file:line: reason". */
int profile_parse(struct profile *p, const char *name, const char *file, const char *text,
		  struct strbuf *err);
/* Loads profile NAME: the lab's configs/profiles/NAME.conf or the user's
 * (kvfile_read_named); a NAME with a '/' or ending in .conf is a file's path,
 * and the profile is known by its absolute path. */
int profile_load(struct profile *p, const char *name, struct strbuf *err);
/* The names of all profiles, sorted. */
void profile_names(struct strlist *names);
/* The profile as key=value lines, every key present (for the trial record). */
char *profile_format(const struct profile *p);
/* The profile's settings the guest's agent reads, as job spec lines
 * (common/proto/job-keys.h), appended to SPEC. */
void profile_job_spec(const struct profile *p, struct strbuf *spec);
void profile_clear(struct profile *p);

#endif
