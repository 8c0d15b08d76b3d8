/* selftest: one of the kernel's own selftests (tools/testing/selftests),
 * built by the lab from the variant's tree, statically linked, and found in
 * the guest under GUEST_SELFTESTS_DIR/SUITE/TEST.  Its KTAP/TAP output is
 * passed through and read into one outcome per test case.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "common/kernel-text/ktap.h"
#include "common/proto/name-rule.h"
#include "common/proto/protocol.h"
#include "lib/args.h"
#include "lib/check.h"
#include "lib/report.h"
#include "workload.h"

#define NAME "selftest"
#define TEST_NAME_MAX 160

const char selftest_usage[] =
"Usage: selftest [OPTIONS] SUITE/TEST [ARGS...]\n"
"Runs the kernel selftest TEST of SUITE (a folder of tools/testing/selftests,\n"
"e.g. mm/compaction_test, cgroup/test_memcontrol, filesystems/binderfs/binderfs_test)\n"
"with ARGS, as the lab built it from the variant's own tree, and reads its\n"
"KTAP/TAP output: each top-level test case is one outcome.\n"
"\n";

/* The names are the test's and its cases', known once it ran: SUITE.TEST.CASE,
 * SUITE.TEST.skipped, ... (selftest_output); an experiment's checked names
 * take them as one glob. */
const char *const selftest_metrics[] = { "*", NULL };

static const char selftest_output[] =
"Output, with S.T the suite (its '/' as '.') and the test: S.T.CASE (ok: 1 pass,\n"
"0 fail; absent when skipped), S.T.CASE.skipped (ok: 1, its reason on stderr and\n"
"in a \"skip\" event), S.T.skipped (ok: the whole test skipped), S.T.duration_ns\n"
"(ns), S.T.missing_cases (count: planned cases that never reported, a crash or\n"
"a kill), S.T.completed (ok: it exited by itself with every planned case).\n"
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
			report_metric(name, 1, "ok", NULL);
			skip_event(prefix, c->name, c->reason);
			continue;
		}
		snprintf(name, sizeof(name), "%s.%s", prefix, c->name);
		report_metric(name, c->result == KTAP_PASS, "ok", NULL);
		if (c->result == KTAP_FAIL)
			fprintf(stderr, "%s: %s.%s failed%s%s\n", NAME, prefix, c->name,
				*c->reason ? ": " : "", c->reason);
	}
	snprintf(name, sizeof(name), "%s.skipped", prefix);
	report_metric(name, r->whole_skip, "ok", NULL);
	if (r->whole_skip)
		skip_event(prefix, "all", r->whole_reason);
	snprintf(name, sizeof(name), "%s.duration_ns", prefix);
	report_metric(name, (double)wall_ns, "ns", NULL);
	snprintf(name, sizeof(name), "%s.missing_cases", prefix);
	report_metric(name, (double)ktap_missing(r), "count", NULL);
	snprintf(name, sizeof(name), "%s.completed", prefix);
	report_metric(name, exited && !ktap_missing(r), "ok", NULL);
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
 * stdout; a terminal's master reads EIO once the last writer is gone: the end. */
static void read_output(int fd, struct ktap_run *r)
{
	FILE *in = fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;
	while (in && getline(&line, &cap, in) > 0) {
		fputs(line, stdout);
		fflush(stdout);
		ktap_feed(r, line);
	}
	free(line);
	if (in)
		fclose(in);
}

int selftest_main(int argc, char **argv)
{
	struct wl_common com = { -1 };
	bool done;
	int operands = 0;
	const struct opt opts[] = {
		WL_NODE_OPTION(&com),
		OPT_END(),
	};
	int r = wl_parse_args_operands(NAME, argc, argv, opts, selftest_usage, selftest_output, &com,
				       &done, &operands);
	if (done)
		return r;
	if (operands < 1)
		return wl_usage_error(NAME, "which test? SUITE/TEST, e.g. mm/compaction_test");
	const char *test = argv[1];
	if (!good_test_name(test))
		return wl_usage_error(NAME, "'%s' is no SUITE/TEST name (e.g. cgroup/test_memcontrol)",
				      test);
	char path[512], prefix[TEST_NAME_MAX + 1];
	snprintf(path, sizeof(path), "%s/%s", GUEST_SELFTESTS_DIR, test);
	snprintf(prefix, sizeof(prefix), "%s", test);
	for (char *p = prefix; *p; p++)
		if (*p == '/')
			*p = '.';
	/* the guest's file system, not the host's: the lab checks the name against the tree */
	if (!wl_checking() && access(path, X_OK) < 0) {
		wl_err(NAME, "%s: %s (the lab builds the selftests an experiment names)", path,
		       strerror(errno));
		return WL_EXIT_FAIL;
	}
	wl_start();
	enter_working_folder(prefix);

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
		close(master);
		dup2(slave, 1);
		close(slave);
		argv[1] = path;
		execv(path, argv + 1);
		fprintf(stderr, "%s: cannot run %s: %s\n", NAME, path, strerror(errno));
		_exit(127);
	}
	close(slave);
	if (pid < 0) {
		close(master);
		wl_err(NAME, "fork: %s", strerror(errno));
		return WL_EXIT_FAIL;
	}
	struct ktap_run run;
	ktap_init(&run);
	read_output(master, &run);
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
	if (WIFSIGNALED(status))
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
