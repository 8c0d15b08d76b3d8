/* The lab's systemd-oomd: the cgroup files it reads and the kill (oomd.h). */
#include "oomd.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/kernel-text/oomd-lines.h"
#include "common/proto/oomd-config.h"
#include "oomd-rule.h"

/* At most this many candidate cgroups a poll. */
#define MAX_CANDIDATES 256

struct cgroup_seen {
	char path[OOMD_PATH_MAX];
	unsigned long long pgscan;
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* FILE of cgroup DIR into BUF; false when it cannot be read. */
static bool read_cgroup_file(const char *dir, const char *file, char *buf, size_t size)
{
	char path[OOMD_PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* memory.pressure's "full avg10=". */
static bool read_full_avg10(const char *dir, double *avg10)
{
	char buf[512];
	const char *full;
	return read_cgroup_file(dir, "memory.pressure", buf, sizeof(buf)) &&
	       (full = strstr(buf, "full avg10=")) && sscanf(full, "full avg10=%lf", avg10) == 1;
}

/* memory.stat's pgscan (the cgroup's subtree). */
static bool read_pgscan(const char *dir, unsigned long long *pgscan)
{
	char buf[8192];
	const char *at;
	return read_cgroup_file(dir, "memory.stat", buf, sizeof(buf)) &&
	       (at = strstr(buf, "\npgscan ")) && sscanf(at, "\npgscan %llu", pgscan) == 1;
}

static unsigned long long read_ull(const char *dir, const char *file)
{
	char buf[64];
	return read_cgroup_file(dir, file, buf, sizeof(buf)) ? strtoull(buf, NULL, 10) : 0;
}

static unsigned count_procs(const char *dir)
{
	char buf[16384];
	unsigned n = 0;
	if (read_cgroup_file(dir, "cgroup.procs", buf, sizeof(buf)))
		for (const char *p = buf; (p = strchr(p, '\n')); p++)
			n++;
	return n;
}

/* The candidates under DIR as systemd-oomd finds them
 * (recursively_get_cgroup_context()): DIR itself when it has no child, else
 * each child with memory.oom.group = 1, and the candidates of the others. */
static void find_candidates(const char *dir, struct cgroup_seen *out, size_t *n)
{
	DIR *d = opendir(dir);
	bool child = false;
	struct dirent *e;
	while (d && (e = readdir(d)) && *n < MAX_CANDIDATES) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		char sub[OOMD_PATH_MAX];
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= sizeof(sub))
			continue;
		child = true;
		if (read_ull(sub, "memory.oom.group") == 1) {
			snprintf(out[*n].path, sizeof(out[*n].path), "%s", sub);
			(*n)++;
		} else {
			find_candidates(sub, out, n);
		}
	}
	if (d)
		closedir(d);
	if (!child && *n < MAX_CANDIDATES) {
		snprintf(out[*n].path, sizeof(out[*n].path), "%s", dir);
		(*n)++;
	}
}

static unsigned long long pgscan_before(const struct cgroup_seen *old, size_t n_old, const char *path,
					unsigned long long now)
{
	for (size_t i = 0; i < n_old; i++)
		if (!strcmp(old[i].path, path))
			return old[i].pgscan <= now ? old[i].pgscan : now;
	/* a candidate not read at the poll before: its whole pgscan, as
	 * systemd-oomd's oomd_pgscan_rate() of a new context (last_pgscan 0) */
	return 0;
}

/* One record of TEXT in the kernel log, at KERN_INFO. Its newline matters:
 * a record without one is left open for a continuation, which /dev/kmsg's
 * readers (the agent's forwarder) do not see until the next record comes:
 * a last kill line without it reached console.log but not kmsg.log. */
static void log_line(const char *text)
{
	char line[1100];
	int n = snprintf(line, sizeof(line), "<6>%s\n", text);
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || n < 0 || (size_t)n >= sizeof(line) || write(fd, line, (size_t)n) < 0)
		fprintf(stderr, "%s\n", text);
	if (fd >= 0)
		close(fd);
}

/* Kills the candidate of CAND (N) the rule picks; whether one was killed. */
static bool kill_one(const char *cgroup, struct cgroup_seen *cand, size_t n, const struct cgroup_seen *old,
		     size_t n_old, const struct oomd_rule *rule, double avg10, int64_t over_ms)
{
	struct oomd_candidate c[MAX_CANDIDATES];
	for (size_t i = 0; i < n; i++) {
		read_pgscan(cand[i].path, &cand[i].pgscan);
		c[i].pgscan_delta = cand[i].pgscan - pgscan_before(old, n_old, cand[i].path, cand[i].pgscan);
		c[i].memory_bytes = read_ull(cand[i].path, "memory.current");
	}
	int v = oomd_select(c, n);
	if (v < 0)
		return false;
	struct oomd_kill_line k = { .avg10 = avg10, .limit_percent = (long)rule->limit_percent,
				    .over_ms = over_ms, .pgscan = c[v].pgscan_delta,
				    .memory_kb = c[v].memory_bytes / 1024 };
	snprintf(k.cgroup, sizeof(k.cgroup), "%s", cand[v].path);
	snprintf(k.monitored, sizeof(k.monitored), "%s", cgroup);
	k.processes = count_procs(cand[v].path);
	char path[OOMD_PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/cgroup.kill", cand[v].path);
	k.t_mono_ns = now_ns();
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, "1", 1) == 1;
	if (fd >= 0)
		close(fd);
	if (!ok) {
		fprintf(stderr, "%s: cannot write %s\n", OOMD_COMM, path);
		return false;
	}
	char line[1024];
	oomd_format_kill(line, sizeof(line), &k);
	log_line(line);
	return true;
}

const char *oomd_run(const long *settings, const char *cgroup)
{
	double avg10;
	/* 0: the first poll's reclaim is the cgroup's whole pgscan, as for
	 * systemd-oomd's new context */
	unsigned long long pgscan, last_pgscan = 0;
	if (!read_full_avg10(cgroup, &avg10) || !read_pgscan(cgroup, &pgscan))
		return "oomd: the workload cgroup's memory.pressure or memory.stat cannot be read";
	struct oomd_rule rule = { .limit_percent = (double)settings[OOMD_PRESSURE_LIMIT_PERCENT],
				  .duration_ms = settings[OOMD_PRESSURE_DURATION_MS] };
	struct oomd_state state;
	oomd_state_init(&state);
	static struct cgroup_seen seen[2][MAX_CANDIDATES];
	size_t n_seen[2] = { 0, 0 };
	int cur = 0;
	for (;;) {
		usleep(OOMD_POLL_MS * 1000);
		if (!read_full_avg10(cgroup, &avg10) || !read_pgscan(cgroup, &pgscan))
			continue;
		bool reclaimed = pgscan > last_pgscan;
		last_pgscan = pgscan;
		int64_t t = now_ms(), over_ms = 0;
		bool due = oomd_poll(&state, &rule, avg10, reclaimed, t, &over_ms);
		/* the candidates are read each poll while over the limit, so that
		 * their pgscan has a poll before to be measured from; under it
		 * they are forgotten (systemd-oomd clears its candidates then) */
		if (state.over_since_ms < 0) {
			n_seen[0] = n_seen[1] = 0;
			continue;
		}
		int next = 1 - cur;
		n_seen[next] = 0;
		find_candidates(cgroup, seen[next], &n_seen[next]);
		if (due && kill_one(cgroup, seen[next], n_seen[next], seen[cur], n_seen[cur], &rule, avg10,
				    over_ms))
			oomd_killed(&state, t);
		else
			for (size_t i = 0; i < n_seen[next]; i++)
				read_pgscan(seen[next][i].path, &seen[next][i].pgscan);
		cur = next;
	}
}
