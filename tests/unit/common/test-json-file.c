/* test-json-file.c - a JSON document in a file of its own (common/json-file.c):
 * written whole and read back, and each failure named with the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/json-file.h"
#include "common/util.h"

static void written_and_read_back(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/oomlab-test-json-file.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *path = xasprintf("%s/doc.json", tmpl);
	struct strbuf err = STRBUF_INIT;

	json_t *doc = json_pack("{s:s, s:[i, i]}", "run_id", "x", "tasks", 1, 2);
	assert_int_equal(json_file_write(path, doc, &err), 0);
	json_t *back = json_file_load_object(path, &err);
	assert_non_null(back);
	assert_true(json_equal(doc, back));
	assert_int_equal(err.len, 0);
	json_decref(back);
	/* written again: the new document replaces the old one */
	json_object_set_new(doc, "run_id", json_string("y"));
	assert_int_equal(json_file_write(path, doc, &err), 0);
	back = json_file_load_object(path, &err);
	assert_string_equal(json_string_value(json_object_get(back, "run_id")), "y");
	json_decref(back);

	/* JSON but no object, not JSON, no file: NULL, the file named */
	assert_int_equal(write_file_str(path, "[1, 2]"), 0);
	assert_null(json_file_load_object(path, &err));
	char *want = xasprintf("%s: not a JSON object", path);
	assert_string_equal(err.buf, want);
	free(want);
	strbuf_reset(&err);
	assert_int_equal(write_file_str(path, "{\"run_id\": "), 0);
	assert_null(json_file_load_object(path, &err));
	assert_true(starts_with(err.buf, path) && err.len > strlen(path) + 2);
	strbuf_reset(&err);
	remove_tree(tmpl);
	assert_null(json_file_load_object(path, &err));
	assert_true(starts_with(err.buf, path));
	strbuf_reset(&err);

	/* a folder that is gone: -1 with the file named */
	assert_int_equal(json_file_write(path, doc, &err), -1);
	want = xasprintf("cannot write %s: ", path);
	assert_true(starts_with(err.buf, want));
	free(want);
	json_decref(doc);
	strbuf_release(&err);
	free(path);
}

static char *file_text(const char *path)
{
	char *text = read_file(path, NULL);
	assert_non_null(text);
	return text;
}

/* The bytes each file kind had from jansson before it went through
 * json-file: json_dumps with its flags (and a newline where it had one), or
 * json_dump_file for the merged run.json. */
static void same_bytes_as_jansson(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/oomlab-test-json-file.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *path = xasprintf("%s/doc.json", tmpl), *old = xasprintf("%s/old.json", tmpl);
	struct strbuf err = STRBUF_INIT;
	json_t *doc = json_pack("{s:s, s:f, s:[f, i, n], s:{s:b, s:s}}", "zeta", "\u00e9/x", "alpha",
				0.1 + 0.2, "list", 1e-7, 3, "nested", "on", 1, "a", "b");
	static const struct {
		size_t flags;
		enum json_file_end end;
	} kinds[] = {
		{ JSON_INDENT(2), JSON_FILE_NO_NEWLINE },                     /* run.json, bisect.json */
		{ JSON_INDENT(2) | JSON_SORT_KEYS, JSON_FILE_NO_NEWLINE },    /* trial.json */
		{ JSON_INDENT(1) | JSON_REAL_PRECISION(17), JSON_FILE_NEWLINE }, /* export metrics.json */
		{ JSON_COMPACT | JSON_REAL_PRECISION(15), JSON_FILE_NEWLINE },   /* a perfetto trace */
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		assert_int_equal(json_file_write_as(path, doc, kinds[i].flags, kinds[i].end, &err), 0);
		char *dumped = json_dumps(doc, kinds[i].flags);
		char *want = xasprintf("%s%s", dumped, kinds[i].end == JSON_FILE_NEWLINE ? "\n" : "");
		char *got = file_text(path);
		assert_string_equal(got, want);
		free(got);
		free(want);
		free(dumped);
	}
	/* json_file_write is run.json's layout, as json_dump_file wrote it */
	assert_int_equal(json_file_write(path, doc, &err), 0);
	assert_int_equal(json_dump_file(doc, old, JSON_INDENT(2)), 0);
	char *got = file_text(path), *want = file_text(old);
	assert_string_equal(got, want);
	free(got);
	free(want);
	assert_int_equal(err.len, 0);
	json_decref(doc);
	strbuf_release(&err);
	remove_tree(tmpl);
	free(old);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(written_and_read_back),
		cmocka_unit_test(same_bytes_as_jansson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
