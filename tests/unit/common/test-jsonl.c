/* test-jsonl.c - the one JSON-lines rule (common/jsonl.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/util.h"

static void collect_names(json_t *record, void *ctx)
{
	struct strlist *names = ctx;
	const char *name = json_string_value(json_object_get(record, "name"));
	strlist_push(names, name ? name : "(none)");
}

static void records_among_other_lines(void **state)
{
	(void)state;
	const char *text =
		"stress-ng: info: dispatching hogs\n"
		"{\"type\":\"event\",\"name\":\"a\"}\n"
		"  \t{\"type\":\"metric\",\"name\":\"b\"}\r\n"
		"[1, 2, 3]\n"
		"\"a string\"\n"
		"{\"type\":\"event\",\"name\":\"c\"} trailing text\n"
		"prefix {\"name\":\"d\"}\n"
		"\n"
		"{\"type\":\"event\",\"name\":\"e\"}\n"
		"{\"type\":\"event\",\"name\":\"cut sh";
	struct strlist names = STRLIST_INIT;
	size_t n = jsonl_parse(text, strlen(text), collect_names, &names);
	assert_int_equal(n, 3);
	assert_int_equal(names.n, 3);
	assert_string_equal(names.items[0], "a");
	assert_string_equal(names.items[1], "b");
	assert_string_equal(names.items[2], "e");
	strlist_clear(&names);
}

static void last_line_without_newline(void **state)
{
	(void)state;
	const char *text = "{\"name\":\"x\"}\n{\"name\":\"y\"}";
	struct strlist names = STRLIST_INIT;
	assert_int_equal(jsonl_parse(text, strlen(text), collect_names, &names), 2);
	assert_string_equal(names.items[1], "y");
	strlist_clear(&names);
}

static void length_bounds_the_text(void **state)
{
	(void)state;
	/* Only the first line is inside LEN: the second is not read. */
	const char *text = "{\"name\":\"x\"}\n{\"name\":\"y\"}\n";
	struct strlist names = STRLIST_INIT;
	assert_int_equal(jsonl_parse(text, strlen("{\"name\":\"x\"}\n{\"na"), collect_names, &names), 1);
	strlist_clear(&names);
}

static void one_record(void **state)
{
	(void)state;
	const char *line = " {\"type\":\"exit\",\"status\":3} ";
	json_t *o = jsonl_record(line, strlen(line));
	assert_non_null(o);
	assert_string_equal(jsonl_type(o), "exit");
	assert_int_equal(json_integer_value(json_object_get(o, "status")), 3);
	json_decref(o);
	assert_null(jsonl_record("{\"type\":\"exit\"", strlen("{\"type\":\"exit\"")));
	assert_null(jsonl_record("", 0));
	assert_null(jsonl_type(NULL));
}

static void files(void **state)
{
	(void)state;
	char dir[] = "/tmp/oomlab-test-jsonl.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/ctl.jsonl", dir);
	struct strlist names = STRLIST_INIT;
	errno = 0;
	assert_int_equal(jsonl_read_file(path, collect_names, &names), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(write_file_str(path, "{\"name\":\"hello\"}\nnot json\n"), 0);
	assert_int_equal(jsonl_read_file(path, collect_names, &names), 1);
	assert_string_equal(names.items[0], "hello");
	strlist_clear(&names);
	remove_tree(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_among_other_lines),
		cmocka_unit_test(last_line_without_newline),
		cmocka_unit_test(length_bounds_the_text),
		cmocka_unit_test(one_record),
		cmocka_unit_test(files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
