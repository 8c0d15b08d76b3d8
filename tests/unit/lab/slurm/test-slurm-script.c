/* test-slurm-script.c - the batch scripts of a Slurm run (lab/slurm/slurm-script.c),
 * run by /bin/sh with the variables Slurm sets and a stand-in lab that
 * records its arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/slurm/slurm-script.h"

struct fixture {
	char *base;
	struct slurm_script_spec spec;
	struct strlist sbatch;
};

/* A stand-in lab: writes its arguments, one a line, to BASE/args and exits
 * with $FAKE_LAB_EXIT. */
static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	char tmpl[] = "/tmp/oomlab-test-slurm.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	f->base = xstrdup(tmpl);
	char *lab = xasprintf("%s/lab", f->base);
	char *text = xasprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > '%s/args'\nexit ${FAKE_LAB_EXIT:-0}\n",
			       f->base);
	assert_int_equal(write_file_str(lab, text), 0);
	assert_int_equal(chmod(lab, 0755), 0);
	free(text);
	char *slurm_dir = xasprintf("%s/run.slurm", f->base);
	char *status = xasprintf("%s/status", slurm_dir);
	assert_int_equal(mkdir_p(status, 0755), 0);
	free(status);
	f->sbatch = (struct strlist)STRLIST_INIT;
	strlist_push(&f->sbatch, "--partition=debug");
	strlist_push(&f->sbatch, "--time=10");
	f->spec = (struct slurm_script_spec){ .lab = lab, .run_id = "aa-20261202-133000-abcdef",
					      .run_dir = xasprintf("%s/run", f->base),
					      .slurm_dir = slurm_dir, .cache = "/shared/cache",
					      .results = "/shared/results", .sbatch = &f->sbatch,
					      .shards = 3, .jobs = 0 };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	remove_tree(f->base);
	free(f->base);
	free((char *)f->spec.lab);
	free((char *)f->spec.run_dir);
	free((char *)f->spec.slurm_dir);
	strlist_clear(&f->sbatch);
	free(f);
	return 0;
}

/* Runs SCRIPT's text with sh and ENV (NULL-terminated "NAME=value"); its exit status. */
static int run_script(struct fixture *f, enum slurm_script which, const char *const *env)
{
	char *text = slurm_script_text(&f->spec, which);
	char *path = xasprintf("%s/%s", f->base, slurm_script_name(which));
	assert_int_equal(write_file_str(path, text), 0);
	free(text);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		clearenv();
		setenv("PATH", "/usr/bin:/bin", 1);
		for (size_t i = 0; env[i]; i++)
			putenv((char *)env[i]);
		execl("/bin/sh", "sh", path, (char *)NULL);
		_exit(127);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	free(path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *read_back(struct fixture *f, const char *name)
{
	char *path = xasprintf("%s/%s", f->base, name);
	char *text = read_file(path, NULL);
	free(path);
	assert_non_null(text);
	return text;
}

/* Asserts that the stand-in lab's last arguments, one a line, were FMT's text. */
static void assert_args(struct fixture *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void assert_args(struct fixture *f, const char *fmt, ...)
{
	struct strbuf want = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&want, fmt, ap);
	va_end(ap);
	char *args = read_back(f, "args");
	assert_string_equal(args, want.buf);
	free(args);
	strbuf_release(&want);
}

/* Asserts that job ID's script recorded exit status EXIT; the status file's text. */
static char *assert_status(struct fixture *f, const char *id, int exit)
{
	char *name = xasprintf("run.slurm/status/%s", id);
	char *status = read_back(f, name);
	char *line = xasprintf("exit=%d\n", exit);
	assert_non_null(strstr(status, line));
	free(line);
	free(name);
	return status;
}

static void test_script_heads(void **state)
{
	struct fixture *f = *state;
	char *text = slurm_script_text(&f->spec, SLURM_SCRIPT_SHARDS);
	/* the user's options for every job, the array's log named by job and task */
	assert_non_null(strstr(text, "\n#SBATCH --partition=debug\n#SBATCH --time=10\n"));
	char *log = xasprintf("\n#SBATCH --output=%s/logs/shards-%%A_%%a.log\n", f->spec.slurm_dir);
	assert_non_null(strstr(text, log));
	free(log);
	/* #SBATCH lines only before the first command: sbatch reads no further */
	assert_null(strstr(strstr(text, "set -u"), "#SBATCH"));
	free(text);
	log = slurm_script_log(&f->spec, SLURM_SCRIPT_SHARDS, "41_2");
	char *want = xasprintf("%s/logs/shards-41_2.log", f->spec.slurm_dir);
	assert_string_equal(log, want);
	free(log);
	free(want);
	assert_int_equal(slurm_script_path_ok("/a/b-c_d.e"), 0);
	assert_int_equal(slurm_script_path_ok("/a b"), -1);
	assert_int_equal(slurm_script_path_ok("/a%j"), -1);
}

/* Array task 2 resumes shard 2 with one trial a CPU Slurm gave it, and
 * records how it ended under the array's job id and task. */
static void test_shard_task(void **state)
{
	struct fixture *f = *state;
	const char *env[] = { "SLURM_JOB_ID=57", "SLURM_ARRAY_JOB_ID=55", "SLURM_ARRAY_TASK_ID=2",
			      "SLURM_CPUS_PER_TASK=4", "SLURMD_NODENAME=node7", "FAKE_LAB_EXIT=3", NULL };
	assert_int_equal(run_script(f, SLURM_SCRIPT_SHARDS, env), 3);
	assert_args(f, "run\n--resume\n%s/shard-2\n-j\n4\n", f->spec.slurm_dir);
	char *status = assert_status(f, "55_2", 3);
	assert_non_null(strstr(status, "node=node7\n"));
	assert_non_null(strstr(status, "cpu="));
	free(status);
	char *other = xasprintf("%s/status/57", f->spec.slurm_dir);
	assert_false(path_exists(other));
	free(other);
	/* a sequential run's round: only the trials of its first rounds */
	const char *round_env[] = { "SLURM_JOB_ID=62", "SLURM_ARRAY_JOB_ID=62", "SLURM_ARRAY_TASK_ID=1",
				    "OOMLAB_SLURM_ROUNDS=5", NULL };
	assert_int_equal(run_script(f, SLURM_SCRIPT_SHARDS, round_env), 0);
	assert_args(f, "run\n--resume\n%s/shard-1\n-j\n1\n--rounds\n5\n", f->spec.slurm_dir);
}

/* The decision job resumes the run itself, as a look. */
static void test_decide(void **state)
{
	struct fixture *f = *state;
	const char *env[] = { "SLURM_JOB_ID=63", NULL };
	assert_int_equal(run_script(f, SLURM_SCRIPT_DECIDE, env), 0);
	assert_args(f, "run\n--resume\n%s\n--slurm-look\n", f->spec.run_dir);
	free(assert_status(f, "63", 0));
}

/* -j given at submission wins over the task's CPUs; the build job builds for
 * shard 1 and records under its own job id. */
static void test_build_and_fixed_jobs(void **state)
{
	struct fixture *f = *state;
	f->spec.jobs = 2;
	const char *env[] = { "SLURM_JOB_ID=60", "SLURM_ARRAY_JOB_ID=59", "SLURM_ARRAY_TASK_ID=1",
			      "SLURM_CPUS_PER_TASK=8", NULL };
	assert_int_equal(run_script(f, SLURM_SCRIPT_SHARDS, env), 0);
	char *args = read_back(f, "args");
	assert_non_null(strstr(args, "\n-j\n2\n"));
	free(args);
	const char *build_env[] = { "SLURM_JOB_ID=58", NULL };
	assert_int_equal(run_script(f, SLURM_SCRIPT_BUILD, build_env), 0);
	assert_args(f, "run\n--resume\n%s/shard-1\n--build-only\n", f->spec.slurm_dir);
	free(assert_status(f, "58", 0));
}

/* The merge names every shard and stops at the first command that fails. */
static void test_merge(void **state)
{
	struct fixture *f = *state;
	const char *env[] = { "SLURM_JOB_ID=61", "FAKE_LAB_EXIT=1", NULL };
	assert_int_equal(run_script(f, SLURM_SCRIPT_MERGE, env), 1);
	/* compare and report did not run after it */
	assert_args(f, "results\n--merge\n%s/shard-1\n%s/shard-2\n%s/shard-3\n-o\n%s\n",
		    f->spec.slurm_dir, f->spec.slurm_dir, f->spec.slurm_dir, f->spec.run_dir);
	free(assert_status(f, "61", 1));
}

int main(void)
{
	quiet = true;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_script_heads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shard_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_build_and_fixed_jobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decide, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
