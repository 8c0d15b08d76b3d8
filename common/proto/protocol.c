/* The guest/host protocol's tables and the files.bin record (protocol.h). */
#include "protocol.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const channel_port_name[CHANNEL_COUNT] = { "ctl", "out", "kmsg", "perf", "files" };
const char *const channel_file_name[CHANNEL_COUNT] = { "ctl.jsonl", "out.log", "kmsg.log",
						       "perf.data", "files.bin" };

const unsigned long long channel_cap_bytes[CHANNEL_COUNT] = {
	16ULL << 20,   /* ctl */
	64ULL << 20,   /* out */
	64ULL << 20,   /* kmsg */
	1ULL << 30,    /* perf */
	256ULL << 20,  /* files */
};

const char *const fault_capability_name[FAULT_CAPABILITY_COUNT] = { "fail_page_alloc", "failslab" };

const char *const heartbeat_fields[] = {
	HB_MEM_FREE_KB, HB_MEM_AVAILABLE_KB, HB_SWAP_FREE_KB, HB_CGROUP_MEMORY,
	HB_PSI_SOME_TOTAL_US, HB_PSI_FULL_TOTAL_US, NULL,
};

const struct snapshot_file snapshot_files[] = {
	{ "meminfo", "/proc/meminfo" },
	{ SNAP_BUDDYINFO, "/proc/buddyinfo" },
	{ "pagetypeinfo", "/proc/pagetypeinfo" },
	{ SNAP_VMSTAT, "/proc/vmstat" },
	{ "zoneinfo", "/proc/zoneinfo" },
	{ SNAP_SLABINFO, "/proc/slabinfo" },
	{ SNAP_PRESSURE_MEMORY, "/proc/pressure/memory" },
	{ "extfrag_index", "/sys/kernel/debug/extfrag/extfrag_index" },
	{ "unusable_index", "/sys/kernel/debug/extfrag/unusable_index" },
	{ SNAP_CGROUP_EVENTS, "/sys/fs/cgroup/workload/memory.events" },
	{ "cgroup-memory.stat", "/sys/fs/cgroup/workload/memory.stat" },
	{ SNAP_CGROUP_PRESSURE, "/sys/fs/cgroup/workload/memory.pressure" },
	{ "cgroup-memory.max", "/sys/fs/cgroup/workload/memory.max" },
	{ SNAP_BINDER_STATS, "/dev/binderfs/binder_logs/stats" },
	{ "swaps", "/proc/swaps" },
	{ "node-count", "/sys/devices/system/node/possible" },
	{ NULL, NULL },
};

#define FILES_MAGIC "oomlab-file "

int files_record_header(char *buf, size_t buf_size, const char *name, unsigned long long size)
{
	return snprintf(buf, buf_size, FILES_MAGIC "%s %llu\n", name, size);
}

int files_record_parse(const char *data, size_t len, struct files_record *rec)
{
	const char *nl = memchr(data, '\n', len);
	if (!nl || (size_t)(nl - data) < sizeof(FILES_MAGIC) - 1 ||
	    memcmp(data, FILES_MAGIC, sizeof(FILES_MAGIC) - 1))
		return -1;
	/* NAME LEN: the name has no blanks; the line ends right after LEN. */
	const char *name = data + sizeof(FILES_MAGIC) - 1;
	const char *blank = memchr(name, ' ', (size_t)(nl - name));
	if (!blank || blank == name || (size_t)(blank - name) > FILES_RECORD_NAME_MAX)
		return -1;
	unsigned long long size = 0;
	const char *p = blank + 1;
	if (p == nl)
		return -1;
	for (; p < nl; p++) {
		if (*p < '0' || *p > '9' || size > (~0ULL - 9) / 10)
			return -1;
		size = size * 10 + (unsigned long long)(*p - '0');
	}
	memcpy(rec->name, name, (size_t)(blank - name));
	rec->name[blank - name] = '\0';
	if (strstr(rec->name, ".."))
		return -1;
	rec->size = size;
	rec->data = (size_t)(nl - data) + 1;
	return 0;
}

void restore_slot_fill(unsigned char *page)
{
	/* xorshift64, a fixed start */
	unsigned long long x = 0x6f6f6d6c61622d72ULL;
	for (size_t i = 0; i < RESTORE_SLOT_PAGE; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		page[i] = (unsigned char)(x >> 56) | 1;
	}
}

static bool trial_id_valid(const char *id, size_t len)
{
	if (!len || len >= RESTORE_TRIAL_ID_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", id[i]))
			return false;
	return true;
}

int restore_line_format(char *buf, size_t size, unsigned long long seed, const char *trial)
{
	if (!trial_id_valid(trial, strlen(trial)))
		return -1;
	return snprintf(buf, size, "seed=%llu trial=%s\n", seed, trial);
}

int restore_line_parse(const char *line, unsigned long long *seed, char trial[RESTORE_TRIAL_ID_MAX])
{
	if (strncmp(line, "seed=", 5) || line[5] < '0' || line[5] > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(line + 5, &end, 10);
	if (errno || strncmp(end, " trial=", 7))
		return -1;
	const char *id = end + 7;
	size_t len = strcspn(id, "\n");
	if (!trial_id_valid(id, len) || (id[len] && strcmp(id + len, "\n")))
		return -1;
	memcpy(trial, id, len);
	trial[len] = '\0';
	*seed = v;
	return 0;
}
