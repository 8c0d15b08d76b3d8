/* test-compare-escaping.c - what a guest chose (a metric name, a unit) or a
 * run.json said (a group label) reaches lab compare's outputs escaped: CSV
 * cells a spreadsheet would run as formulas get a ', Markdown gets no raw
 * HTML, the terminal tables no control characters (issue 37). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "analysis/compare/compare.h"
#include "analysis/metrics/metric_catalog.h"
#include "common/csv.h"

#define FORMULA "=cmd|' /C calc'!A0"
#define HTML "<script>alert(1)</script>&"
#define ESCAPE "\x1b[2J\x1b]0;pwn\a\nred"

static const double base[] = { 10, 11, 12, 10, 11, 12 };
static const double var[] = { 20, 21, 22, 20, 21, 22 };

/* A table with the hostile metric NAME and variant LABEL. */
static void build(struct compare_table *t, const char *name, const char *label)
{
	struct compare_group g[] = { { .label = "stock", .values = base, .n = 6 },
				     { .label = label, .values = var, .n = 6 } };
	struct compare_metric m = { .groups = g, .n_groups = 2, .margin = { .value = NAN } };
	metric_catalog_resolve(name, "count", &m.def);
	struct compare_options o;
	compare_options_default(&o);
	assert_int_equal(compare_table_build(&m, 1, &o, t), 0);
}

static char *format(const struct compare_table *t, int (*fn)(FILE *, const struct compare_table *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fn(f, t), 0);
	fclose(f);
	return buf;
}

static int text_plain(FILE *out, const struct compare_table *t)
{
	return compare_format_text(out, t, false);
}

static char *field(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	csv_put_field(f, s, true);
	fclose(f);
	return buf;
}

#define assert_field(in, want)                      \
	do {                                        \
		char *got = field(in);              \
		assert_string_equal(got, want);     \
		free(got);                          \
	} while (0)

static void csv_fields(void **state)
{
	(void)state;
	assert_field("=1+2", "'=1+2");
	assert_field("+x", "'+x");
	assert_field("-x", "'-x");
	assert_field("@SUM(A1)", "'@SUM(A1)");
	assert_field("=a,b", "\"'=a,b\"");
	/* numbers, a lone "-" and plain words as they are */
	assert_field("-1.5", "-1.5");
	assert_field("+3", "+3");
	assert_field("-", "-");
	assert_field("stock+debug", "stock+debug");
}

static void csv_table(void **state)
{
	(void)state;
	struct compare_table t;
	build(&t, FORMULA, "@evil");
	char *out = format(&t, compare_format_csv);
	assert_non_null(strstr(out, "'=cmd|"));
	assert_non_null(strstr(out, "'@evil"));
	/* no field starts with a formula character */
	for (const char *p = out; *p; p++)
		if (p == out || p[-1] == ',' || p[-1] == '\n' || (p[-1] == '"' && (p - 1 == out ||
								 p[-2] == ',' || p[-2] == '\n')))
			if (*p == '=' || *p == '@')
				fail_msg("a formula at byte %td: %.20s", p - out, p);
	free(out);
	compare_table_free(&t);
}

static void markdown_table(void **state)
{
	(void)state;
	struct compare_table t;
	build(&t, HTML, HTML);
	char *out = format(&t, compare_format_markdown);
	/* the lab's own notes say "p-adj < 0.05": no tag, though */
	assert_null(strstr(out, "<script"));
	assert_null(strstr(out, "</"));
	assert_null(strchr(out, '>'));
	assert_non_null(strstr(out, "&lt;script&gt;"));
	assert_non_null(strstr(out, "&amp;"));
	free(out);
	compare_table_free(&t);
}

static void terminal_tables(void **state)
{
	(void)state;
	int (*fns[])(FILE *, const struct compare_table *) = { text_plain, compare_format_compact };
	for (size_t i = 0; i < sizeof(fns) / sizeof(*fns); i++) {
		struct compare_table t;
		build(&t, "m" ESCAPE, "v" ESCAPE);
		char *out = format(&t, fns[i]);
		for (const char *p = out; *p; p++)
			if ((unsigned char)*p < 0x20 && *p != '\n')
				fail_msg("format %zu: control byte 0x%02x at byte %td", i, (unsigned char)*p,
					 p - out);
		assert_null(strstr(out, "\nred"));
		assert_non_null(strstr(out, "?[2J"));
		free(out);
		compare_table_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_fields),
		cmocka_unit_test(csv_table),
		cmocka_unit_test(markdown_table),
		cmocka_unit_test(terminal_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
