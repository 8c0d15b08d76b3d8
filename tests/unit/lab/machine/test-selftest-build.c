/* Which selftests an experiment's lines name, and the key their builds are cached by (lab/machine/selftest-build.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lab/machine/selftest-build.h"
#include "lab/run/command-check.h"
#include "tests/unit/scratch.h"

static char scratch[] = "/tmp/oomlab-selftest-build.XXXXXX";
SCRATCH_ROOT_FIXTURES(scratch)

/* Every way a line runs selftest names its test once, at the line's place; other programs do not. */
static void test_named(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"selftest mm/compaction_test",
		"taskset 1 selftest --node 0 cgroup/test_memcontrol -x",
		"spawn -n 1; selftest mm/compaction_test",
		"oomlab-workload selftest filesystems/binderfs/binderfs_test",
		"echo selftest mm/not_this; oom-hog --mode memcg",
		"selftest 'unterminated",
		"selftest --timeout 90s cgroup",
	};
	struct command_lines lines = { .file = "e.conf" };
	for (int i = 0; i < 7; i++)
		command_lines_add(&lines, NULL, "workload", texts[i], 4 + i, true);
	/* the selftests' build reads the one split, not the text again */
	lines.items[0].text = "spawn";
	struct selftest_list list;
	selftests_named(&lines, &list);
	assert_int_equal(list.n, 4);
	assert_string_equal(list.items[0].test, "mm/compaction_test");
	assert_int_equal(list.items[0].line, 4);
	assert_string_equal(list.items[0].file, "e.conf");
	assert_string_equal(list.items[1].test, "cgroup/test_memcontrol");
	assert_int_equal(list.items[1].line, 5);
	assert_string_equal(list.items[2].test, "filesystems/binderfs/binderfs_test");
	assert_int_equal(list.items[2].line, 7);
	/* a whole suite, past --timeout's value */
	assert_string_equal(list.items[3].test, "cgroup");
	assert_int_equal(list.items[3].line, 10);
	selftest_list_clear(&list);
	command_lines_clear(&lines);
}

/* A suite's further words are the categories it asks of its runner, each
 * once, those of two lines naming the suite together; a test's are its
 * arguments, not categories. */
static void test_categories(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"selftest --timeout 120s mm mlock mmap",
		"selftest mm mmap mdwe; selftest mm/mlock2-tests mlock",
		"selftest cgroup",
	};
	struct command_lines lines = { .file = "e.conf" };
	for (int i = 0; i < 3; i++)
		command_lines_add(&lines, NULL, "workload", texts[i], 1 + i, true);
	struct selftest_list list;
	selftests_named(&lines, &list);
	assert_int_equal(list.n, 3);
	assert_string_equal(list.items[0].test, "mm");
	assert_int_equal(list.items[0].line, 1);
	assert_int_equal(list.items[0].categories.n, 3);
	assert_string_equal(list.items[0].categories.items[0], "mlock");
	assert_string_equal(list.items[0].categories.items[1], "mmap");
	assert_string_equal(list.items[0].categories.items[2], "mdwe");
	assert_string_equal(list.items[1].test, "mm/mlock2-tests");
	assert_int_equal(list.items[1].categories.n, 0);
	assert_string_equal(list.items[2].test, "cgroup");
	assert_int_equal(list.items[2].categories.n, 0);
	selftest_list_clear(&list);
	command_lines_clear(&lines);
}

static void set_variant(struct variant *v, const char *name, const char *cmdline)
{
	memset(v, 0, sizeof(*v));
	v->name = (char *)name;
	v->cmdline = (char *)cmdline;
	v->source.id = (char *)"linux-source-6.12 6.12.117-1~deb12u1";
	v->target.platform.arch = ARCH_X86_64;
}

/* The key is the tree's: a patch's bytes change it, a command line does not; so does the architecture. */
static void test_key(void **state)
{
	(void)state;
	setenv("XDG_CACHE_HOME", scratch, 1);
	char *patch = xasprintf("%s/0001-x.patch", scratch);
	write_file_str(patch, "--- a/mm/x.c\n+++ b/mm/x.c\n");
	struct variant a, b;
	set_variant(&a, "stock", "");
	set_variant(&b, "other", "panic_on_oom=1");
	char *stock = selftest_dir(&a), *other = selftest_dir(&b);
	assert_string_equal(stock, other);
	assert_non_null(strstr(stock, "/selftests/"));
	strlist_push(&b.patches, patch);
	char *patched = selftest_dir(&b);
	assert_string_not_equal(stock, patched);
	write_file_str(patch, "--- a/mm/x.c\n+++ b/mm/x.c\n@@ changed\n");
	char *changed = selftest_dir(&b);
	assert_string_not_equal(patched, changed);
	a.target.platform.arch = ARCH_ARM64;
	char *arm = selftest_dir(&a);
	assert_string_not_equal(stock, arm);
	strlist_clear(&b.patches);
	free(stock);
	free(other);
	free(patched);
	free(changed);
	free(arm);
	free(patch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_key),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
