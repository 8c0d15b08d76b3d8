/* test-parse-options.c - the one option parser of the lab's commands and the
 * workloads (common/cli/parse-options.c): every kind, the GNU forms, the
 * errors, and a usage made from the same table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli/parse-options.h"

struct values {
	bool all, quiet;
	const char *format;
	unsigned long seed;
	uint64_t bytes;
	int level;
	double ratio;
	int calls;
	char last[32];
	int method;
};

static int remember(const struct opt *o, const char *value, char *err, size_t size)
{
	struct values *v = o->target;
	if (value && !strcmp(value, "bad")) {
		snprintf(err, size, "must not be '%s'", value);
		return -1;
	}
	v->calls++;
	snprintf(v->last, sizeof(v->last), "%s", value ? value : "(none)");
	return 0;
}

static struct values v;
static const char *const methods[] = { "fork", "vfork", "posix_spawn", NULL };
static const struct opt opts[] = {
	OPT_FLAG('a', "all", &v.all, "every metric"),
	OPT_FLAG('q', "quiet", &v.quiet, "no progress"),
	OPT_STRING('f', "format", &v.format, "F", "text, json"),
	OPT_ULONG(0, "seed", &v.seed, "N", 1, 1e18, "the seed"),
	OPT_U64('b', "bytes", &v.bytes, "N", 0, 4096, "how many bytes"),
	OPT_INT(0, "level", &v.level, "L", -5, 5, "a level"),
	OPT_DOUBLE(0, "ratio", &v.ratio, "R", 0, 1, "a share"),
	OPT_CALL('m', "metric", &v, "GLOB", remember, "repeatable"),
	OPT_CALL(0, "perf", &v, NULL, remember, "a call without a value"),
	OPT_CHOICE(0, "method", &v.method, "M", methods, "how to start"),
	OPT_END(),
};

static int parse(char **argv, char err[OPT_ERR_MAX])
{
	int argc = 0;
	while (argv[argc])
		argc++;
	memset(&v, 0, sizeof(v));
	err[0] = '\0';
	return parse_options(argc, argv, opts, err);
}

static void test_kinds_and_forms(void **state)
{
	(void)state;
	char err[OPT_ERR_MAX];
	char *argv[] = { "cmd", "run1", "-aq", "-fjson", "--seed", "7", "run2", "--bytes=0x100",
			 "--level", "-3", "--ratio=0.25", "-m", "x*", "--metric=y*", "--perf",
			 "--", "--not-an-option", NULL };
	assert_int_equal(parse(argv, err), 3);
	assert_string_equal(argv[1], "run1");
	assert_string_equal(argv[2], "run2");
	assert_string_equal(argv[3], "--not-an-option");
	assert_null(argv[4]);
	assert_true(v.all && v.quiet);
	assert_string_equal(v.format, "json");
	assert_int_equal(v.seed, 7);
	assert_int_equal(v.bytes, 256);
	assert_int_equal(v.level, -3);
	assert_true(v.ratio == 0.25);
	assert_int_equal(v.calls, 3);
	assert_string_equal(v.last, "(none)");
	char *choice[] = { "cmd", "--method=posix_spawn", NULL };
	assert_int_equal(parse(choice, err), 0);
	assert_int_equal(v.method, 2);
	char *bundled[] = { "cmd", "-qab", "12", NULL };          /* a value ends the bundle */
	assert_int_equal(parse(bundled, err), 0);
	assert_true(v.quiet && v.all);
	assert_int_equal(v.bytes, 12);
	char *dash[] = { "cmd", "-", NULL };                       /* "-" is an operand */
	assert_int_equal(parse(dash, err), 1);
}

static void expect_error(char **argv, const char *message)
{
	char err[OPT_ERR_MAX];
	assert_int_equal(parse(argv, err), OPT_PARSE_ERROR);
	if (strcmp(err, message))
		fail_msg("got \"%s\", wanted \"%s\"", err, message);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error((char *[]){ "cmd", "--colour", NULL }, "unknown option '--colour'");
	expect_error((char *[]){ "cmd", "--colour=x", NULL }, "unknown option '--colour'");
	expect_error((char *[]){ "cmd", "-z", NULL }, "unknown option '-z'");
	expect_error((char *[]){ "cmd", "--format", NULL }, "option '--format' needs a value");
	expect_error((char *[]){ "cmd", "-f", NULL }, "option '-f' needs a value");
	expect_error((char *[]){ "cmd", "--all=yes", NULL }, "option '--all' takes no value");
	expect_error((char *[]){ "cmd", "--seed", "0", NULL },
		     "--seed wants a whole number of at least 1, not '0'");
	expect_error((char *[]){ "cmd", "--seed", "x", NULL },
		     "--seed wants a whole number of at least 1, not 'x'");
	expect_error((char *[]){ "cmd", "--seed", "-1", NULL },
		     "--seed wants a whole number of at least 1, not '-1'");
	expect_error((char *[]){ "cmd", "-b", "4097", NULL },
		     "--bytes wants a whole number from 0 to 4096, not '4097'");
	expect_error((char *[]){ "cmd", "--bytes", "0x", NULL },
		     "--bytes wants a whole number from 0 to 4096, not '0x'");
	expect_error((char *[]){ "cmd", "--level", "6", NULL },
		     "--level wants an integer from -5 to 5, not '6'");
	expect_error((char *[]){ "cmd", "--ratio", "1.5", NULL },
		     "--ratio wants a number from 0 to 1, not '1.5'");
	expect_error((char *[]){ "cmd", "--ratio", "nan", NULL },
		     "--ratio wants a number from 0 to 1, not 'nan'");
	expect_error((char *[]){ "cmd", "-m", "bad", NULL }, "--metric must not be 'bad'");
	expect_error((char *[]){ "cmd", "--method", "clone", NULL },
		     "--method must be fork, vfork or posix_spawn, got 'clone'");
	char err[OPT_ERR_MAX];
	assert_int_equal(parse((char *[]){ "cmd", "x", "--help", NULL }, err), OPT_PARSE_HELP);
	assert_int_equal(parse((char *[]){ "cmd", "-ah", NULL }, err), OPT_PARSE_HELP);
}

/* After N operands the rest is a command line of its own. */
static void test_until(void **state)
{
	(void)state;
	char err[OPT_ERR_MAX];
	char *argv[] = { "boot", "-q", "stock", "-a", "ls", "-l", "--all", NULL };
	memset(&v, 0, sizeof(v));
	assert_int_equal(parse_options_until(7, argv, opts, 1, err), 4);
	assert_true(v.quiet && v.all);
	assert_string_equal(argv[1], "stock");
	assert_string_equal(argv[2], "ls");
	assert_string_equal(argv[3], "-l");
	assert_string_equal(argv[4], "--all");
	char *dashed[] = { "boot", "stock", "-f", "json", "--", "-a", NULL };
	memset(&v, 0, sizeof(v));
	assert_int_equal(parse_options_until(6, dashed, opts, 1, err), 2);
	assert_string_equal(v.format, "json");
	assert_false(v.all);
	assert_string_equal(dashed[2], "-a");
}

/* The usage comes from the table: every option with its value's name and its
 * help, wrapped within 80 columns, and --help. */
static void test_usage_from_the_table(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	static const struct opt wide[] = {
		OPT_STRING('o', "out", NULL, "DIR",
			   "the folder to write into, made if missing; a long help that has to be "
			   "wrapped over more than one line to fit in eighty columns\nand a line of its own"),
		OPT_FLAG(0, "a-very-long-option-name", NULL, "help below it"),
		OPT_END(),
	};
	print_usage(f, "usage: cmd [options]\n\n", wide, "Exit status 0.\n");
	fclose(f);
	assert_true(!strncmp(text, "usage: cmd [options]\n\n  -o, --out DIR            the folder", 57));
	assert_non_null(strstr(text, "\n                           and a line of its own\n"));
	assert_non_null(strstr(text, "      --a-very-long-option-name\n                           help below it\n"));
	assert_non_null(strstr(text, "  -h, --help               this text\n\nExit status 0.\n"));
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		if (nl - line > 80)
			fail_msg("line longer than 80 columns: %.*s", (int)(nl - line), line);
		line = nl + 1;
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_and_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_until),
		cmocka_unit_test(test_usage_from_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
