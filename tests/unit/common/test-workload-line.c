/* test-workload-line.c - the workload a line stands for
 * (common/proto/workload-line.c): the name its metrics get, as the guest's
 * line runner and the host's checks both read it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/proto/workload-line.h"

#define NAME(...) workload_line_name((const char *const[]){ __VA_ARGS__, NULL })

static void names(void **state)
{
	(void)state;
	assert_string_equal(NAME("spawn", "-n", "1"), "spawn");
	/* a path names its last component: a metric name has no '/' */
	assert_string_equal(NAME("/usr/bin/oom-hog", "--mode", "reaper"), "oom-hog");
	assert_string_equal(NAME("./repro"), "repro");
	/* pinned: the program taskset runs, past its options and the mask */
	assert_string_equal(NAME("taskset", "zz", "spawn", "-n", "1"), "spawn");
	assert_string_equal(NAME("taskset", "1", "binder-sendvec"), "binder-sendvec");
	assert_string_equal(NAME("taskset", "-a", "-c", "0,1", "repro", "x"), "repro");
	assert_string_equal(NAME("taskset", "-c", "0", "taskset", "1", "spawn"), "spawn");
	/* taskset -p pins a running process; a mask and nothing to run is taskset's own line */
	assert_string_equal(NAME("taskset", "-p", "1", "42"), "taskset");
	assert_string_equal(NAME("taskset", "1"), "taskset");
	/* timed: the program busybox's time runs, past its options (-f and -o take a value) */
	assert_string_equal(NAME("time", "spawn", "-n", "1"), "spawn");
	assert_string_equal(NAME("time", "-v", "-f", "%e", "-o", "/tmp/t", "repro"), "repro");
	assert_string_equal(NAME("taskset", "1", "time", "-p", "spawn"), "spawn");
	assert_string_equal(NAME("/usr/bin/time", "oomlab-workload", "spawn"), "spawn");
	/* oomlab-workload is no runner: its NAME is a workload of its own */
	const char *const via[] = { "taskset", "1", "oomlab-workload", "spawn", NULL };
	assert_ptr_equal(workload_line_past_runners(via), via + 2);
	assert_ptr_equal(workload_line_program(via), via + 3);
	/* nothing to time is time's own line */
	assert_string_equal(NAME("time", "-v"), "time");
	assert_string_equal(NAME("oomlab-workload", "binder-mmap", "--opens", "3"), "binder-mmap");
	assert_string_equal(NAME("oomlab-workload", "--list"), "oomlab-workload");
	assert_string_equal(workload_line_name((const char *const[]){ NULL }), "");
}

/* Where the program's words start: its own arguments follow. */
static void program_words(void **state)
{
	(void)state;
	const char *const pinned[] = { "taskset", "-c", "0", "selftest", "mm/x", "-v", NULL };
	assert_ptr_equal(workload_line_program(pinned), pinned + 3);
	const char *const named[] = { "oomlab-workload", "selftest", "mm/x", NULL };
	assert_ptr_equal(workload_line_program(named), named + 1);
	const char *const plain[] = { "/oomlab/files/repro", "8", NULL };
	assert_ptr_equal(workload_line_program(plain), plain);
	const char *const none[] = { NULL };
	assert_ptr_equal(workload_line_program(none), none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(program_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
