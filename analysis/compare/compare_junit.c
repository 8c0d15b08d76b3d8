/* compare_junit.c - the table as a JUnit XML test suite, a test case per row (compare.h). */
#include <errno.h>
#include <stdio.h>

#include "compare_fail_on.h"
#include "compare_fmt.h"
#include "compare_summary.h"

/* S as XML text or attribute value: the five markup characters as
 * entities; control characters XML 1.0 does not allow (all below 0x20 but
 * tab, LF, CR) as '?', and those three as character references so that an
 * attribute keeps them. */
static void put_xml(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':  fputs("&amp;", out); break;
		case '<':  fputs("&lt;", out); break;
		case '>':  fputs("&gt;", out); break;
		case '"':  fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		case '\t': case '\n': case '\r':
			fprintf(out, "&#%d;", c);
			break;
		default:
			fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
		}
	}
}

static void put_property(void *ctx, const char *line)
{
	FILE *out = ctx;

	fputs("      <property name=\"summary\" value=\"", out);
	put_xml(out, line);
	fputs("\"/>\n", out);
}

int compare_format_junit(FILE *out, const struct compare_table *t, unsigned fail_on)
{
	size_t failures = compare_table_failures(t, fail_on);
	char name[1024], line[300];

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"lab compare\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
		t->n_rows, failures);
	fputs("  <testsuite name=\"baseline ", out);
	put_xml(out, t->baseline ? t->baseline : "-");
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", t->n_rows,
		failures);
	fputs("    <properties>\n", out);
	compare_summary(t, put_property, out);
	fputs("    </properties>\n", out);
	for (size_t k = 0; k < t->n_rows; k++) {
		const struct compare_row *r = &t->rows[k];

		compare_fmt_result(line, sizeof(line), r);
		fputs("    <testcase classname=\"", out);
		put_xml(out, compare_fmt_row_variant(name, sizeof(name), t, r));
		fputs("\" name=\"", out);
		put_xml(out, t->metrics[r->metric].name);
		fputs("\">\n", out);
		if (compare_row_fails(r, fail_on)) {
			fputs("      <failure type=\"", out);
			put_xml(out, compare_verdict_word(r->verdict));
			fputs("\" message=\"", out);
			put_xml(out, line);
			fputs("\"/>\n", out);
		}
		fputs("      <system-out>", out);
		put_xml(out, line);
		fputs("</system-out>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return ferror(out) ? -EIO : 0;
}
