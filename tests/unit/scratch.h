/* scratch.h - files written into a test's temporary folder, its folders
 * made on the way. Included by one test file each (a static function). */
#ifndef TESTS_SCRATCH_H
#define TESTS_SCRATCH_H

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Writes TEXT to ROOT/REL; a failed test when it cannot. */
static inline void scratch_put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file_str(path, text), 0);
	free(dir);
	free(path);
}

/* A test file's cmocka group fixtures for its scratch folder ROOT, a
 * mkdtemp template (char ROOT[]): made before the group, removed after. */
#define SCRATCH_ROOT_FIXTURES(root)                          \
	static int setup(void **state)                       \
	{                                                    \
		(void)state;                                 \
		return mkdtemp(root) ? 0 : -1;               \
	}                                                    \
	static int teardown(void **state)                    \
	{                                                    \
		(void)state;                                 \
		return remove_tree(root);                    \
	}

#endif
