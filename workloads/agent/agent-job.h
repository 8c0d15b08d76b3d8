/*
 * The job as the agent reads it: JOB_DIR's files, and the spec's key=value
 * lines read once into settings through common/proto/job-keys.h, each with
 * the default it takes when the line is absent. Every key the agent reads
 * is read here (the other modules take the settings), so that
 * tests/unit/common/test-job-keys.c can hold it against the lab's writer.
 * C library only: the unit test links it without the rest of the agent.
 */
#ifndef OOMLAB_AGENT_JOB_H
#define OOMLAB_AGENT_JOB_H

#include <stdbool.h>

#include "common/proto/job-keys.h"
#include "common/proto/killer-kinds.h"
#include "common/proto/protocol.h"

/* The spec's lines the agent keeps; past it a line is dropped (and logged). */
#define JOB_LINES_MAX 128

struct job_settings {
	const char *thp;                   /* "default": the kernel's */
	long min_free_kbytes;              /* -1: the kernel's */
	long watermark_scale_factor;       /* -1: the kernel's */
	long compact_unevictable_allowed;  /* -1: the kernel's */
	const char *zram_bytes;            /* "0": no zram swap */
	const char *zram_algorithm;
	/* the workload cgroup's limits, as its files take them; NULL: unset */
	const char *memory_max, *memory_high, *memory_swap_max, *memory_oom_group;
	const char *cgroup2_options;       /* cgroup2-options.h: "none" or a comma list */
	bool use_cgroup;                   /* the command runs in the workload cgroup */
	bool interactive;                  /* a shell on the console instead of the command */
	bool restore_point;                /* wait after ready for a restore's line (protocol.h) */
	int killer;                        /* killer-kinds.h's kind; -1: a name it lacks */
	long killer_v[KILLER_KEYS_MAX];    /* the kind's keys, in its row's order */
	int target_order;                  /* the window's order: the prepare target's, else 3 */
	long target_max_blocks;            /* the prepare target; -1: none */
	/* the fault lines (JOB_KEY_FAULT), as indexes of job.key in their order */
	int fault_line[JOB_LINES_MAX];
	int n_faults;
};

struct job {
	const char *key[JOB_LINES_MAX], *value[JOB_LINES_MAX];
	int n;
	int dropped;                       /* lines past JOB_LINES_MAX */
	bool used[JOB_LINES_MAX];          /* a read took line I */
	/* keys read and absent (their defaults taken), in the order read */
	const char *missing[JOB_KEY_COUNT + KILLER_KEYS_MAX];
	int n_missing;
	struct job_settings set;
	char *cmd;
	char *prepare;                     /* the prepare step; NULL when absent */
};

/* Reads the spec TEXT (cut in place: JOB points into it) into JOB's lines
 * and settings; cmd and prepare are left NULL. */
void job_read(struct job *job, char *text);

#endif
