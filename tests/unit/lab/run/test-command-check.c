/* Unit tests: command lines are checked on the host as the guest would run
 * them, workload arguments by the workload binary's check mode. Needs
 * build/guest/oomlab-workload (the Makefile builds it first). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "workloads/workload.h"
#include "lab/run/command-check.h"
#include "lab/run/experiment.h"
#include "lab/machine/guest-files.h"
#include "lab/machine/profile.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-command-check-XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static const char *const program_paths[] = { "/bin/sh", "/bin/true", "/bin/echo", "/bin/kill",
					     "/bin/tee", "/bin/cat", "/bin/grep", "/bin/ls", "/bin/wc",
					     "/bin/mount", "/bin/sleep", "/bin/taskset", "/bin/time",
					     "/usr/bin/stress-ng",
					     "/usr/bin/oomlab-workload", NULL };

/* A guest of 512M, one node, a slow disk or not; the real workload binary checks. */
static void guest(struct guest_view *g, bool slow_disk)
{
	memset(g, 0, sizeof(*g));
	/* every workload of the one list (common/proto/workload-list.h), as the guest links them */
	for (const struct workload *w = workload_table; w->name; w++) {
		strlist_push(&g->workloads, w->name);
		strlist_push_owned(&g->programs, xasprintf("/usr/bin/%s", w->name));
	}
	for (const char *const *p = program_paths; *p; p++)
		strlist_push(&g->programs, *p);
	g->check_binary = xstrdup("build/guest/oomlab-workload");
	g->memory = 512ull << 20;
	g->numa_nodes = 1;
	g->slow_disk = slow_disk;
}

/* "" when LINE passes, else the reason. */
static char *check(const char *line, bool program_first, bool slow_disk, size_t *n_notes)
{
	struct guest_view g;
	struct strlist notes = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	guest(&g, slow_disk);
	int rc = command_check(&g, line, program_first, &notes, &err);
	assert_true(rc == 0 ? err.len == 0 : err.len > 0);
	assert_null(strchr(strbuf_str(&err), '\n'));
	if (n_notes)
		*n_notes = notes.n;
	strlist_clear(&notes);
	guest_view_clear(&g);
	return strbuf_detach(&err);
}

#define assert_passes(line, first)                         \
	do {                                               \
		char *why = check(line, first, true, NULL); \
		assert_string_equal(why, "");              \
		free(why);                                 \
	} while (0)

#define assert_fails(line, first, needle)                                   \
	do {                                                                \
		char *why = check(line, first, true, NULL);                  \
		if (!strstr(why, needle))                                   \
			fail_msg("'%s': wanted '%s' in '%s'", line, needle, why); \
		free(why);                                                  \
	} while (0)

static void workload_arguments_use_the_workload_parser(void **state)
{
	(void)state;
	assert_passes("binder-mmap --opens 50", true);
	assert_passes("spawn -n 5 --method vfork", true);
	assert_fails("binder-mmap --opens x", true, "binder-mmap: --opens wants a whole number");
	assert_fails("spawn --bogus", true, "spawn: unknown option '--bogus'");
	assert_fails("spawn stray", true, "unexpected argument 'stray'");
	/* rules between options, and the guest's shape */
	assert_fails("oom-hog --mode reaper", true, "needs --disk");
	assert_fails("spawn --node 1", true, "no such NUMA node (nodes 0..0)");
	assert_fails("fragment --max-pin 0.001%", true, "must be between 8192");
	/* through oomlab-workload, by path, after other commands */
	assert_passes("oomlab-workload spawn -n 3", true);
	assert_fails("oomlab-workload spawn -n x", true, "spawn: --count");
	assert_fails("oomlab-workload nosuch", true, "unknown workload 'nosuch'");
	assert_passes("oomlab-workload --list", true);
	assert_fails("/usr/bin/spawn -n x", true, "spawn: --count");
	assert_fails("true; spawn -n x | tee /tmp/x", true, "spawn: --count");
	assert_fails("true && 'spawn' \"-n\" x", true, "spawn: --count");
	/* pinned with taskset: the workload behind it is checked */
	assert_passes("taskset 1 binder-sendvec --time-per-size 0.5", true);
	assert_passes("taskset -a 3 spawn -n 5", true);
	assert_fails("taskset 1 binder-sendvec --time-per-size soon", true, "binder-sendvec: --time-per-size");
	assert_fails("taskset 1 nosuch", true, "'nosuch' is neither a workload");
	/* timed with busybox's time applet: the program it runs is checked, on a
	 * workload line and in shell code alike (the runner's rule, workload-line.h) */
	assert_passes("time -v spawn -n 5", true);
	assert_fails("time spawn -n soon", true, "spawn: --count wants a whole number");
	assert_fails("time -f %e -o /tmp/t nosuch", true, "'nosuch' is neither a workload");
	assert_fails("if true; then time nosuch; fi", false, "'nosuch' is neither a workload");
	assert_fails("taskset 1 time nosuch", true, "'nosuch' is neither a workload");
	/* past a runner, oomlab-workload still names its workload */
	assert_fails("taskset 1 oomlab-workload nosuch", true, "unknown workload 'nosuch'");
}

/* A selftest's name becomes a path on the host: it is checked there even when
 * another word of the line is one only the guest can expand (issue 37). */
static void a_selftest_name_is_checked_on_the_host(void **state)
{
	(void)state;
	assert_fails("selftest mm/../../../../tmp/evil/y --foo=$X", true, "a name holding \"..\"");
	assert_fails("selftest mm/../../x", true, "a name holding \"..\"");
	assert_fails("selftest --node 0 /tmp/x $X", true, "selftest /tmp/x");
	assert_fails("selftest $X", true, "a word only the guest can expand");
	assert_fails("selftest 'mm/x;y' $X", true, "a character outside");
	assert_passes("selftest mm/compaction_test", true);
	/* a whole suite; --timeout's value is no test name */
	assert_passes("selftest cgroup", true);
	assert_passes("selftest --timeout 90s cgroup", true);
	assert_fails("selftest --timeout 90s ..", true, "selftest ..");
	/* an option's value only the guest knows is still a value, not the name */
	assert_fails("selftest --node $X mm/../x", true, "a name holding \"..\"");
}

static void programs_and_shell_syntax(void **state)
{
	(void)state;
	assert_fails("nosuch --x", true, "'nosuch' is neither a workload (binder-sendvec, binder-throughput, binder-objects");
	assert_fails("/opt/prog", true, "'/opt/prog' is neither");
	assert_passes("stress-ng --vm 1 --timeout 1", true);
	assert_passes("sh -c 'nosuch; anything goes in here'", true);
	assert_passes("kill -STOP 1", false);
	assert_passes("echo x > /tmp/a 2>&1; cat /tmp/a", true);
	/* shell syntax, builtins and assignments: fine in a script... */
	assert_passes("if true; then spawn -n 2; fi", false);
	assert_passes("for i in 1 2; do spawn -n $i; done", false);
	assert_passes("cd /tmp && exit 3", false);
	assert_passes("command -v perf && exec spawn -n 2", false);
	assert_fails("exec spawn -n x", false, "spawn: --count");
	assert_passes("N=4; spawn -n $N", false);
	assert_fails("N=x; spawn -n $N", false, "spawn: --count");
	assert_passes("case $1 in a|b) nosuch;; esac", false);
	assert_passes("{ spawn -n 2; } > /tmp/log", false);
	assert_fails("if true; then nosuch; fi", false, "'nosuch' is neither");
	/* ...but a workload line is run with exec: it starts with a program */
	assert_fails("if true; then spawn; fi", true, "starts with its program, not 'if'");
	assert_fails("FOO=1 spawn", true, "not an assignment");
	assert_fails("cd /tmp", true, "'cd' is neither");
	assert_fails("sh -c 'x", true, "not closed");
}

/* The commands the integration tests and the README boot pass as they stand. */
static void commands_in_use_pass(void **state)
{
	(void)state;
	static const char *const commands[] = {
		"grep MemTotal /proc/meminfo; ls -d /sys/devices/system/node/node* | wc -l;\n"
		"\t cat /sys/fs/cgroup/workload/memory.max; cat /proc/self/cgroup; grep -c zram0 /proc/swaps;\n"
		"\t cat /proc/sys/vm/min_free_kbytes; ls /dev/binderfs/binder_logs/stats; mount | grep -c erofs",
		"exit 7",
		"echo written-just-before-the-panic; echo c > /proc/sysrq-trigger",
		"echo -1 > /proc/sys/kernel/sched_rt_runtime_us\n"
		"\t for c in /sys/kernel/debug/sched/fair_server/cpu*; do echo 0 > $c/runtime; done\n"
		"\t stress-ng --cpu 2 --sched fifo --sched-prio 50 --timeout 300 --temp-path /tmp",
		"sleep 120",
		"oom-hog --mode memcg --hogs 1 --kills 1 > /dev/null; echo c > /proc/sysrq-trigger",
		"oom-hog --mode reaper --scope memcg --disk $OOMLAB_SLOW_DISK",
		"binder-sendvec --time-per-size 0.2",
		"binder-throughput -w 4 -i 300",
		"binder-objects",
		"binder-mmap --opens 300",
		"grep MemTotal /proc/meminfo; cat /sys/fs/cgroup/workload/memory.max",
		NULL,
	};
	for (const char *const *c = commands; *c; c++) {
		char *why = check(*c, false, true, NULL);
		if (*why)
			fail_msg("'%s': %s", *c, why);
		free(why);
	}
}

static void variables_of_the_guest(void **state)
{
	(void)state;
	size_t notes = 0;
	assert_passes("oom-hog --mode reaper --disk $OOMLAB_SLOW_DISK", true);
	assert_passes("spawn --cmd $OOMLAB_SCRATCH/x", true);
	assert_fails("spawn --time $OOMLAB_TIME", true, "the guest has no $OOMLAB_TIME");
	char *why = check("oom-hog --mode reaper --disk $OOMLAB_SLOW_DISK", true, false, NULL);
	assert_non_null(strstr(why, "$OOMLAB_SLOW_DISK is set only under a profile with a slow disk"));
	free(why);
	/* only the guest knows: a note, not an error */
	why = check("spawn -n $(nproc)", true, true, &notes);
	assert_string_equal(why, "");
	assert_int_equal(notes, 1);
	free(why);
	why = check("spawn -n 3", true, true, &notes);
	assert_int_equal(notes, 0);
	free(why);
}

static void experiment_lines_are_named(void **state)
{
	(void)state;
	struct experiment e;
	struct guest_view g;
	struct strbuf err = STRBUF_INIT;
	guest(&g, false);
	assert_int_equal(experiment_parse(&e, "t", "t.conf",
					  "description = t\nvariants = stock\nprofile = p\n"
					  "prepare = fragment --target-order 3\n"
					  "# a comment\n"
					  "workload = spawn -n 5\n"
					  "workload = binder-mmap --opens x\n", &err), 0);
	assert_int_equal(experiment_check_commands(&e, &g, &err), -1);
	assert_string_equal(err.buf, "t.conf:7: workload = binder-mmap --opens x: binder-mmap: --opens "
				     "wants a whole number from 1 to 1000000, not 'x'");
	experiment_clear(&e);
	strbuf_reset(&err);
	assert_int_equal(experiment_parse(&e, "t", "t.conf",
					  "description = t\nvariants = stock\nprofile = p\n"
					  "workload = spawn\n"
					  "prepare = fragment --bogus\n", &err), 0);
	assert_int_equal(experiment_check_commands(&e, &g, &err), -1);
	assert_string_equal(err.buf, "t.conf:5: prepare = fragment --bogus: fragment: unknown option "
				     "'--bogus'");
	experiment_clear(&e);
	strbuf_release(&err);
	guest_view_clear(&g);
}

/* Every experiment of the checkout and of the tests passes under its profile. */
static void shipped_experiments_pass(void **state)
{
	(void)state;
	static const char *const files[] = { "configs/experiments", "tests/experiments", NULL };
	setenv("OOMLAB_ROOT", ".", 1);
	for (const char *const *dir = files; *dir; dir++) {
		char *cmd = xasprintf("ls %s/*.conf", *dir);
		FILE *ls = popen(cmd, "r");
		char path[512];
		int n = 0;
		while (ls && fgets(path, sizeof(path), ls)) {
			path[strcspn(path, "\n")] = '\0';
			struct experiment e;
			struct profile p;
			struct guest_view g;
			struct strbuf err = STRBUF_INIT;
			if (experiment_load(&e, path, &err) < 0 || profile_load(&p, e.profile, &err) < 0)
				fail_msg("%s", err.buf);
			guest(&g, p.slow_disk_size > 0);
			g.memory = p.memory;
			g.numa_nodes = p.numa_nodes;
			if (experiment_check_commands(&e, &g, &err) < 0)
				fail_msg("%s", err.buf);
			experiment_clear(&e);
			profile_clear(&p);
			guest_view_clear(&g);
			n++;
		}
		assert_true(n > 0);
		pclose(ls);
		free(cmd);
	}
}

static void put_program(const char *rel, const char *text)
{
	scratch_put(root, rel, text);
	char *path = xasprintf("%s/%s", root, rel);
	assert_int_equal(chmod(path, 0755), 0);
	free(path);
}

/* LINE against a guest with the folder "repro" of the scratch folder; "" or why. */
static char *check_with_files(const char *line, bool program_first)
{
	struct guest_view g;
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	struct strbuf err = STRBUF_INIT;
	char *dir = xasprintf("%s/repro", root);
	guest(&g, false);
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	assert_int_equal(guest_view_add_files(&g, &f, NULL, &err), 0);
	command_check(&g, line, program_first, NULL, &err);
	assert_null(strchr(strbuf_str(&err), '\n'));
	guest_files_clear(&f);
	guest_view_clear(&g);
	free(dir);
	return strbuf_detach(&err);
}

/* The files' executables are programs of the guest: at the top level and in
 * bin/ by name (PATH), anywhere by their path; nothing else is. */
static void the_files_are_programs(void **state)
{
	(void)state;
	put_program("repro/reproducer", "#!/bin/sh\necho go\n");
	put_program("repro/bin/helper", "#!/bin/sh\n");
	put_program("repro/sub/deep", "#!/bin/sh\n");
	scratch_put(root, "repro/input.txt", "data\n");
	static const char *const pass[] = {
		"reproducer --size 10", "helper; reproducer", "/oomlab/files/sub/deep -x",
		"/oomlab/files/bin/helper", "taskset 1 reproducer", "spawn -n 2", NULL,
	};
	for (const char *const *line = pass; *line; line++) {
		char *why = check_with_files(*line, true);
		if (*why)
			fail_msg("'%s': %s", *line, why);
		free(why);
	}
	static const char *const fail[] = { "deep", "input.txt", "/oomlab/files/input.txt",
					    "/oomlab/files/nosuch", "nosuch", NULL };
	for (const char *const *line = fail; *line; line++) {
		char *why = check_with_files(*line, true);
		char *want = xasprintf("'%s' is neither a workload", *line);
		if (!strstr(why, want) || !strstr(why, "the files' executables: their top level and "
					  "bin/ are on PATH"))
			fail_msg("'%s': %s", *line, why);
		free(want);
		free(why);
	}
	/* without files, the message says how a program of one's own comes in */
	assert_fails("reproducer", true, "a program of your own comes with files = DIR or lab boot "
		     "--files DIR");
}

/* A workload line naming neither a workload, an applet nor one of the files
 * is one line naming file and line. */
static void an_unknown_program_names_its_line(void **state)
{
	(void)state;
	put_program("repro/reproducer", "#!/bin/sh\n");
	struct experiment e;
	struct guest_view g;
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	struct strbuf err = STRBUF_INIT;
	char *dir = xasprintf("%s/repro", root);
	guest(&g, false);
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	assert_int_equal(guest_view_add_files(&g, &f, NULL, &err), 0);
	assert_int_equal(experiment_parse(&e, "t", "t.conf",
					  "description = t\nvariants = stock\nprofile = p\n"
					  "workload = reproducer --size 10\n"
					  "workload = reproduce --size 10\n", &err), 0);
	assert_int_equal(experiment_check_commands(&e, &g, &err), -1);
	assert_true(starts_with(err.buf, "t.conf:5: workload = reproduce --size 10: 'reproduce' is "
				"neither a workload ("));
	assert_null(strchr(err.buf, '\n'));
	experiment_clear(&e);
	guest_files_clear(&f);
	guest_view_clear(&g);
	free(dir);
	strbuf_release(&err);
}

/* A script's interpreter must be in the guest: busybox's sh is, bash is not. */
static void a_script_needs_its_interpreter(void **state)
{
	(void)state;
	put_program("ok/run.sh", "#!/bin/sh\n");
	put_program("own/interp", "#!/bin/sh\n");
	put_program("own/run", "#!/oomlab/files/interp\n");
	put_program("bash/run.bash", "#!/bin/bash\necho $BASH_VERSION\n");
	scratch_put(root, "bash/not-a-program", "#!/bin/bash\n");
	struct guest_view g;
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	struct strbuf err = STRBUF_INIT;
	char *ok = xasprintf("%s/ok", root), *own = xasprintf("%s/own", root);
	char *bash = xasprintf("%s/bash", root);
	guest(&g, false);
	assert_int_equal(guest_files_add(&f, ok, &err), 0);
	assert_int_equal(guest_files_add(&f, own, &err), 0);
	assert_int_equal(guest_files_add(&f, bash, &err), 0);
	size_t folder = 99;
	assert_int_equal(guest_view_add_files(&g, &f, &folder, &err), -1);
	char *want = xasprintf("%s/run.bash: its interpreter /bin/bash is not in the guest", bash);
	if (!strstr(err.buf, want))
		fail_msg("wanted '%s' in '%s'", want, err.buf);
	assert_int_equal(folder, 2);
	free(want);
	guest_files_clear(&f);
	guest_view_clear(&g);
	/* the first two alone pass */
	f = GUEST_FILES_INIT(ARCH_X86_64);
	guest(&g, false);
	assert_int_equal(guest_files_add(&f, ok, &err), 0);
	assert_int_equal(guest_files_add(&f, own, &err), 0);
	strbuf_reset(&err);
	assert_int_equal(guest_view_add_files(&g, &f, &folder, &err), 0);
	assert_string_equal(strbuf_str(&err), "");
	guest_files_clear(&f);
	guest_view_clear(&g);
	free(ok);
	free(own);
	free(bash);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(workload_arguments_use_the_workload_parser),
		cmocka_unit_test(programs_and_shell_syntax),
		cmocka_unit_test(commands_in_use_pass),
		cmocka_unit_test(variables_of_the_guest),
		cmocka_unit_test(experiment_lines_are_named),
		cmocka_unit_test(shipped_experiments_pass),
		cmocka_unit_test(the_files_are_programs),
		cmocka_unit_test(an_unknown_program_names_its_line),
		cmocka_unit_test(a_script_needs_its_interpreter),
		cmocka_unit_test(a_selftest_name_is_checked_on_the_host),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
