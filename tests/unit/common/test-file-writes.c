/* test-file-writes.c - the lab's writes stay its own (issue 37): the atomic
 * writer's temporary file has a name no one can guess and is never a link
 * someone put there; a tree mirror (lab/kernel/tree-mirror.c) copies a setuid or
 * setgid file without those bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "lab/kernel/tree-mirror.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-file-writes.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

/* A link where the old writer put its temporary file (PATH.tmp.<pid>) and
 * another process's file of that name on a shared cache: neither is
 * written. */
static void the_temporary_file_is_new(void **state)
{
	(void)state;
	char *victim = xasprintf("%s/victim", root), *path = xasprintf("%s/out.json", root);
	assert_int_equal(write_file_str(victim, "untouched\n"), 0);
	char *guess = xasprintf("%s.tmp.%d", path, (int)getpid());
	assert_int_equal(symlink(victim, guess), 0);
	assert_int_equal(write_file_str(path, "new\n"), 0);
	char *kept = read_file(victim, NULL), *wrote = read_file(path, NULL);
	assert_string_equal(kept, "untouched\n");
	assert_string_equal(wrote, "new\n");
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	/* nothing left beside it but the planted link */
	DIR *d = opendir(root);
	struct dirent *de;
	size_t n = 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 3);
	assert_int_equal(unlink(guess), 0);
	free(kept);
	free(wrote);
	free(guess);
	free(path);
	free(victim);
}

/* Sixteen writers of one file at once (as processes on nodes that share a
 * cache): each write lands whole, none fails. */
/* Names beside a path for what mkstemp cannot make: the host and the pid in
 * them (nodes sharing a cache), and never the same twice in one process. */
static void temp_names_are_unique(void **state)
{
	(void)state;
	char host[64] = "", pid[32];
	gethostname(host, sizeof(host) - 1);
	snprintf(pid, sizeof(pid), ".%ld.", (long)getpid());
	char *a = temp_name_beside("/cache/guest/x.erofs"), *b = temp_name_beside("/cache/guest/x.erofs");
	assert_true(starts_with(a, "/cache/guest/x.erofs.tmp."));
	assert_non_null(strstr(a, host));
	assert_non_null(strstr(a, pid));
	assert_string_not_equal(a, b);
	free(a);
	free(b);
}

static void writers_at_once(void **state)
{
	(void)state;
	char *path = xasprintf("%s/shared", root);
	pid_t pids[16];
	for (int i = 0; i < 16; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			char text[64];
			snprintf(text, sizeof(text), "writer %02d\n", i);
			for (int k = 0; k < 50; k++)
				if (write_file_str(path, text) < 0)
					_exit(1);
			_exit(0);
		}
	}
	for (int i = 0; i < 16; i++) {
		int status;
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	char *text = read_file(path, NULL);
	assert_int_equal(strlen(text), 10);
	assert_int_equal(strncmp(text, "writer ", 7), 0);
	free(text);
	assert_int_equal(unlink(path), 0);
	free(path);
}

static void a_mirror_drops_setuid(void **state)
{
	(void)state;
	char *src = xasprintf("%s/tree", root), *dest = xasprintf("%s/mirror", root);
	scratch_put(root, "tree/tools/suid", "#!/bin/sh\n");
	scratch_put(root, "tree/tools/plain", "#!/bin/sh\n");
	char *suid = xasprintf("%s/tools/suid", src), *plain = xasprintf("%s/tools/plain", src);
	assert_int_equal(chmod(suid, 06755), 0);
	assert_int_equal(chmod(plain, 0755), 0);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_mirror(src, dest, &err), 0);
	char *copy = xasprintf("%s/tools/suid", dest), *plain_copy = xasprintf("%s/tools/plain", dest);
	struct stat st;
	assert_int_equal(stat(copy, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* the tree's own file keeps its mode: the mirror copied, not linked */
	assert_int_equal(stat(suid, &st), 0);
	assert_int_equal(st.st_mode & 07777, 06755);
	assert_int_equal(stat(plain_copy, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	strbuf_release(&err);
	free(plain_copy);
	free(copy);
	free(plain);
	free(suid);
	free(dest);
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_temporary_file_is_new),
		cmocka_unit_test(writers_at_once),
		cmocka_unit_test(temp_names_are_unique),
		cmocka_unit_test(a_mirror_drops_setuid),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
