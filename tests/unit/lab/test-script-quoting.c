/* test-script-quoting.c - the scripts the lab writes (the Slurm batch
 * scripts, lab/slurm/slurm-script.c; reproduce.sh, lab/trial/reproduce-script.c) for
 * names and paths that hold a blank, a quote, $(), a backtick, a newline and
 * ';': sh -n reads them, and run with stand-in programs (a lab and a QEMU
 * that record their arguments) they execute nothing of those values
 * (issue 37). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/slurm/slurm-script.h"
#include "lab/trial/reproduce-script.h"

/* Every kind of trouble at once; each one that ran would make a PWNED file
 * in the folder the scripts run in. */
#define HOSTILE "a b'c$(touch PWNED)`touch PWNED`;touch PWNED\ntouch PWNED;'\"x"

static char base[] = "/tmp/oomlab-test-quoting.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(base);
}

static char *at(const char *rel)
{
	return xasprintf("%s/%s", base, rel);
}

static void put(const char *path, const char *text, unsigned mode)
{
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	free(dir);
	assert_int_equal(write_file_str(path, text), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* Runs sh ARGS... in BASE/cwd with PATH=BASE/bin:/usr/bin:/bin and ENV; its status. */
static int run_sh(const char *const *args, const char *const *env)
{
	char *cwd = at("cwd"), *bin = at("bin");
	assert_int_equal(mkdir_p(cwd, 0755), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (chdir(cwd) < 0)
			_exit(126);
		clearenv();
		char *path = xasprintf("PATH=%s:/usr/bin:/bin", bin);
		putenv(path);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		const char *argv[8] = { "sh" };
		for (size_t i = 0; args[i] && i < 6; i++)
			argv[i + 1] = args[i];
		execv("/bin/sh", (char *const *)argv);
		_exit(127);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	free(cwd);
	free(bin);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* No PWNED file anywhere under BASE. */
static void assert_nothing_ran(void)
{
	char *cmd = xasprintf("test -z \"$(find '%s' -name PWNED)\"", base);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static char *read_at(const char *rel)
{
	char *path = at(rel);
	char *text = read_file(path, NULL);
	assert_non_null(text);
	free(path);
	return text;
}

static void slurm_scripts(void **state)
{
	(void)state;
	char *hostile = at(HOSTILE);
	char *lab = xasprintf("%s/lab", hostile);
	char *args_file = at("args");
	char *fake = xasprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > '%s'\n", args_file);
	put(lab, fake, 0755);
	free(fake);
	char *run_dir = xasprintf("%s/run", hostile), *slurm_dir = xasprintf("%s/run.slurm", hostile);
	char *status_dir = xasprintf("%s/status", slurm_dir);
	assert_int_equal(mkdir_p(status_dir, 0755), 0);
	assert_int_equal(mkdir_p(run_dir, 0755), 0);
	struct strlist sbatch = STRLIST_INIT;
	strlist_push(&sbatch, "--comment=x\ntouch PWNED");
	struct slurm_script_spec spec = {
		.lab = lab, .run_id = "r\ntouch PWNED\n$(touch PWNED)", .run_dir = run_dir,
		.slurm_dir = slurm_dir, .cache = "/c'$(touch PWNED)", .results = "/r`touch PWNED`;touch PWNED",
		.sbatch = &sbatch, .shards = 2, .jobs = 0 };
	const char *env[] = { "SLURM_JOB_ID=7", "SLURM_ARRAY_JOB_ID=7", "SLURM_ARRAY_TASK_ID=1", NULL };
	for (int which = SLURM_SCRIPT_BUILD; which <= SLURM_SCRIPT_MERGE; which++) {
		char *text = slurm_script_text(&spec, which);
		char *path = xasprintf("%s/%s", base, slurm_script_name(which));
		put(path, text, 0644);
		const char *check[] = { "-n", path, NULL };
		assert_int_equal(run_sh(check, NULL), 0);
		const char *run[] = { path, NULL };
		assert_int_equal(run_sh(run, env), 0);
		assert_nothing_ran();
		free(path);
		free(text);
	}
	/* the values reached the stand-in lab whole: the decision job's run folder */
	char *text = slurm_script_text(&spec, SLURM_SCRIPT_DECIDE);
	char *path = at("decide.sh");
	put(path, text, 0644);
	const char *run[] = { path, NULL };
	assert_int_equal(run_sh(run, env), 0);
	char *args = read_at("args");
	char *want = xasprintf("run\n--resume\n%s\n--slurm-look\n", run_dir);
	assert_string_equal(args, want);
	free(want);
	free(args);
	free(path);
	free(text);
	strlist_clear(&sbatch);
	free(status_dir);
	free(slurm_dir);
	free(run_dir);
	free(args_file);
	free(lab);
	free(hostile);
}

static void reproduce_script(void **state)
{
	(void)state;
	char *hostile = at(HOSTILE);
	char *trial = xasprintf("%s/trial", hostile);
	char *script = xasprintf("%s/reproduce.sh", trial), *job = xasprintf("%s/job.cpio", trial);
	char *image = xasprintf("%s/initramfs'$(touch PWNED).cpio", hostile);
	put(job, "JOB\n", 0644);
	put(image, "IMAGE\n", 0644);
	char *qargs = at("qemu-args");
	char *fake = xasprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > '%s'\n", qargs);
	char *qemu = at("bin/qemu-system-x86_64");
	put(qemu, fake, 0755);
	free(fake);
	char *kernel = xasprintf("%s/bzImage", hostile);
	const char *argv[] = { "qemu-system-x86_64", "-kernel", kernel, "-append",
			       "console=ttyS0 x=$(touch PWNED) `touch PWNED`; touch PWNED", "-name", HOSTILE };
	size_t n = sizeof(argv) / sizeof(*argv);
	char *text = reproduce_script_text(argv, n, image, 4096, 64ULL << 20);
	put(script, text, 0755);
	free(text);
	const char *check[] = { "-n", script, NULL };
	assert_int_equal(run_sh(check, NULL), 0);
	char *out = at("out");
	const char *run[] = { script, out, NULL };
	assert_int_equal(run_sh(run, NULL), 0);
	assert_nothing_ran();
	/* QEMU got its words as they were, and the image was read from its path */
	struct strbuf want = STRBUF_INIT;
	for (size_t i = 1; i < n; i++)
		strbuf_addf(&want, "%s\n", argv[i]);
	char *got = read_at("qemu-args");
	assert_string_equal(got, want.buf);
	free(got);
	char *initrd = read_at("out/initrd.img");
	assert_string_equal(initrd, "JOB\nIMAGE\n");
	free(initrd);
	/* the scratch disk made again, an ext4 file system (its superblock's magic) */
	char *disk = at("out/scratch-disk.img");
	FILE *f = fopen(disk, "rb");
	unsigned char magic[2] = { 0, 0 };
	assert_non_null(f);
	assert_int_equal(fseek(f, 1024 + 56, SEEK_SET), 0);
	assert_int_equal(fread(magic, 1, 2, f), 2);
	fclose(f);
	assert_int_equal(magic[0] | magic[1] << 8, 0xEF53);
	free(disk);
	strbuf_release(&want);
	free(out);
	free(kernel);
	free(qemu);
	free(qargs);
	free(image);
	free(job);
	free(script);
	free(trial);
	free(hostile);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slurm_scripts),
		cmocka_unit_test(reproduce_script),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
