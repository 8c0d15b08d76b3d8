/* test-app-launches.c - the apps' cold starts counted from task:task_rename
 * (analysis/trace/app_launches.c) on perf script lines as the guest's perf
 * prints them. The window is [10 s, 60 s]. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis/trace/app_launches.h"
#include "common/util.h"

static const char *const trace_lines[] = {
	/* before the window: not counted */
	"apps 300/300 [000] 9.500000000: task:task_rename: pid=300 oldcomm=apps newcomm=app-00 oom_score_adj=0",
	/* the agent's exec of the workload renames too: not an app */
	"sh 290/290 [001] 10.100000000: task:task_rename: pid=290 oldcomm=sh newcomm=apps oom_score_adj=0",
	"apps 301/301 [000] 10.200000000: task:task_rename: pid=301 oldcomm=apps newcomm=app-01 oom_score_adj=0",
	"apps 302/302 [001] 20.000000000: task:task_rename: pid=302 oldcomm=apps newcomm=app-02 oom_score_adj=0",
	/* another event naming app-: not a rename */
	"app-02 302/302 [001] 21.000000000: sched:sched_process_exit: comm=app-02 pid=302 prio=120",
	/* an app-like name that is not one */
	"apps 303/303 [000] 30.000000000: task:task_rename: pid=303 oldcomm=apps newcomm=apple oom_score_adj=0",
	"apps 304/304 [000] 59.999999999: task:task_rename: pid=304 oldcomm=apps newcomm=app-11 oom_score_adj=0",
	/* after the window */
	"apps 305/305 [000] 60.000000001: task:task_rename: pid=305 oldcomm=apps newcomm=app-12 oom_score_adj=0",
};

static void counts_app_renames_in_the_window(void **state)
{
	struct app_launches l;

	(void)state;
	app_launches_init(&l, 10000000000ULL, 60000000000ULL);
	for (size_t i = 0; i < sizeof(trace_lines) / sizeof(trace_lines[0]); i++) {
		char *line = xstrdup(trace_lines[i]);
		struct perf_sample s;
		uint64_t lost;

		assert_int_equal(perf_script_parse_line(line, &s, &lost), PERF_LINE_SAMPLE);
		app_launches_sample(&l, &s);
		free(line);
	}
	assert_int_equal(l.renames, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_app_renames_in_the_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
