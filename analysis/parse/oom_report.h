/* oom_report.h - the kernel's own OOM reports in the kernel log (6.12,
 * mm/oom_kill.c), taken from kmsg records:
 *
 *   "<comm> invoked oom-killer: gfp_mask=..., order=N, oom_score_adj=N"
 *   "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,
 *        oom_memcg=/workload,task_memcg=/workload,task=oom-hog,pid=130,uid=0"
 *   "Memory cgroup out of memory: Killed process 130 (oom-hog) total-vm:..kB,
 *        anon-rss:..kB, file-rss:..kB, shmem-rss:..kB, UID:0 pgtables:..kB oom_score_adj:1000"
 *   "Out of memory: Killed process ..."           (the same, not a memcg OOM)
 *   "oom_reaper: reaped process 130 (oom-hog), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB"
 *
 * The constraint of a kill comes from the "oom-kill:" line naming its pid
 * (printed just before it): CONSTRAINT_MEMCG -> "memcg", CONSTRAINT_NONE ->
 * "global", CONSTRAINT_CPUSET -> "cpuset", CONSTRAINT_MEMORY_POLICY ->
 * "mempolicy".  Without one (group kills print one line for the whole
 * group) the message decides: "Memory cgroup out of memory" -> "memcg",
 * "Out of memory" -> "global".
 */
#ifndef OOMLAB_OOM_REPORT_H
#define OOMLAB_OOM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmsg.h"

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

struct oom_reports {
	struct oom_kill_report *kills;
	size_t n_kills, alloc_kills;
	struct oom_reap_report *reaps;
	size_t n_reaps, alloc_reaps;
	struct oom_constraint_line *pending;    /* oom-kill: lines not yet matched to a kill */
	size_t n_pending, alloc_pending;
	uint64_t invocations;                   /* "invoked oom-killer" */
};

void oom_reports_init(struct oom_reports *r);
void oom_reports_release(struct oom_reports *r);
/* Feeds one kmsg record (anything not about OOM is ignored). */
void oom_reports_record(struct oom_reports *r, const struct kmsg_record *rec);
/* A kmsg_record_fn for kmsg_read(); CTX is a struct oom_reports. */
void oom_reports_kmsg_fn(const struct kmsg_record *rec, void *ctx);

/* Single-line parsers, exposed for the tests. */
bool oom_parse_kill_line(const char *text, struct oom_kill_report *out);
bool oom_parse_constraint_line(const char *text, struct oom_constraint_line *out);
bool oom_parse_reap_line(const char *text, struct oom_reap_report *out);

#endif
