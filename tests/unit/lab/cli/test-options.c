/* test-options.c - unit tests for lab/cli/options.c: a usage paragraph made at
 * run time is wrapped as the written ones are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/util.h"
#include "lab/cli/options.h"

static void expect(const char *text, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	usage_add_paragraph(&sb, text);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

static void test_paragraph_wraps_at_78(void **state)
{
	(void)state;
	/* 71 characters and "detected": 80 would pass 78, so a new line */
	expect("the run has one, and a verdict: better, worse, differs, equivalent, not detected "
	       "(with what could have been missed) or inconclusive.",
	       "the run has one, and a verdict: better, worse, differs, equivalent, not\n"
	       "detected (with what could have been missed) or inconclusive.\n");
	/* a line of exactly 78 stays one; 79 does not */
	expect("123456789 123456789 123456789 123456789 123456789 123456789 123456789 12345678",
	       "123456789 123456789 123456789 123456789 123456789 123456789 123456789 12345678\n");
	expect("123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789",
	       "123456789 123456789 123456789 123456789 123456789 123456789 123456789\n"
	       "123456789\n");
	/* blanks and line ends in the text are one space; nothing: no line */
	expect("  a \n b  ", "a b\n");
	expect(" \n", "");
	/* a word longer than a line stands on its own */
	char *longer = xasprintf("a %080d b", 0);
	char *want = xasprintf("a\n%080d\nb\n", 0);
	expect(longer, want);
	free(longer);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paragraph_wraps_at_78),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
