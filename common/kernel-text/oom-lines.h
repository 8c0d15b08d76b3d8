/* oom-lines.h - the OOM killer's and the reaper's lines in the kernel log
 * (6.12, mm/oom_kill.c), read by the guest's oom-hog from /dev/kmsg and by
 * the lab's metrics from kmsg.log:
 *
 *   "<comm> invoked oom-killer: gfp_mask=..., order=N, oom_score_adj=N"
 *   "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,
 *        oom_memcg=/workload,task_memcg=/workload,task=oom-hog,pid=130,uid=0"
 *   "Memory cgroup out of memory: Killed process 130 (oom-hog) total-vm:..kB,
 *        anon-rss:..kB, file-rss:..kB, shmem-rss:..kB, UID:0 pgtables:..kB oom_score_adj:1000"
 *   "Out of memory: Killed process ..."           (the same, not a memcg OOM)
 *   "oom_reaper: reaped process 130 (oom-hog), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB"
 *   "oom_reaper: unable to reap pid:130 (oom-hog)"
 *
 * The constraint of a kill comes from the "oom-kill:" line naming its pid
 * (printed just before it): CONSTRAINT_MEMCG -> "memcg", CONSTRAINT_NONE ->
 * "global", CONSTRAINT_CPUSET -> "cpuset", CONSTRAINT_MEMORY_POLICY ->
 * "mempolicy".  Without one (group kills print one line for the whole
 * group) the message decides: "Memory cgroup out of memory" -> "memcg",
 * "Out of memory" -> "global".
 */
#ifndef OOMLAB_OOM_LINES_H
#define OOMLAB_OOM_LINES_H

#include <stdbool.h>
#include <stdint.h>

struct oom_kill_report {
	int pid;
	char comm[64];
	char constraint[16];            /* memcg, global, cpuset, mempolicy */
	bool memcg_message;             /* "Memory cgroup out of memory" */
	long long total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb, pgtables_kb;
	long long uid;
	int oom_score_adj;
	uint64_t usec;                  /* printk time stamp */
};

struct oom_reap_report {
	int pid;
	char comm[64];
	long long anon_rss_kb, file_rss_kb, shmem_rss_kb;       /* what was left */
	uint64_t usec;
};

struct oom_constraint_line {
	int pid;
	char constraint[16];
};

/* One record's text each; false when it is not such a line. */
bool oom_parse_kill_line(const char *text, struct oom_kill_report *out);
bool oom_parse_constraint_line(const char *text, struct oom_constraint_line *out);
bool oom_parse_reap_line(const char *text, struct oom_reap_report *out);
/* "oom_reaper: unable to reap pid:N (comm)": the reaper gave up on N. */
bool oom_parse_unable_to_reap_line(const char *text, int *pid);

#endif
