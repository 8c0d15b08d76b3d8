/* oomd-lines.h - what the lab's systemd-oomd (workloads/killers/oomd/) writes to
 * /dev/kmsg when it kills, one line a kill; the killer formats it with this
 * function and the lab's analysis parses it with the other, so that the two
 * cannot drift:
 *
 *   "oomd: Killed /sys/fs/cgroup/workload/app-03 (3 processes): memory
 *    pressure 72.15% > 60% for 30012ms in /sys/fs/cgroup/workload, pgscan
 *    1234, memory 45678kB; t_mono_ns 123456789"
 *
 * (one line): the cgroup killed (its path), how many processes it held, the
 * monitored cgroup's PSI full avg10 against the limit and how long it had
 * been over it, the monitored cgroup, the victim's pgscan since the last
 * poll and its memory.current, and the killer's CLOCK_MONOTONIC just before
 * it wrote cgroup.kill.
 */
#ifndef OOMLAB_OOMD_LINES_H
#define OOMLAB_OOMD_LINES_H

#include <stdbool.h>
#include <stddef.h>

#define OOMD_LINE_PREFIX "oomd: "
#define OOMD_PATH_MAX 256

struct oomd_kill_line {
	char cgroup[OOMD_PATH_MAX];     /* the cgroup killed */
	unsigned processes;
	double avg10;                   /* PSI full avg10 of MONITORED, % */
	long limit_percent;
	long long over_ms;              /* how long it had been over the limit */
	char monitored[OOMD_PATH_MAX];
	unsigned long long pgscan;      /* the victim's pgscan since the poll before */
	unsigned long long memory_kb;   /* the victim's memory.current */
	unsigned long long t_mono_ns;
};

/* snprintf's return. */
int oomd_format_kill(char *buf, size_t size, const struct oomd_kill_line *k);
/* Whether TEXT is a kill line, into OUT. */
bool oomd_parse_kill(const char *text, struct oomd_kill_line *out);

#endif
