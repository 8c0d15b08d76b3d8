/* Unit tests: a table of keys (lab/keys/key-table.h) finds the row of a key, a
 * family's member and a prefix family's key, lists the members one each,
 * and kvfile_parse() goes through it: repeats as the row says, and a key it
 * lacks is offered the nearest names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/keys/key-table.h"
#include "lab/keys/kvfile.h"

/* What the setters saw: the last key and value. */
struct seen {
	char key[64], value[64];
	int calls;
};

static const char *remember(void *ctx, const char *key, const char *value, int line)
{
	struct seen *s = ctx;
	(void)line;
	snprintf(s->key, sizeof(s->key), "%s", key);
	snprintf(s->value, sizeof(s->value), "%s", value);
	s->calls++;
	return strcmp(value, "bad") ? NULL : "wants anything but bad";
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
	KEY("trials", "count", "3", "1 to 9", "how many", remember),
	KEY_REPEATED("workload", "command", "(required)", "", "a command", remember),
	KEY_MEMBERS("colour.NAME", remember, colour_member),
	KEY_FAMILY("margin.GLOB", "margin", "(none)", "2%", "a margin", remember, "margin."),
};
static const struct key_table table = { "test", "t/NAME.conf", rows, sizeof(rows) / sizeof(rows[0]) };

static void rows_are_found_by_key(void **state)
{
	(void)state;
	assert_ptr_equal(key_table_find(&table, "trials"), &rows[0]);
	assert_ptr_equal(key_table_find(&table, "workload"), &rows[1]);
	assert_ptr_equal(key_table_find(&table, "colour.green"), &rows[2]);
	assert_ptr_equal(key_table_find(&table, "margin.oom_*"), &rows[3]);
	assert_ptr_equal(key_table_find(&table, "margin."), &rows[3]);
	/* a member the family lacks, its placeholder, a prefix of a key */
	assert_null(key_table_find(&table, "colour.blue"));
	assert_null(key_table_find(&table, "colour.NAME"));
	assert_null(key_table_find(&table, "trial"));
	assert_null(key_table_find(&table, "margin"));
}

static void members_are_listed_one_each(void **state)
{
	(void)state;
	size_t n;
	struct key_info *keys = key_table_list(&table, &n);
	const char *const want[] = { "trials", "workload", "colour.red", "colour.green", "margin.GLOB" };
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(keys[i].name, want[i]);
	assert_string_equal(keys[2].range, "0 to 255");
	assert_true(keys[1].repeats);
	assert_false(keys[0].repeats);
	free(keys);
}

static int parse(const char *text, struct seen *s, struct strbuf *err)
{
	const struct kvfile_options opts = { .inline_comments = true };
	memset(s, 0, sizeof(*s));
	strbuf_reset(err);
	return kvfile_parse("t.conf", text, &opts, &table, s, err);
}

static void the_parser_goes_through_the_table(void **state)
{
	(void)state;
	struct seen s;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse("trials = 4\ncolour.red = 9\nmargin.x* = 2%\n", &s, &err), 0);
	assert_int_equal(s.calls, 3);
	assert_string_equal(s.key, "margin.x*");
	assert_int_equal(parse("workload = a\nworkload = b\n", &s, &err), 0);
	assert_string_equal(s.value, "b");
	assert_int_equal(parse("trials = 4\ntrials = 5\n", &s, &err), -1);
	assert_string_equal(err.buf, "t.conf:2: trials is set twice");
	assert_int_equal(parse("colour.red = bad\n", &s, &err), -1);
	assert_string_equal(err.buf, "t.conf:1: colour.red = bad: colour.red wants anything but bad");
	strbuf_release(&err);
}

static void an_unknown_key_is_offered_the_nearest(void **state)
{
	(void)state;
	struct seen s;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse("trials = 4\ntrails = 3\n", &s, &err), -1);
	assert_string_equal(err.buf, "t.conf:2: unknown key 'trails' (did you mean 'trials'?)");
	/* a family's members are names too, the nearest first */
	assert_int_equal(parse("colour.gren = 1\n", &s, &err), -1);
	assert_string_equal(err.buf, "t.conf:1: unknown key 'colour.gren' "
				     "(did you mean 'colour.green' or 'colour.red'?)");
	/* nothing near: the key alone */
	assert_int_equal(parse("zzzzzzzz = 1\n", &s, &err), -1);
	assert_string_equal(err.buf, "t.conf:1: unknown key 'zzzzzzzz'");
	assert_int_equal(s.calls, 0);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_found_by_key),
		cmocka_unit_test(members_are_listed_one_each),
		cmocka_unit_test(the_parser_goes_through_the_table),
		cmocka_unit_test(an_unknown_key_is_offered_the_nearest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
