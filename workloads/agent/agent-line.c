/*
 * One workload line, measured: the agent's binary run as
 * `/init --run-line N PROGRAM ARGS...` by the experiment's script, once a
 * line (common/proto/workload-line.h says what it writes). It is the lab's,
 * not the workload's: it keeps out of the OOM killer's way and out of fault
 * injection so that it can always say how the line ended; PROGRAM starts at
 * oom_score_adj 0, with the fault injection mark the script had.
 *
 * The figures are the cgroup the script runs in, the workload cgroup
 * (/proc/self/cgroup; none in the root cgroup, use_cgroup=0). Its
 * memory.peak is reset for the line by writing to it (Linux 6.12): the
 * reset is private to the file descriptor that wrote, so reading that
 * descriptor afterwards gives the peak since the reset, and nobody else's
 * reading of memory.peak changes. A child cgroup per line would measure the
 * line alone, but cgroup v2 lets a cgroup that hands memory to children
 * hold no process itself: the script would move out of the workload
 * cgroup, and where the OOM killer and memory.oom.group look would change
 * for every experiment. The peak therefore includes what the cgroup held
 * as the line started (page cache of earlier lines, the script).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-child.h"
#include "agent-line.h"
#include "agent-self.h"
#include "agent-setup.h"
#include "common/kernel-text/kv.h"
#include "common/proto/workload-line.h"
#include "workloads/lib/report.h"
#include "workloads/lib/sysinfo.h"

struct line_cgroup {
	char dir[512];          /* "" in the root cgroup: no figures */
	int peak_fd;            /* memory.peak, reset for this line; -1: no peak */
	long long oom_kills;    /* memory.events oom_kill as the line started; -1: unknown */
};

/* The cgroup v2 folder of this process ("/workload"), or "" in the root. */
static void own_cgroup(char *dir, size_t cap)
{
	char rel[400];
	dir[0] = '\0';
	if (wl_own_cgroup(0, rel, sizeof(rel)) == 0 && strcmp(rel, "/"))
		wl_pathf(dir, cap, AGENT_CGROUP_MOUNT "%s", rel);
}

static long long oom_kills_now(const struct line_cgroup *g)
{
	char path[600], *text = NULL;
	long long v;
	if (!g->dir[0] || wl_pathf(path, sizeof(path), "%s/memory.events", g->dir) < 0 ||
	    wl_read_text_alloc(path, &text) < 0) {
		free(text);
		return -1;
	}
	bool found = kv_find(text, "oom_kill", &v);
	free(text);
	return found ? v : -1;
}

static void line_cgroup_open(struct line_cgroup *g)
{
	char path[600];
	own_cgroup(g->dir, sizeof(g->dir));
	g->peak_fd = -1;
	g->oom_kills = oom_kills_now(g);
	if (!g->dir[0] || wl_pathf(path, sizeof(path), "%s/memory.peak", g->dir) < 0)
		return;
	/* before 6.12 memory.peak has no write handler: the open fails */
	g->peak_fd = open(path, O_RDWR | O_CLOEXEC);
	if (g->peak_fd >= 0 && write(g->peak_fd, "reset\n", 6) != 6) {
		close(g->peak_fd);
		g->peak_fd = -1;
	}
}

/* The peak since the reset, in bytes; -1 when unknown. */
static long long peak_bytes(const struct line_cgroup *g)
{
	char text[64];
	ssize_t n = g->peak_fd >= 0 ? pread(g->peak_fd, text, sizeof(text) - 1, 0) : -1;
	if (n <= 0)
		return -1;
	text[n] = '\0';
	char *end;
	long long v = strtoll(text, &end, 10);
	return end != text ? v : -1;
}

/* Fault injection marks the command's tasks (agent-faults.c): the runner is
 * the lab's, so the mark goes on to PROGRAM alone. True when it was set. */
static bool take_fault_mark(void)
{
	char v[16];
	if (wl_read_line("/proc/self/make-it-fail", v, sizeof(v)) < 0 || v[0] != '1')
		return false;
	wl_write_text("/proc/self/make-it-fail", "0");
	return true;
}

static void marker(const char *type, const char *name, long line, int status, int sig)
{
	struct jl j;
	jl_begin(&j);
	jl_str(&j, "type", type);
	jl_str(&j, "workload", name);
	jl_i64(&j, LINE_NUMBER, line);
	if (status >= 0) {
		jl_i64(&j, LINE_EXIT_STATUS, status);
		jl_i64(&j, LINE_SIGNAL, sig);
	}
	jl_u64(&j, "t_mono_ns", mono_ns());
	jl_emit(&j, report_fd());
}

static int wait_child(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int run_line_main(int argc, char **argv)
{
	char *end;
	long line = argc > 1 ? strtol(argv[1], &end, 10) : 0;
	if (argc < 3 || *end || line < 1) {
		fprintf(stderr, "usage: %s %s N PROGRAM [ARGS...]\n", LINE_RUNNER_PATH, LINE_RUNNER_OPTION);
		return 2;
	}
	const char *const *cmd = (const char *const *)argv + 2;
	const char *name = workload_line_name(cmd);
	protect_from_oom_killer();
	bool make_it_fail = take_fault_mark();
	report_set_source(name);
	struct line_cgroup g;
	line_cgroup_open(&g);
	marker(LINE_START, name, line, -1, 0);

	struct agent_child c;
	agent_child_init(&c, cmd[0]);
	c.path = cmd[0];
	c.argv = cmd;
	c.search_path = true;
	c.oom_killable = true;
	c.make_it_fail = make_it_fail;
	uint64_t started = mono_ns();
	pid_t pid = agent_spawn(&c);
	int raw = pid > 0 ? wait_child(pid) : -1;
	uint64_t ended = mono_ns();

	int status = 126, sig = 0;
	if (raw >= 0 && WIFEXITED(raw)) {
		status = WEXITSTATUS(raw);
	} else if (raw >= 0 && WIFSIGNALED(raw)) {
		sig = WTERMSIG(raw);
		status = 128 + sig;
	}
	report_metric(LINE_METRIC_EXIT_STATUS, status, "status", NULL);
	report_metric(LINE_METRIC_SIGNAL, sig, "signal", NULL);
	report_metric(LINE_METRIC_WALL, (double)(ended - started) / 1e9, "s", NULL);
	long long peak = peak_bytes(&g), kills = oom_kills_now(&g);
	if (peak >= 0)
		report_metric(LINE_METRIC_MEMORY_PEAK, (double)peak, "bytes", NULL);
	if (g.oom_kills >= 0 && kills >= 0)
		report_metric(LINE_METRIC_OOM_KILLS, (double)(kills - g.oom_kills), "count", NULL);
	marker(LINE_END, name, line, status, sig);
	if (g.peak_fd >= 0)
		close(g.peak_fd);
	return status;
}
