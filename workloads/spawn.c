/* spawn: fork+exec of /bin/true N times, the loop of the seed thread on the
 * OOM reaper racing with exit_mmap ("can we check that the number of
 * /bin/true we can spawn per second wouldn't be harmed").  Reports spawns
 * per second and the user/system time of the whole loop (this process plus
 * its children, what /usr/bin/time reports).
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/check.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "workload.h"

#define NAME "spawn"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&spawn_metric_rows[id])

extern char **environ;

const char spawn_usage[] =
"Usage: spawn [OPTIONS]\n"
"Runs a program (default /bin/true) N times, one after the other, each a\n"
"fork+exec+wait, and reports spawns per second and user/system time.\n"
"\n"
"\n";

static const char spawn_output[] =
"Events phase-begin/end (spawn).  SIGTERM stops the loop early (figures\n"
"cover what ran).\n";

enum method { M_FORK, M_VFORK, M_POSIX_SPAWN };

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int spawn_one(enum method m, const char *cmd)
{
	char *const argv[] = { (char *)cmd, NULL };
	int status;
	pid_t pid;

	switch (m) {
	case M_POSIX_SPAWN:
		if (posix_spawn(&pid, cmd, NULL, NULL, argv, environ))
			return -1;
		break;
	case M_VFORK:
		pid = vfork();
		if (pid == 0) {
			execve(cmd, argv, environ);
			_exit(127);
		}
		break;
	default:
		pid = fork();
		if (pid == 0) {
			execve(cmd, argv, environ);
			_exit(127);
		}
		break;
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static const char *const method_names[] = { [M_FORK] = "fork", [M_VFORK] = "vfork",
					     [M_POSIX_SPAWN] = "posix_spawn", NULL };

int spawn_main(int argc, char **argv)
{
	uint64_t count = 1000, time_ns = 0, done_n = 0, failures = 0, t0, wall;
	const char *cmd = "/bin/true";
	int m = M_FORK;
	struct rusage self, kids;
	struct wl_common com = { -1 };
	bool done;
	int r;
	const struct opt opts[] = {
		OPT_U64('n', "count", &count, "N", 1, UINT32_MAX, "spawns (default 1000)"),
		WL_OPT_DURATION(0, "time", &time_ns, "DUR", "stop after DUR even if N is not reached"),
		OPT_STRING(0, "cmd", &cmd, "PATH", "program to run (default /bin/true), no arguments"),
		OPT_CHOICE(0, "method", &m, "M", method_names, "fork (default), vfork or posix_spawn"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};

	r = wl_parse_args(NAME, argc, argv, opts, spawn_usage, spawn_output, &com, &done);
	if (done)
		return r;
	/* the guest's file system, not the host's: not checked in check mode */
	if (!wl_checking() && access(cmd, X_OK) < 0)
		return wl_usage_error(NAME, "--cmd %s: %s", cmd, strerror(errno));

	wl_start();
	report_phase("spawn", true);
	t0 = mono_ns();
	while (done_n < count && !wl_stop) {
		if (spawn_one((enum method)m, cmd) < 0)
			failures++;
		done_n++;
		if (time_ns && (done_n & 15) == 0 && mono_ns() - t0 >= time_ns)
			break;
	}
	wall = mono_ns() - t0;
	report_phase("spawn", false);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);

	report_row(ROW(SPAWN_COUNT), (double)done_n, NULL);
	report_row(ROW(SPAWN_FAILURES), (double)failures, NULL);
	report_row(ROW(SPAWN_WALL), (double)wall, NULL);
	if (wall) {
		report_row(ROW(SPAWN_PER_S), (double)done_n * 1e9 / (double)wall, NULL);
		report_row(ROW(SPAWN_NS_PER_SPAWN), (double)wall / (double)done_n, NULL);
	}
	report_row(ROW(SPAWN_USER), tv_s(self.ru_utime) + tv_s(kids.ru_utime), NULL);
	report_row(ROW(SPAWN_SYS), tv_s(self.ru_stime) + tv_s(kids.ru_stime), NULL);
	report_row(ROW(SPAWN_CHILDREN_USER), tv_s(kids.ru_utime), NULL);
	report_row(ROW(SPAWN_CHILDREN_SYS), tv_s(kids.ru_stime), NULL);
	fprintf(stderr, "%s: %llu spawns of %s in %.3f s: %.1f/s, user %.2f s, sys %.2f s, %llu failures\n",
		NAME, (unsigned long long)done_n, cmd, (double)wall / 1e9,
		wall ? (double)done_n * 1e9 / (double)wall : 0.0,
		tv_s(self.ru_utime) + tv_s(kids.ru_utime),
		tv_s(self.ru_stime) + tv_s(kids.ru_stime),
		(unsigned long long)failures);
	return failures == done_n ? WL_EXIT_FAIL : WL_EXIT_OK;
}
