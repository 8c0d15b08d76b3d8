/*
 * The job spec's keys (JOB_DIR/JOB_SPEC, protocol.h): every setting the lab
 * sends the guest's agent as a "key=value" line, in one table that both
 * sides use, so that a key's name is written once. The lab writes the spec
 * through it (lab/machine/job-spec.h); the agent reads it back into its settings
 * (workloads/agent/agent-job.h), and a line no row names is logged there.
 * tests/unit/common/test-job-keys.c runs the lab's writer on a trial that
 * sets everything and the agent's reader on what it wrote: every key written
 * must be read, and every key read written.
 *
 * A row is one key, or a family of keys that share a prefix (the row's name)
 * and whose members another table lists: each userspace killer's settings
 * (killer-kinds.h: a row's key_prefix is a family's name) and the fault
 * injection lines (protocol.h).
 */
#ifndef OOMLAB_JOB_KEYS_H
#define OOMLAB_JOB_KEYS_H

#include <stdbool.h>

enum job_key {
	/* the profile's machine settings (lab/machine/profile.c, agent-setup.c) */
	JOB_KEY_THP,
	JOB_KEY_MIN_FREE_KBYTES,
	JOB_KEY_WATERMARK_SCALE_FACTOR,
	JOB_KEY_COMPACT_UNEVICTABLE_ALLOWED,
	JOB_KEY_ZRAM_BYTES,
	JOB_KEY_ZRAM_ALGORITHM,
	/* the profile's workload cgroup (lab/machine/profile.c, agent-cgroup.c) */
	JOB_KEY_CGROUP_MEMORY_MAX,
	JOB_KEY_CGROUP_MEMORY_HIGH,
	JOB_KEY_CGROUP_MEMORY_SWAP_MAX,
	JOB_KEY_CGROUP_MEMORY_OOM_GROUP,
	JOB_KEY_CGROUP2_OPTIONS,
	/* the profile's killer (lab/machine/profile.c, agent-job.c; killer-kinds.h) */
	JOB_KEY_KILLER,
	JOB_KEY_LMKD,                   /* family: lmkd_keys[] */
	JOB_KEY_OOMD,                   /* family: oomd_keys[] */
	/* the trial's (lab/machine/job-spec.c, agent.c) */
	JOB_KEY_USE_CGROUP,
	JOB_KEY_INTERACTIVE,
	JOB_KEY_RESTORE_POINT,          /* boot once, restore per trial (protocol.h) */
	/* the experiment's prepare target (lab/machine/job-spec.c, agent-snapshot.c) */
	JOB_KEY_TARGET_ORDER,
	JOB_KEY_TARGET_MAX_BLOCKS,
	/* fault injection (lab/machine/fault-inject.c, agent-faults.c) */
	JOB_KEY_FAULT,                  /* family: fault.<capability>.<attribute> */
	JOB_KEY_COUNT
};

/* What a key's value is, as the lab writes it. */
enum job_value {
	JOB_VALUE_INT,      /* a decimal integer, maybe negative */
	JOB_VALUE_FLAG,     /* 0 or 1 */
	JOB_VALUE_WORD,     /* one word, no blank */
};

struct job_key_def {
	const char *name;           /* the key; a family's prefix, ending in '.' */
	bool family;
	enum job_value value;
	const char *writer;         /* where the lab writes it */
	const char *reader;         /* what the agent does with it */
	const char *meaning;
};

extern const struct job_key_def job_keys[JOB_KEY_COUNT];

/* The row of a spec line's KEY: the key itself, or the family whose prefix
 * it starts with; -1 when no row names it. */
int job_key_of(const char *key);
/* Whether VALUE is of the form TYPE says. */
bool job_value_valid(enum job_value type, const char *value);

#endif
