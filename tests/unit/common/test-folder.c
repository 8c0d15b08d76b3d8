/* Unit tests: a folder's listing (common/folder.c) is every name but . and ..
 * (and .git when asked), in byte order, and a folder that cannot be read is
 * an error with errno, never an empty listing; a walk goes depth first in
 * that order, into what its visitor asks, and stops when it says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What a walk saw, a line an entry: "depth rel kind" (kind d, f, l, or the
 * error); into the folders whose name does not start with "skip". */
static int record(const struct folder_entry *e, void *ctx)
{
	struct strbuf *seen = ctx;
	const char *kind = e->listing ? "unlisted" : e->error ? "unseen"
			 : S_ISDIR(e->st.st_mode) ? "d" : S_ISLNK(e->st.st_mode) ? "l" : "f";
	strbuf_addf(seen, "%d %s %s\n", e->depth, e->rel, kind);
	if (strstr(e->rel, "stop"))
		return -7;
	const char *name = strrchr(e->rel, '/') ? strrchr(e->rel, '/') + 1 : e->rel;
	return !e->error && S_ISDIR(e->st.st_mode) && strncmp(name, "skip", 4) ? FOLDER_WALK_INTO : 0;
}

/* Depth first, each folder's names in byte order, a folder before what it
 * holds and only when the visitor says so; a link is a link. */
static void a_walk_visits_in_order(void **state)
{
	(void)state;
	const char *files[] = { "walk/b/z", "walk/b/a/deep", "walk/a", "walk/skipped/x", "walk/.git/HEAD" };
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		scratch_put(root, files[i], "x\n");
	char *dir = xasprintf("%s/walk", root), *link = xasprintf("%s/walk/l", root);
	assert_int_equal(symlink("b", link), 0);
	struct strbuf seen = STRBUF_INIT;
	assert_int_equal(folder_walk(dir, FOLDER_NO_GIT, record, &seen), 0);
	assert_string_equal(seen.buf, "0 a f\n"
				      "0 b d\n"
				      "1 b/a d\n"
				      "2 b/a/deep f\n"
				      "1 b/z f\n"
				      "0 l l\n"
				      "0 skipped d\n");
	free(link);
	free(dir);
	strbuf_release(&seen);
}

/* A folder that cannot be listed goes to the visitor, ROOT too; a negative
 * answer stops the walk and is what it returns. */
static void a_walk_reports_and_stops(void **state)
{
	(void)state;
	char *absent = xasprintf("%s/absent", root);
	struct strbuf seen = STRBUF_INIT;
	assert_int_equal(folder_walk(absent, 0, record, &seen), 0);
	assert_string_equal(seen.buf, "-1  unlisted\n");
	scratch_put(root, "stops/a/stop/x", "x");
	scratch_put(root, "stops/b", "b");
	char *dir = xasprintf("%s/stops", root);
	strbuf_reset(&seen);
	assert_int_equal(folder_walk(dir, 0, record, &seen), -7);
	assert_string_equal(seen.buf, "0 a d\n1 a/stop d\n");
	free(dir);
	free(absent);
	strbuf_release(&seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_in_byte_order),
		cmocka_unit_test(names_are_appended),
		cmocka_unit_test(an_unreadable_folder_fails),
		cmocka_unit_test(a_walk_visits_in_order),
		cmocka_unit_test(a_walk_reports_and_stops),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
