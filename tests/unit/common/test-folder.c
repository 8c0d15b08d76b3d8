/* Unit tests: a folder's listing (common/folder.c) is every name but . and ..
 * (and .git when asked), in byte order, and a folder that cannot be read is
 * an error with errno, never an empty listing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/folder.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-folder.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static void assert_names(const struct strlist *l, const char *const *want, size_t n)
{
	assert_int_equal(l->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(l->items[i], want[i]);
}

/* Byte order, not the order the folder keeps nor the locale's: upper case
 * and dot names first; a sub-folder is a name like any other. */
static void names_in_byte_order(void **state)
{
	(void)state;
	const char *files[] = { "b", "a", "C", ".hidden", ".git/HEAD", "sub/x", "a2" };
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		scratch_put(root, files[i], "x\n");
	struct strlist l = STRLIST_INIT;
	assert_int_equal(folder_list(root, 0, &l), 0);
	const char *all[] = { ".git", ".hidden", "C", "a", "a2", "b", "sub" };
	assert_names(&l, all, 7);
	strlist_clear(&l);
	assert_int_equal(folder_list(root, FOLDER_NO_GIT, &l), 0);
	const char *no_git[] = { ".hidden", "C", "a", "a2", "b", "sub" };
	assert_names(&l, no_git, 6);
	strlist_clear(&l);
}

/* Appended: what the list held stays first, as it was. */
static void names_are_appended(void **state)
{
	(void)state;
	char *sub = xasprintf("%s/sub", root);
	struct strlist l = STRLIST_INIT;
	strlist_push(&l, "zz-before");
	assert_int_equal(folder_list(sub, 0, &l), 0);
	const char *want[] = { "zz-before", "x" };
	assert_names(&l, want, 2);
	strlist_clear(&l);
	free(sub);
}

/* Absent, or a file: -1 and errno, the list untouched. */
static void an_unreadable_folder_fails(void **state)
{
	(void)state;
	char *absent = xasprintf("%s/absent", root), *file = xasprintf("%s/a", root);
	struct strlist l = STRLIST_INIT;
	strlist_push(&l, "kept");
	errno = 0;
	assert_int_equal(folder_list(absent, 0, &l), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(folder_list(file, 0, &l), -1);
	assert_int_equal(errno, ENOTDIR);
	assert_int_equal(l.n, 1);
	strlist_clear(&l);
	free(absent);
	free(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_in_byte_order),
		cmocka_unit_test(names_are_appended),
		cmocka_unit_test(an_unreadable_folder_fails),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
