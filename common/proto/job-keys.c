/* The job spec's keys (job-keys.h). */
#include "job-keys.h"

#include "killer-kinds.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const struct job_key_def job_keys[JOB_KEY_COUNT] = {
	[JOB_KEY_THP] = { "thp", false, JOB_VALUE_WORD, "profile `thp`",
		"written to /sys/kernel/mm/transparent_hugepage/enabled, first",
		"always | madvise | never, or default: the kernel's" },
	[JOB_KEY_MIN_FREE_KBYTES] = { "min_free_kbytes", false, JOB_VALUE_INT, "profile `min_free_kbytes`",
		"written to /proc/sys/vm/min_free_kbytes", "kilobytes; -1: the kernel's" },
	[JOB_KEY_WATERMARK_SCALE_FACTOR] = { "watermark_scale_factor", false, JOB_VALUE_INT,
		"profile `watermark_scale_factor`", "written to /proc/sys/vm/watermark_scale_factor",
		"-1: the kernel's" },
	[JOB_KEY_COMPACT_UNEVICTABLE_ALLOWED] = { "compact_unevictable_allowed", false, JOB_VALUE_INT,
		"profile `compact_unevictable_allowed`",
		"written to /proc/sys/vm/compact_unevictable_allowed", "0 or 1; -1: the kernel's" },
	[JOB_KEY_ZRAM_BYTES] = { "zram_bytes", false, JOB_VALUE_INT, "profile `zram`",
		"zram0's disksize, then mkswap and swapon", "bytes of zram swap; 0: none" },
	[JOB_KEY_ZRAM_ALGORITHM] = { "zram_algorithm", false, JOB_VALUE_WORD, "profile `zram_algorithm`",
		"zram0's comp_algorithm", "lzo | lzo-rle | lz4" },
	[JOB_KEY_CGROUP_MEMORY_MAX] = { "cgroup.memory.max", false, JOB_VALUE_WORD,
		"profile `cgroup.memory.max`", "the workload cgroup's memory.max",
		"bytes or max, as the cgroup file takes it" },
	[JOB_KEY_CGROUP_MEMORY_HIGH] = { "cgroup.memory.high", false, JOB_VALUE_WORD,
		"profile `cgroup.memory.high`", "the workload cgroup's memory.high",
		"bytes or max, as the cgroup file takes it" },
	[JOB_KEY_CGROUP_MEMORY_SWAP_MAX] = { "cgroup.memory.swap.max", false, JOB_VALUE_WORD,
		"profile `cgroup.memory.swap.max`", "the workload cgroup's memory.swap.max",
		"bytes or max, as the cgroup file takes it" },
	[JOB_KEY_CGROUP_MEMORY_OOM_GROUP] = { "cgroup.memory.oom.group", false, JOB_VALUE_FLAG,
		"profile `cgroup.memory.oom.group`", "the workload cgroup's memory.oom.group",
		"1: the OOM killer takes the whole cgroup" },
	[JOB_KEY_CGROUP2_OPTIONS] = { "cgroup2_options", false, JOB_VALUE_WORD,
		"profile `cgroup2_options`", "/sys/fs/cgroup remounted with them, before the workload cgroup",
		"cgroup2's options joined by commas, or none" },
	[JOB_KEY_KILLER] = { JOB_KILLER, false, JOB_VALUE_WORD, "profile `killer`",
		"a userspace kind: the agent starts it before the command",
		"a row's name of killer-kinds.h" },
	[JOB_KEY_LMKD] = { "lmkd.", true, JOB_VALUE_INT, "profile `lmkd.*`, with killer = lmkd",
		"the guest's low-memory killer's thresholds",
		"one per lmkd_keys[] row (lmkd-config.h), named as the profile's key" },
	[JOB_KEY_OOMD] = { "oomd.", true, JOB_VALUE_INT, "profile `oomd.*`, with killer = oomd",
		"systemd-oomd's pressure rule's limit and duration",
		"one per oomd_keys[] row (oomd-config.h), named as the profile's key" },
	[JOB_KEY_USE_CGROUP] = { "use_cgroup", false, JOB_VALUE_FLAG, "the trial (lab boot --no-cgroup: 0)",
		"1: the command runs in the workload cgroup", "0 or 1" },
	[JOB_KEY_INTERACTIVE] = { "interactive", false, JOB_VALUE_FLAG, "the trial (lab boot, no command)",
		"1: a shell on the console instead of the command", "0 or 1" },
	[JOB_KEY_RESTORE_POINT] = { "restore_point", false, JOB_VALUE_FLAG,
		"the trial (lab boot --restores: 1)",
		"1: after ready the agent waits for a restore's seed and trial id on the trial port",
		"0 or 1" },
	[JOB_KEY_TARGET_ORDER] = { "prepare_target_order", false, JOB_VALUE_INT,
		"experiment `target_order`, with target_max_free_blocks",
		"the order of the window's free_blocks_ge (3 without it)", "a page order, 1 to 10" },
	[JOB_KEY_TARGET_MAX_BLOCKS] = { "prepare_target_max_blocks", false, JOB_VALUE_INT,
		"experiment `target_max_free_blocks`", "sent back in the window's start event",
		"the prepare step's target: at most this many free blocks as the workload starts" },
	[JOB_KEY_FAULT] = { "fault.", true, JOB_VALUE_WORD,
		"profile or experiment `fail_page_alloc`, `failslab`",
		"each written, in order, to /sys/kernel/debug/<capability>/<attribute>; "
		"<capability>.times read back at the end",
		"fault.<capability>.<attribute> (protocol.h)" },
};

int job_key_of(const char *key)
{
	for (int k = 0; k < JOB_KEY_COUNT; k++) {
		const char *name = job_keys[k].name;
		if (job_keys[k].family ? !strncmp(key, name, strlen(name)) && key[strlen(name)]
				       : !strcmp(key, name))
			return k;
	}
	return -1;
}

bool job_value_valid(enum job_value type, const char *value)
{
	char *end;
	switch (type) {
	case JOB_VALUE_INT:
		if (!*value || isspace((unsigned char)*value))
			return false;
		strtoll(value, &end, 10);
		return !*end;
	case JOB_VALUE_FLAG:
		return !strcmp(value, "0") || !strcmp(value, "1");
	case JOB_VALUE_WORD:
		if (!*value)
			return false;
		for (const char *c = value; *c; c++)
			if (isspace((unsigned char)*c))
				return false;
		return true;
	}
	return false;
}
