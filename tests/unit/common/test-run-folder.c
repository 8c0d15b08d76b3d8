/* Unit tests: a run folder is made once: a second run, even one started at the same moment, finds it taken. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/run-folder.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-run-folder.XXXXXX";

static void a_folder_holds_one_run(void **state)
{
	(void)state;
	char *dir = xasprintf("%s/results/a", root);
	json_t *first = json_pack("{s:s}", "run_id", "first"), *second = json_pack("{s:s}", "run_id", "second");
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(run_folder_create(dir, first, &err), 0);
	assert_true(run_folder_is_run(dir));
	assert_int_equal(run_folder_create(dir, second, &err), RUN_FOLDER_TAKEN);
	assert_non_null(strstr(err.buf, "holds run first already"));
	json_t *kept = run_folder_load(dir, &err);
	assert_true(json_equal(kept, first));
	json_decref(kept);
	json_decref(first);
	json_decref(second);
	strbuf_release(&err);
	free(dir);
}

/* A folder of other files is no run's: refused, left as it was; an empty one is taken. */
static void a_folder_of_other_files_is_refused(void **state)
{
	(void)state;
	char *dir = xasprintf("%s/foreign", root), *notes = xasprintf("%s/notes.txt", dir);
	scratch_put(root, "foreign/notes.txt", "mine\n");
	json_t *run = json_pack("{s:s}", "run_id", "r");
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(run_folder_create(dir, run, &err), RUN_FOLDER_FOREIGN);
	assert_non_null(strstr(err.buf, "holds other files (notes.txt) and no run"));
	assert_false(run_folder_is_run(dir));
	unlink(notes);
	strbuf_reset(&err);
	assert_int_equal(run_folder_create(dir, run, &err), 0);
	json_decref(run);
	strbuf_release(&err);
	free(notes);
	free(dir);
}

static void at_the_same_moment_one_wins(void **state)
{
	(void)state;
	char *dir = xasprintf("%s/race", root);
	int wins = 0, taken = 0;
	pid_t pids[8];
	for (int i = 0; i < 8; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			char id[16];
			snprintf(id, sizeof(id), "run-%d", i);
			json_t *run = json_pack("{s:s}", "run_id", id);
			struct strbuf err = STRBUF_INIT;
			_exit(run_folder_create(dir, run, &err) == 0 ? 0 : 1);
		}
	}
	for (int i = 0; i < 8; i++) {
		int status;
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		wins += WEXITSTATUS(status) == 0;
		taken += WEXITSTATUS(status) == 1;
	}
	assert_int_equal(wins, 1);
	assert_int_equal(taken, 7);
	struct strbuf err = STRBUF_INIT;
	json_t *run = run_folder_load(dir, &err);
	assert_non_null(run);
	json_decref(run);
	strbuf_release(&err);
	free(dir);
}

SCRATCH_ROOT_FIXTURES(root)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_folder_holds_one_run),
		cmocka_unit_test(at_the_same_moment_one_wins),
		cmocka_unit_test(a_folder_of_other_files_is_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
