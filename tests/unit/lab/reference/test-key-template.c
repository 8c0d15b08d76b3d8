/* Unit tests: a commented file of a table's keys (lab/reference/key-template.h) has
 * every key the table lists, once, in its order: the ones given a value set,
 * the others commented out with their default when it is a value; a
 * required key without a value, or a value for no key, is an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/reference/key-template.h"

static const char *take(void *ctx, const char *key, const char *value, int line)
{
	(void)ctx, (void)key, (void)value, (void)line;
	return NULL;
}

static bool colour_member(size_t i, struct key_info *out)
{
	static const char *const names[] = { "colour.red", "colour.green" };
	if (i >= 2)
		return false;
	*out = (struct key_info){ .name = names[i], .type = "count", .fallback = "0",
				  .range = "0 to 255", .meaning = "a share of the colour" };
	return true;
}

static const struct key_def rows[] = {
	KEY("name", "text", KEY_REQUIRED, "", "what it is called", take),
	KEY("trials", "count", "3", "1 to 9", "how many", take),
	KEY_REPEATED("workload", "command", KEY_REQUIRED, "", "a command", take),
	KEY_MEMBERS("colour.NAME", take, colour_member),
	KEY_FAMILY("margin.GLOB", "margin", "(none)", "2%", "a margin", take, "margin."),
};
static const struct key_table table = { "test", "t/NAME.conf", rows, sizeof(rows) / sizeof(rows[0]) };

/* How many lines of TEXT are exactly LINE. */
static int lines_equal(const char *text, const char *line)
{
	int n = 0;
	size_t len = strlen(line);
	for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, line, len) && (p[len] == '\n' || !p[len]))
			n++;
	return n;
}

static void every_key_is_set_or_commented_out(void **state)
{
	(void)state;
	const struct key_value values[] = {
		{ "name", "demo" }, { "workload", "spawn" }, { "workload", "oom-hog" },
	};
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	assert_int_equal(key_template(&sb, &table, "A head that says what the file is.", values, 3, &err),
			 0);
	assert_int_equal(err.len, 0);
	static const char head[] = "# A head that says what the file is.\n\n";
	assert_true(!strncmp(sb.buf, head, strlen(head)));
	/* set, with each value of a key that repeats */
	assert_int_equal(lines_equal(sb.buf, "name = demo"), 1);
	assert_int_equal(lines_equal(sb.buf, "workload = spawn"), 1);
	assert_int_equal(lines_equal(sb.buf, "workload = oom-hog"), 1);
	/* commented out with its default, a family's members one each */
	assert_int_equal(lines_equal(sb.buf, "#trials = 3"), 1);
	assert_int_equal(lines_equal(sb.buf, "#colour.red = 0"), 1);
	assert_int_equal(lines_equal(sb.buf, "#colour.green = 0"), 1);
	/* a default that is a description is said, not written as a value */
	assert_int_equal(lines_equal(sb.buf, "#margin.GLOB ="), 1);
	assert_int_equal(lines_equal(sb.buf, "# margin: 2%; default: none"), 1);
	/* each key's meaning, type and values above it */
	assert_int_equal(lines_equal(sb.buf, "# trials: how many."), 1);
	assert_int_equal(lines_equal(sb.buf, "# count: 1 to 9; default 3"), 1);
	assert_int_equal(lines_equal(sb.buf, "# workload: a command; may repeat."), 1);
	assert_int_equal(lines_equal(sb.buf, "# command; required"), 1);
	/* in the table's order */
	assert_true(strstr(sb.buf, "name = ") < strstr(sb.buf, "#trials") &&
		    strstr(sb.buf, "#trials") < strstr(sb.buf, "workload = ") &&
		    strstr(sb.buf, "workload = ") < strstr(sb.buf, "#colour.red") &&
		    strstr(sb.buf, "#colour.green") < strstr(sb.buf, "#margin.GLOB"));
	strbuf_release(&sb);
	strbuf_release(&err);
}

static void what_cannot_be_written_is_an_error(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	/* a required key left without a value */
	const struct key_value no_workload[] = { { "name", "demo" } };
	assert_int_equal(key_template(&sb, &table, NULL, no_workload, 1, &err), -1);
	assert_string_equal(err.buf, "test template: the required key workload has no value");
	/* a value for no key of the table */
	strbuf_reset(&sb), strbuf_reset(&err);
	const struct key_value stray[] = { { "name", "d" }, { "workload", "w" }, { "trails", "3" } };
	assert_int_equal(key_template(&sb, &table, NULL, stray, 3, &err), -1);
	assert_string_equal(err.buf, "test template: no test key 'trails'");
	/* a second value for a key that does not repeat */
	strbuf_reset(&sb), strbuf_reset(&err);
	const struct key_value twice[] = { { "name", "d" }, { "name", "e" }, { "workload", "w" } };
	assert_int_equal(key_template(&sb, &table, NULL, twice, 3, &err), -1);
	assert_string_equal(err.buf, "test template: name is given twice");
	strbuf_release(&sb);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_key_is_set_or_commented_out),
		cmocka_unit_test(what_cannot_be_written_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
