/* selftest: one of the kernel's own selftests (tools/testing/selftests),
 * or every test of a suite in turn, built by the lab from the variant's
 * tree, statically linked, and found in the guest under
 * GUEST_SELFTESTS_DIR/SUITE/TEST (a suite's list: SUITE/SELFTEST_SUITE_LIST).
 * Its KTAP/TAP output is passed through and read into one outcome per test
 * case.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "common/kernel-text/ktap.h"
#include "common/proto/name-rule.h"
#include "common/proto/protocol.h"
#include "lib/args.h"
#include "lib/check.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/sysinfo.h"
#include "workload.h"

#define NAME "selftest"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&selftest_metric_rows[id])
#define TEST_NAME_MAX 160

const char selftest_usage[] =
"Usage: selftest [OPTIONS] SUITE/TEST [ARGS...]\n"
"       selftest [OPTIONS] SUITE [CATEGORY...]\n"
"Runs the kernel selftest TEST of SUITE (a folder of tools/testing/selftests,\n"
"e.g. mm/compaction_test, cgroup/test_memcontrol, filesystems/binderfs/binderfs_test)\n"
"with ARGS, as the lab built it from the variant's own tree, and reads its\n"
"KTAP/TAP output: each top-level test case is one outcome.  With SUITE alone\n"
"(e.g. cgroup), every program of the suite's TEST_GEN_PROGS that built, one\n"
"after the other, each as if named alone.  A suite with a runner script (mm:\n"
"run_vmtests.sh) runs it once, for the CATEGORYs named (-t; every category\n"
"when none is), its tests the cases of SUITE.run_vmtests, each test with its\n"
"own timeout.\n"
"\n"
"  --timeout DUR   stop a test (its whole process group) after DUR (default\n"
"                  300s, 0: never); the cases it had not reported count as\n"
"                  missing. Under a runner, each program it starts is\n"
"                  killed after DUR and counts as failed\n"
"\n";

/* The names are the test's and its cases', known once it ran: SUITE.TEST.CASE,
 * SUITE.TEST.skipped, ...: its rows are globs (common/proto/workload-metrics.h). */

static const char selftest_output[] =
"S.T is the suite (its '/' as '.') and the test. A skipped case's reason is on\n"
"stderr and in a \"skip\" event.\n"
"The test's own lines pass through.  Exit 0 once the test ran: its failures\n"
"are results.  Exit 1 when it could not be run or printed no result at all.\n";

/*
 * The test's working folder: a new folder on the scratch disk when the
 * agent mounted one (an ext4 disk: the tests that measure page cache open
 * their files in "."), else where the agent started it, the in-memory root.
 * Said on stderr either way, so that a page-cache case's failure can be
 * read against it.
 */
static void enter_working_folder(const char *prefix)
{
	struct stat root, scratch;
	if (stat("/", &root) < 0 || stat(GUEST_SCRATCH_DISK_DIR, &scratch) < 0 ||
	    scratch.st_dev == root.st_dev) {
		fprintf(stderr, "%s: working folder: the in-memory root (no scratch disk)\n", NAME);
		return;
	}
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/%s-%d", GUEST_SCRATCH_DISK_DIR, prefix, (int)getpid());
	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || chdir(dir) < 0) {
		fprintf(stderr, "%s: working folder %s: %s; the in-memory root instead\n", NAME, dir,
			strerror(errno));
		return;
	}
	fprintf(stderr, "%s: working folder: %s (the scratch disk, ext4)\n", NAME, dir);
}

/* SUITE/TEST: one or more folder names and a program name, nothing climbing
 * out: the lab's one name rule (name-rule.h), which the host applies too. */
static bool good_test_name(const char *name)
{
	return strlen(name) <= TEST_NAME_MAX && strchr(name, '/') && name_rule_ok(name, NAME_PATH);
}

/* SUITE: one folder name, by the same rule. */
static bool good_suite_name(const char *name)
{
	return strlen(name) <= TEST_NAME_MAX && !strchr(name, '/') && name_rule_ok(name, NAME_PATH);
}

static void skip_event(const char *prefix, const char *name, const char *reason)
{
	struct jl j;
	report_begin_event(&j, "skip");
	jl_strf(&j, "case", "%s.%s", prefix, name);
	jl_str(&j, "reason", reason);
	report_end(&j);
	fprintf(stderr, "%s: %s.%s skipped: %s\n", NAME, prefix, name, *reason ? reason : "no reason");
}

static void report_cases(const char prefix[TEST_NAME_MAX + 1], const struct ktap_run *r, uint64_t wall_ns,
			 bool exited)
{
	char name[512];
	for (size_t i = 0; i < r->n; i++) {
		const struct ktap_case *c = &r->cases[i];
		if (c->result == KTAP_SKIP) {
			snprintf(name, sizeof(name), "%s.%s.skipped", prefix, c->name);
			report_row_as(ROW(SELFTEST_SKIPPED), name, 1);
			skip_event(prefix, c->name, c->reason);
			continue;
		}
		snprintf(name, sizeof(name), "%s.%s", prefix, c->name);
		report_row_as(ROW(SELFTEST_CASE), name, c->result == KTAP_PASS);
		if (c->result == KTAP_FAIL)
			fprintf(stderr, "%s: %s.%s failed%s%s\n", NAME, prefix, c->name,
				*c->reason ? ": " : "", c->reason);
	}
	snprintf(name, sizeof(name), "%s.skipped", prefix);
	report_row_as(ROW(SELFTEST_SKIPPED), name, r->whole_skip);
	if (r->whole_skip)
		skip_event(prefix, "all", r->whole_reason);
	snprintf(name, sizeof(name), "%s.duration_ns", prefix);
	report_row_as(ROW(SELFTEST_DURATION), name, (double)wall_ns);
	snprintf(name, sizeof(name), "%s.missing_cases", prefix);
	report_row_as(ROW(SELFTEST_MISSING_CASES), name, (double)ktap_missing(r));
	snprintf(name, sizeof(name), "%s.completed", prefix);
	report_row_as(ROW(SELFTEST_COMPLETED), name, exited && !ktap_missing(r));
}

/* A pseudo-terminal pair in raw mode (no "\r\n" for "\n", no echo); -1 with errno. */
static int open_terminal(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0 || grantpt(*master) < 0 || unlockpt(*master) < 0)
		goto fail;
	const char *name = ptsname(*master);
	*slave = name ? open(name, O_RDWR | O_NOCTTY) : -1;
	if (*slave < 0)
		goto fail;
	struct termios t;
	if (tcgetattr(*slave, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(*slave, TCSANOW, &t);
	}
	return 0;
fail:
	if (*master >= 0)
		close(*master);
	*master = -1;
	return -1;
}

/* Reads the test's output from FD a line at a time into R, passing it on to
 * stdout, until the last writer is gone (a terminal's master then reads EIO)
 * or DEADLINE_NS (mono_ns(); 0: none) passes; false on the deadline. */
static bool read_output(int fd, struct ktap_run *r, uint64_t deadline_ns)
{
	char buf[4096], line[8192];
	size_t len = 0;
	bool in_time = true;
	for (;;) {
		int wait_ms = -1;
		if (deadline_ns) {
			uint64_t now = mono_ns();
			if (now >= deadline_ns) {
				in_time = false;
				break;
			}
			uint64_t left = (deadline_ns - now) / 1000000 + 1;
			wait_ms = left > 60000 ? 60000 : (int)left;
		}
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ready = poll(&p, 1, wait_ms);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready == 0)
			continue;
		ssize_t got = ready < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		fwrite(buf, 1, (size_t)got, stdout);
		fflush(stdout);
		/* whole lines to the KTAP reader; one longer than LINE is cut */
		for (ssize_t k = 0; k < got; k++) {
			if (len < sizeof(line) - 1)
				line[len++] = buf[k];
			if (buf[k] == '\n') {
				line[len] = '\0';
				ktap_feed(r, line);
				len = 0;
			}
		}
	}
	if (len) {
		line[len] = '\0';
		ktap_feed(r, line);
	}
	return in_time;
}

/* "mm/compaction_test" -> "mm.compaction_test": the metrics' prefix. */
static void metric_prefix(const char *test, char prefix[TEST_NAME_MAX + 1])
{
	snprintf(prefix, TEST_NAME_MAX + 1, "%s", test);
	for (char *p = prefix; *p; p++)
		if (*p == '/')
			*p = '.';
}

/*
 * Runs PATH with ARGV, its stdout a terminal, in the working folder as it
 * is, for at most TIMEOUT_NS (0: no limit), and reports its cases as
 * PREFIX.CASE; TEST names it in messages. WL_EXIT_OK once it printed a
 * result, else WL_EXIT_FAIL.
 */
static int run_tap(const char *test, const char *prefix, const char *path, char **argv,
		   uint64_t timeout_ns)
{
	/*
	 * The test's stdout is a terminal, not a pipe: stdio then flushes each
	 * line, where a pipe's full buffer is copied into every child the test
	 * forks and printed again by each (test_memcontrol's "ok 1" came 3
	 * times, test_kmem's "not ok 1" 40).
	 */
	int master = -1, slave = -1;
	if (open_terminal(&master, &slave) < 0) {
		wl_err(NAME, "a terminal for the test's output: %s", strerror(errno));
		return WL_EXIT_FAIL;
	}
	uint64_t t0 = mono_ns();
	pid_t pid = fork();
	if (pid == 0) {
		/* its own process group: the timeout stops what it forked too */
		setpgid(0, 0);
		close(master);
		dup2(slave, 1);
		close(slave);
		wl_exec_signals();
		execv(path, argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", NAME, path, strerror(errno));
		_exit(127);
	}
	close(slave);
	if (pid < 0) {
		close(master);
		wl_err(NAME, "fork: %s", strerror(errno));
		return WL_EXIT_FAIL;
	}
	setpgid(pid, pid);
	struct ktap_run run;
	ktap_init(&run);
	bool in_time = read_output(master, &run, timeout_ns ? t0 + timeout_ns : 0);
	if (!in_time) {
		kill(-pid, SIGKILL);
		fprintf(stderr, "%s: %s timed out after %.0f s: stopped\n", NAME, test,
			(double)timeout_ns / 1e9);
	}
	close(master);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	uint64_t wall = mono_ns() - t0;
	bool exited = WIFEXITED(status);
	bool anything = run.n > 0 || run.whole_skip;
	if (exited && WEXITSTATUS(status) == 127 && !anything) {
		ktap_clear(&run);
		return WL_EXIT_FAIL;
	}
	report_cases(prefix, &run, wall, exited);
	if (WIFSIGNALED(status) && in_time)
		fprintf(stderr, "%s: %s was killed by signal %d after %zu cases\n", NAME, test,
			WTERMSIG(status), run.n);
	ktap_clear(&run);
	if (!anything) {
		wl_err(NAME, "%s printed no test result (exit %d)", test,
		       exited ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return WL_EXIT_FAIL;
	}
	return WL_EXIT_OK;
}

/* TEST (SUITE/TEST) with ARGV (argv[0] is replaced by its path), in a
 * working folder of its own (enter_working_folder). */
static int run_test(const char *test, char **argv, uint64_t timeout_ns)
{
	char path[512], prefix[TEST_NAME_MAX + 1];
	snprintf(path, sizeof(path), "%s/%s", GUEST_SELFTESTS_DIR, test);
	metric_prefix(test, prefix);
	if (access(path, X_OK) < 0) {
		wl_err(NAME, "%s: %s (the lab builds the selftests an experiment names)", path,
		       strerror(errno));
		return WL_EXIT_FAIL;
	}
	enter_working_folder(prefix);
	argv[0] = path;
	return run_tap(test, prefix, path, argv, timeout_ns);
}

/*
 * A program of a runner suite, bounded: the real one goes to .tests/NAME
 * and NAME becomes a script that runs it through `selftest --run-bounded`
 * (run_bounded), so that each test the runner starts has its own time
 * limit, as kselftest's runner gives each test, and one that overruns fails
 * (exit 137) while the rest of its category still runs. Without a limit
 * the program is copied as it is.
 */
static int copy_runner_program(const char *from, const char *name, unsigned mode,
			       const char *here, const char *self, uint64_t timeout_ns)
{
	if (!timeout_ns)
		return wl_copy_file(from, name, mode);
	char real[600];
	snprintf(real, sizeof(real), ".tests/%s", name);
	if (mkdir(".tests", 0755) < 0 && errno != EEXIST)
		return -errno;
	int rc = wl_copy_file(from, real, mode);
	if (rc < 0)
		return rc;
	char text[2000];
	snprintf(text, sizeof(text),
		 "#!/bin/sh\n# oomlab: %s, stopped after %llu ms (selftest --timeout)\n"
		 "exec %s " NAME " --run-bounded %llu %s/.tests/%s \"$@\"\n",
		 name, (unsigned long long)(timeout_ns / 1000000), self,
		 (unsigned long long)(timeout_ns / 1000000), here, name);
	unlink(name);
	int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0)
		return -errno;
	size_t len = strlen(text);
	rc = write(fd, text, len) == (ssize_t)len ? 0 : -EIO;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/*
 * `selftest --run-bounded MS PROGRAM [ARGS...]`, which only the scripts of
 * copy_runner_program call: PROGRAM as a child, killed after MS
 * milliseconds. Exits as the child did (128 + its signal when one ended
 * it: 137 when it was killed for its time). The wait ends the moment the
 * child does: busybox's timeout leaves a watcher behind for up to a second,
 * in the test's cgroup, where mm's hugetlb scripts then cannot remove it.
 */
static int run_bounded(int argc, char **argv)
{
	if (argc < 4)
		return wl_usage_error(NAME, "--run-bounded MS PROGRAM [ARGS...]");
	uint64_t ms = strtoull(argv[2], NULL, 10);
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	pid_t pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		wl_exec_signals();
		execv(argv[3], argv + 3);
		fprintf(stderr, "%s: cannot run %s: %s\n", NAME, argv[3], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		wl_err(NAME, "fork: %s", strerror(errno));
		return 127;
	}
	uint64_t deadline = mono_ns() + ms * 1000000ull;
	int status = 0;
	bool killed = false;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		uint64_t now = mono_ns();
		if (now >= deadline && !killed) {
			kill(pid, SIGKILL);
			killed = true;
			fprintf(stderr, "%s: %s stopped after %llu ms (its --timeout)\n", NAME, argv[3],
				(unsigned long long)ms);
		}
		uint64_t left = killed ? 100000000ull : deadline - now;
		struct timespec ts = { (time_t)(left / 1000000000ull), (long)(left % 1000000000ull) };
		sigtimedwait(&chld, NULL, &ts);
	}
	/* killed for its time: 128 + SIGKILL, 137, as a shell says it */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * A runner suite's folder, copied into a working folder of its own and
 * entered: the runner starts its tests as ./PROGRAM, and some write beside
 * them, where the tools disk is read-only. Its scripts are made executable,
 * its programs bounded by TIMEOUT_NS each (copy_runner_program), and
 * /bin/bash, which the scripts' "#!" lines name, becomes the suite's static
 * bash. 0, or -1 said on stderr.
 */
static int enter_runner_copy(const char *suite, uint64_t timeout_ns)
{
	char from_dir[512], here[512], self[512];
	ssize_t self_len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (self_len <= 0) {
		wl_err(NAME, "/proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[self_len] = '\0';
	snprintf(from_dir, sizeof(from_dir), "%s/%s", GUEST_SELFTESTS_DIR, suite);
	enter_working_folder(suite);
	if ((mkdir(suite, 0755) < 0 && errno != EEXIST) || chdir(suite) < 0 ||
	    !getcwd(here, sizeof(here))) {
		wl_err(NAME, "a copy of %s: %s", from_dir, strerror(errno));
		return -1;
	}
	DIR *d = opendir(from_dir);
	if (!d) {
		wl_err(NAME, "%s: %s", from_dir, strerror(errno));
		return -1;
	}
	int rc = 0;
	size_t copied = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		char from[1024];
		struct stat st;
		snprintf(from, sizeof(from), "%s/%s", from_dir, e->d_name);
		if (e->d_name[0] == '.' || stat(from, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		size_t len = strlen(e->d_name);
		bool script = len > 3 && !strcmp(e->d_name + len - 3, ".sh");
		bool tool = !strcmp(e->d_name, SELFTEST_RUNNER_BASH) ||
			    !strcmp(e->d_name, SELFTEST_RUNNER_PGREP);
		bool program = !script && !tool && (st.st_mode & 0100);
		rc = program ? copy_runner_program(from, e->d_name, st.st_mode & 0777, here, self,
						     timeout_ns)
			     : wl_copy_file(from, e->d_name, script ? 0755 : (st.st_mode & 0777));
		if (rc < 0)
			wl_err(NAME, "copying %s: %s", from, strerror(-rc));
		copied++;
	}
	closedir(d);
	/* the tools the scripts call by name: bash always, pgrep when it came */
	static const struct { const char *name; bool needed; } tools[] = {
		{ SELFTEST_RUNNER_BASH, true }, { SELFTEST_RUNNER_PGREP, false },
	};
	for (size_t i = 0; rc == 0 && i < sizeof(tools) / sizeof(tools[0]); i++) {
		char tool[1024], link[64];
		snprintf(tool, sizeof(tool), "%s/%s", here, tools[i].name);
		snprintf(link, sizeof(link), "/bin/%s", tools[i].name);
		if (!tools[i].needed && access(tool, X_OK) < 0)
			continue;
		unlink(link);
		if (symlink(tool, link) < 0) {
			wl_err(NAME, "%s -> %s: %s", link, tool, strerror(errno));
			rc = -1;
		}
	}
	char bound[64] = "no test stopped (--timeout 0)";
	if (timeout_ns)
		snprintf(bound, sizeof(bound), "each test stopped after %.0f s",
			 (double)timeout_ns / 1e9);
	if (rc == 0)
		fprintf(stderr, "%s: suite %s: %zu files copied here, %s, /bin/bash is its static "
			"bash%s\n", NAME, suite, copied, bound,
			access("/bin/" SELFTEST_RUNNER_PGREP, X_OK) == 0 ? ", /bin/pgrep procps'" : "");
	return rc;
}

/*
 * SUITE by its runner, in one run, as its developers run it: bash
 * ./RUNNER, with -t and the CATEGORIES named (all of them, the runner's
 * default, when none is), its cases as SUITE.RUNNER-without-.sh.CASE. One
 * run, not one a category: the runner's set-up between categories (huge
 * pages reserved, then given back) is part of what its tests see.
 */
static int run_runner(const char *suite, char *const *categories, int n_categories)
{
	char test[TEST_NAME_MAX + 1], prefix[TEST_NAME_MAX + 1], chosen[4096] = "";
	size_t used = 0;
	for (int k = 0; k < n_categories; k++) {
		int w = snprintf(chosen + used, sizeof(chosen) - used, "%s%s", k ? " " : "",
				 categories[k]);
		if (w < 0 || (size_t)w >= sizeof(chosen) - used) {
			wl_err(NAME, "suite %s: too many categories", suite);
			return WL_EXIT_FAIL;
		}
		used += (size_t)w;
	}
	snprintf(test, sizeof(test), "%.60s/%.*s", suite,
		 (int)(strlen(SELFTEST_RUNNER) - strlen(".sh")), SELFTEST_RUNNER);
	metric_prefix(test, prefix);
	char *argv[] = { "/bin/bash", "./" SELFTEST_RUNNER, n_categories ? "-t" : NULL, chosen, NULL };
	fprintf(stderr, "%s: %s: ./" SELFTEST_RUNNER "%s%s%s\n", NAME, test,
		n_categories ? " -t '" : " (every category)", chosen, n_categories ? "'" : "");
	/* each of its programs has the limit (copy_runner_program); the run as a
	 * whole is bounded by the trial's watchdog */
	return run_tap(test, prefix, "/bin/bash", argv, 0);
}

/* Every test the lab listed for SUITE (GUEST_SELFTESTS_DIR/SUITE/SELFTEST_SUITE_LIST,
 * one program name a line) in its order, or, when its lines are a runner's
 * categories, the runner once for the CATEGORIES named, each of which must
 * be among them. OK once a test gave a result. */
static int run_suite(const char *suite, char *const *categories, int n_categories,
		     uint64_t timeout_ns)
{
	char list[512];
	snprintf(list, sizeof(list), "%s/%s/%s", GUEST_SELFTESTS_DIR, suite, SELFTEST_SUITE_LIST);
	FILE *f = fopen(list, "r");
	if (!f) {
		wl_err(NAME, "%s: %s (the lab lists a suite's tests when it builds them)", list,
		       strerror(errno));
		return WL_EXIT_FAIL;
	}
	const size_t skip = strlen(SELFTEST_RUNNER_LINE);
	char line[256];
	size_t ran = 0, gave = 0, found = 0, lines = 0;
	bool runner = false;   /* the list is a runner's: its first line says */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		if (!lines++)
			runner = !strncmp(line, SELFTEST_RUNNER_LINE, skip);
		if (runner) {
			for (int k = 0; k < n_categories; k++)
				found += !strcmp(categories[k], line + skip);
			continue;
		}
		char test[2 * TEST_NAME_MAX + 2];
		snprintf(test, sizeof(test), "%s/%.*s", suite, TEST_NAME_MAX, line);
		if (!good_test_name(test)) {
			wl_err(NAME, "%s: '%s' is no test name", list, line);
			continue;
		}
		fprintf(stderr, "%s: %s (%zu of the suite)\n", NAME, test, ran + 1);
		char *argv[] = { test, NULL };
		ran++;
		gave += run_test(test, argv, timeout_ns) == WL_EXIT_OK;
	}
	fclose(f);
	if (n_categories && (!runner || found != (size_t)n_categories)) {
		wl_err(NAME, runner ? "suite %s: a category named is not among its runner's (%s)"
				    : "suite %s has no runner script: it takes no categories", suite, list);
		return WL_EXIT_FAIL;
	}
	if (runner)
		return enter_runner_copy(suite, timeout_ns) < 0 ? WL_EXIT_FAIL
								: run_runner(suite, categories, n_categories);
	fprintf(stderr, "%s: suite %s: %zu tests ran, %zu gave a result\n", NAME, suite, ran, gave);
	return gave ? WL_EXIT_OK : WL_EXIT_FAIL;
}

int selftest_main(int argc, char **argv)
{
	/* the runner's wrappers' own mode (copy_runner_program), not a user's option */
	if (argc > 1 && !strcmp(argv[1], "--run-bounded"))
		return run_bounded(argc, argv);
	struct wl_common com = { -1 };
	uint64_t timeout_ns = 300ull * 1000000000ull;
	bool done;
	int operands = 0;
	const struct opt opts[] = {
		WL_NODE_OPTION(&com),
		WL_OPT_DURATION(0, "timeout", &timeout_ns, "DUR",
				"stop a test after DUR (default 300s; 0: never)"),
		OPT_END(),
	};
	int r = wl_parse_args_operands(NAME, argc, argv, opts, selftest_usage, selftest_output, &com,
				       &done, &operands);
	if (done)
		return r;
	if (operands < 1)
		return wl_usage_error(NAME, "which test? SUITE/TEST, e.g. mm/compaction_test, or SUITE");
	const char *test = argv[1];
	bool suite = !strchr(test, '/');
	if (suite ? !good_suite_name(test) : !good_test_name(test))
		return wl_usage_error(NAME, "'%s' is no SUITE/TEST or SUITE name (e.g. "
				      "cgroup/test_memcontrol, or cgroup)", test);
	for (int k = 2; suite && k <= operands; k++)
		if (!good_suite_name(argv[k]))
			return wl_usage_error(NAME, "'%s' is no category of suite %s (a folder-like "
					      "name, e.g. mlock)", argv[k], test);
	/* check mode ends here: the guest's file system, not the host's, has the
	 * tests; the lab checks the name against the tree */
	wl_start();
	return suite ? run_suite(test, argv + 2, operands - 1, timeout_ns)
		     : run_test(test, argv + 1, timeout_ns);
}
