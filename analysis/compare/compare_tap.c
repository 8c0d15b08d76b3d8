/* compare_tap.c - the table as TAP version 13, a test point per row (compare.h). */
#include <errno.h>
#include <stdio.h>

#include "compare_fail_on.h"
#include "compare_fmt.h"
#include "compare_summary.h"

/* S in a test point's description: '#' would start a directive, so it and
 * '\' are escaped; control characters would end the line: '?'. */
static void put_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '#' || *s == '\\')
			fputc('\\', out);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
	}
}

static void put_diagnostic(void *ctx, const char *line)
{
	FILE *out = ctx;

	fputs("# ", out);
	put_text(out, line);
	fputc('\n', out);
}

int compare_format_tap(FILE *out, const struct compare_table *t, unsigned fail_on)
{
	char name[1024], result[300];

	fprintf(out, "TAP version 13\n1..%zu\n", t->n_rows);
	fputs("# baseline ", out);
	put_text(out, t->baseline ? t->baseline : "-");
	fputc('\n', out);
	compare_summary(t, put_diagnostic, out);
	for (size_t k = 0; k < t->n_rows; k++) {
		const struct compare_row *r = &t->rows[k];

		fprintf(out, "%s %zu - ", compare_row_fails(r, fail_on) ? "not ok" : "ok", k + 1);
		put_text(out, compare_fmt_row_variant(name, sizeof(name), t, r));
		fputc(' ', out);
		put_text(out, t->metrics[r->metric].name);
		fputs(": ", out);
		put_text(out, compare_fmt_result(result, sizeof(result), r));
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
