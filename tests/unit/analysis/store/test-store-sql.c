/* test-store-sql.c - the store's one way over a statement's rows
 * (analysis/store/store_sql.c: store_step): every row, then the end, and a
 * failing step named once with the store, what was done and SQLite's why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/store/store.h"
#include "analysis/store/store_sql.h"

static void rows_then_end_then_error(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/oomlab-test-store-sql.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/store.sqlite", dir);
	struct strbuf err = STRBUF_INIT;
	struct store *s;
	assert_int_equal(store_open(path, &s, &err), 0);
	assert_int_equal(store_exec(s, "CREATE TABLE steps (n INTEGER NOT NULL);"
				       "INSERT INTO steps VALUES (1), (2), (3)", &err), 0);

	/* every row once, in order, then 0 */
	sqlite3_stmt *st;
	assert_int_equal(store_prepare(s, "SELECT n FROM steps ORDER BY n", &st, &err), 0);
	int rc, sum = 0, rows = 0;
	while ((rc = store_step(s, st, "reading the steps", &err)) == STORE_ROW) {
		rows++;
		sum = sum * 10 + sqlite3_column_int(st, 0);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(rows, 3);
	assert_int_equal(sum, 123);
	assert_int_equal(err.len, 0);
	sqlite3_finalize(st);

	/* a statement with no row (an INSERT): 0 at once */
	assert_int_equal(store_prepare(s, "INSERT INTO steps VALUES (4)", &st, &err), 0);
	assert_int_equal(store_step(s, st, "adding a step", &err), 0);
	sqlite3_finalize(st);

	/* a step that fails: STORE_EDB, the reason made once, and none without ERR */
	assert_int_equal(store_prepare(s, "INSERT INTO steps VALUES (NULL)", &st, &err), 0);
	assert_int_equal(store_step(s, st, "adding an empty step", &err), STORE_EDB);
	char *want = xasprintf("%s: adding an empty step: NOT NULL constraint failed: steps.n", path);
	assert_string_equal(strbuf_str(&err), want);
	free(want);
	sqlite3_reset(st);
	assert_int_equal(store_step(s, st, "adding an empty step", NULL), STORE_EDB);
	sqlite3_finalize(st);

	store_close(s);
	strbuf_release(&err);
	remove_tree(dir);
	free(path);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_then_end_then_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
