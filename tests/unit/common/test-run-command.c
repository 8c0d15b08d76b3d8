/* test-run-command.c - the one way the lab starts a child (common/run-command.c):
 * statuses, redirections, capture, the working folder and environment,
 * timeouts, and a kill that takes the child's whole process group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/run-command.h"

static char *tmp_dir(void)
{
	char tmpl[] = "/tmp/oomlab-test-runcmd.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static int sh(const char *script)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct child_process cp = { .argv = argv, .stdout_to_stderr = true };
	return run_command(&cp);
}

static void test_statuses(void **state)
{
	(void)state;
	assert_int_equal(sh("exit 0"), 0);
	assert_int_equal(sh("exit 3"), 3);
	assert_int_equal(sh("kill -TERM $$"), 128 + SIGTERM);
	const char *argv[] = { "oomlab-no-such-program", NULL };
	struct child_process cp = { .argv = argv };
	assert_int_equal(run_command(&cp), 127);
	assert_int_equal(cp.term_signal, 0);
	/* 137 from a signal and 137 from exit(137) are told apart */
	const char *killed[] = { "sh", "-c", "kill -KILL $$", NULL };
	struct child_process k = { .argv = killed };
	assert_int_equal(run_command(&k), 137);
	assert_int_equal(k.term_signal, SIGKILL);
	const char *exited[] = { "sh", "-c", "exit 137", NULL };
	struct child_process x = { .argv = exited, .term_signal = 5 };
	assert_int_equal(run_command(&x), 137);
	assert_int_equal(x.term_signal, 0);
	assert_true(have_program("sh"));
	assert_false(have_program("oomlab-no-such-program"));
}

static void test_capture_and_stdin(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	const char *argv[] = { "sh", "-c", "echo to-out; echo to-err >&2; cat; exit 5", NULL };
	/* stdin is /dev/null: cat ends at once */
	assert_int_equal(capture_command(argv, NULL, &out), 5);
	assert_non_null(strstr(out.buf, "to-out"));
	assert_non_null(strstr(out.buf, "to-err"));
	strbuf_release(&out);
}

/* A failure names the whole command and the first line it printed; a
 * command that printed nothing is named with nothing after the colon. */
static void test_capture_or_say(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *ok[] = { "sh", "-c", "echo fine", NULL };
	assert_int_equal(capture_command_or_say(ok, &out, &err), 0);
	assert_string_equal(strbuf_first_line(&out), "fine");
	assert_null(err.buf);
	strbuf_release(&out);
	const char *loud[] = { "sh", "-c", "echo first; echo second; exit 3", NULL };
	assert_int_equal(capture_command_or_say(loud, &out, &err), -1);
	assert_string_equal(err.buf, "sh -c echo first; echo second; exit 3 failed: first");
	assert_null(out.buf);
	strbuf_reset(&err);
	const char *quiet[] = { "false", NULL };
	assert_int_equal(capture_command_or_say(quiet, &out, &err), -1);
	assert_string_equal(err.buf, "false failed: ");
	strbuf_release(&err);
}

/* The lines as printed: an empty one kept, the last one without a newline
 * too, none made of the final newline; stderr among them; any status. */
static void test_capture_lines(void **state)
{
	(void)state;
	struct strlist lines = STRLIST_INIT;
	const char *argv[] = { "sh", "-c", "echo one; echo; echo two >&2; printf three; exit 4", NULL };
	assert_int_equal(capture_lines(argv, NULL, &lines), 4);
	assert_int_equal(lines.n, 4);
	assert_string_equal(lines.items[0], "one");
	assert_string_equal(lines.items[1], "");
	assert_string_equal(lines.items[2], "two");
	assert_string_equal(lines.items[3], "three");
	const char *ended[] = { "sh", "-c", "printf 'a\\n\\nb\\n'", NULL };
	assert_int_equal(capture_lines(ended, NULL, &lines), 0);
	assert_int_equal(lines.n, 7);   /* appended: a, "", b */
	assert_string_equal(lines.items[4], "a");
	assert_string_equal(lines.items[5], "");
	assert_string_equal(lines.items[6], "b");
	strlist_clear(&lines);
	const char *silent[] = { "true", NULL };
	assert_int_equal(capture_lines(silent, NULL, &lines), 0);
	assert_int_equal(lines.n, 0);
	/* in the folder asked for */
	const char *where[] = { "pwd", NULL };
	assert_int_equal(capture_lines(where, "/", &lines), 0);
	assert_int_equal(lines.n, 1);
	assert_string_equal(lines.items[0], "/");
	strlist_clear(&lines);
}

/* Said as capture_command_or_say says it, and no line taken from a failure. */
static void test_capture_lines_or_say(void **state)
{
	(void)state;
	struct strlist lines = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *ok[] = { "sh", "-c", "echo x; echo y", NULL };
	assert_int_equal(capture_lines_or_say(ok, &lines, &err), 0);
	assert_int_equal(lines.n, 2);
	assert_string_equal(lines.items[1], "y");
	assert_null(err.buf);
	const char *loud[] = { "sh", "-c", "echo first; echo second; exit 3", NULL };
	assert_int_equal(capture_lines_or_say(loud, &lines, &err), -1);
	assert_string_equal(err.buf, "sh -c echo first; echo second; exit 3 failed: first");
	assert_int_equal(lines.n, 2);
	strlist_clear(&lines);
	strbuf_release(&err);
}

static void test_files_dir_env(void **state)
{
	(void)state;
	char *dir = tmp_dir();
	char *out = xasprintf("%s/out.txt", dir), *err = xasprintf("%s/err.txt", dir);
	assert_int_equal(write_file_str(out, "before\n"), 0);
	assert_int_equal(write_file_str(err, "old error text\n"), 0);
	const char *env[] = { "OOMLAB_TEST_VALUE=forty-two", NULL };
	const char *argv[] = { "sh", "-c", "pwd; echo $OOMLAB_TEST_VALUE; echo oops >&2", NULL };
	struct child_process cp = { .argv = argv, .dir = dir, .env = env, .out_path = out,
				    .err_path = err };
	assert_int_equal(run_command(&cp), 0);
	char *o = read_file(out, NULL), *e = read_file(err, NULL);
	char *want = xasprintf("before\n%s\nforty-two\n", dir);      /* stdout appended */
	assert_string_equal(o, want);
	assert_string_equal(e, "oops\n");                            /* stderr truncated */
	free(want);
	free(o);
	free(e);
	free(out);
	free(err);
	remove_tree(dir);
	free(dir);
}

/* Gone: no such process, or a zombie left for whoever reaps orphans here. */
static bool process_gone(pid_t pid)
{
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return true;
	char *path = xasprintf("/proc/%d/stat", (int)pid);
	char *stat = read_file(path, NULL);
	free(path);
	const char *close = stat ? strrchr(stat, ')') : NULL;
	bool zombie = close && close[1] == ' ' && close[2] == 'Z';
	free(stat);
	return !stat || zombie;
}

/* A child that outlives its timeout is killed with its whole group: the
 * grandchild it started goes too. */
static void test_timeout_kills_the_group(void **state)
{
	(void)state;
	char *dir = tmp_dir();
	char *pidfile = xasprintf("%s/grandchild", dir);
	char *script = xasprintf("sleep 60 & echo $! > '%s'; wait", pidfile);
	const char *argv[] = { "sh", "-c", script, NULL };
	struct child_process cp = { .argv = argv };
	assert_int_equal(start_command(&cp), 0);
	assert_int_equal(finish_command_timeout(&cp, 0.5), -2);
	char *text = NULL;
	for (int i = 0; i < 50 && !(text = read_file(pidfile, NULL)); i++)
		usleep(20 * 1000);
	assert_non_null(text);
	pid_t grandchild = (pid_t)atoi(text);
	assert_true(grandchild > 0);
	assert_false(process_gone(grandchild));
	kill_command(&cp, SIGKILL);
	assert_int_equal(finish_command(&cp), 128 + SIGKILL);
	int gone = 0;
	for (int i = 0; i < 100 && !gone; i++) {
		gone = process_gone(grandchild);
		if (!gone)
			usleep(20 * 1000);
	}
	assert_true(gone);
	free(text);
	free(script);
	free(pidfile);
	remove_tree(dir);
	free(dir);
}

static int exit_with(void *arg)
{
	return *(int *)arg;
}

static int sleep_then_exit(void *arg)
{
	usleep(300 * 1000);
	return *(int *)arg;
}

/* A worker copy of the process: its status is its function's, and its exit
 * (which runs the reaper's atexit) leaves its siblings alone. */
static void test_function_workers(void **state)
{
	(void)state;
	install_child_reaper();
	int seven = 7, zero = 0;
	struct child_process slow = { 0 }, quick = { 0 };
	assert_int_equal(start_function(&slow, sleep_then_exit, &zero), 0);
	assert_int_equal(start_function(&quick, exit_with, &seven), 0);
	assert_true(slow.pid > 0 && quick.pid > 0 && slow.pid != quick.pid);
	assert_int_equal(finish_command(&quick), 7);
	/* the slow one was not killed by its sibling's exit: 0, not 128 + SIGKILL */
	assert_int_equal(finish_command_timeout(&slow, 0), -2);
	assert_int_equal(finish_command(&slow), 0);
	/* a worker in its own group: killing it is a death by that signal */
	struct child_process victim = { 0 };
	assert_int_equal(start_function(&victim, sleep_then_exit, &zero), 0);
	kill_command(&victim, SIGKILL);
	assert_int_equal(finish_command(&victim), 128 + SIGKILL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_capture_and_stdin),
		cmocka_unit_test(test_capture_or_say),
		cmocka_unit_test(test_capture_lines),
		cmocka_unit_test(test_capture_lines_or_say),
		cmocka_unit_test(test_files_dir_env),
		cmocka_unit_test(test_timeout_kills_the_group),
		cmocka_unit_test(test_function_workers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
