/* test-compare-verdict.c - the verdicts' table (analysis/compare/
 * compare_verdict.c) held to its contract: one row per verdict, unique
 * words and classes, decided and significant as compare_row_decide() has
 * them, and every writer (text, markdown, JSON, CSV, the report's HTML and
 * style) showing each verdict as its row says. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* open_memstream; the Makefile passes it too */
#endif
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "analysis/compare/compare.h"
#include "analysis/compare/compare_fmt.h"
#include "analysis/compare/compare_row.h"
#include "analysis/compare/compare_verdict.h"
#include "analysis/report/report_html.h"
#include "common/util.h"

static const struct compare_verdict_info *row_of(int v)
{
	return compare_verdict_info((enum compare_verdict)v);
}

/* Each value's row is its own (a missing row would be zeroed: no word, and
 * the value 0), with a word, a class and a detail the writers know. */
static void test_every_verdict_has_its_row(void **state)
{
	(void)state;
	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *info = row_of(v);

		assert_int_equal(info->verdict, v);
		assert_non_null(info->word);
		assert_true(*info->word);
		assert_non_null(info->css_class);
		assert_true(info->detail <= VERDICT_DETAIL_WHY);
		assert_string_equal(compare_verdict_word(v), info->word);
		assert_int_equal(compare_verdict_decided(v), info->decided);
		for (int w = 0; w < v; w++)
			assert_ptr_not_equal(row_of(w), info);
	}
	/* out of range: a row that claims nothing */
	const struct compare_verdict_info *bad = row_of(VERDICT_COUNT);
	assert_string_equal(bad->word, "?");
	assert_false(bad->decided);
	assert_false(bad->significant);
	assert_string_equal(row_of(-1)->word, "?");
}

static void test_words_and_classes_unique(void **state)
{
	(void)state;
	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *a = row_of(v);

		/* a class is a CSS identifier; a colour is an SGR parameter */
		assert_int_equal(strspn(a->css_class, "abcdefghijklmnopqrstuvwxyz"),
				 strlen(a->css_class));
		if (a->sgr)
			assert_int_equal(strspn(a->sgr, "0123456789;"), strlen(a->sgr));
		for (int w = v + 1; w < VERDICT_COUNT; w++) {
			const struct compare_verdict_info *b = row_of(w);

			assert_string_not_equal(a->word, b->word);
			assert_string_not_equal(a->css_class, b->css_class);
		}
	}
}

/* The flags as the code that gives verdicts has them: significant exactly
 * for the verdicts of p-adj < alpha, decided for those and equivalence. */
static void test_flags_follow_the_rule(void **state)
{
	(void)state;
	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *info = row_of(v);
		bool significant = v == VERDICT_BETTER || v == VERDICT_WORSE || v == VERDICT_DIFFERS;

		assert_int_equal(info->significant, significant);
		assert_int_equal(info->decided, significant || v == VERDICT_EQUIVALENT);
	}

	const enum metric_better betters[] = { BETTER_LOWER, BETTER_HIGHER, BETTER_NEITHER };
	struct compare_row row = { .margin = 2.0, .eq_lo = -1.0, .eq_hi = 1.0, .mde = 5.0,
				   .base = { .centre = 10.0 } };

	for (size_t b = 0; b < 3; b++) {
		for (int direction = -1; direction <= 1; direction++) {
			row.why = NULL;
			row.direction = direction;
			row.p_adj = 0.01;
			compare_row_decide(&row, betters[b], 0.05);
			assert_true(row_of(row.verdict)->significant);
			assert_true(compare_verdict_decided(row.verdict));
		}
	}
	row.p_adj = 0.5;	/* not significant, inside the margin */
	compare_row_decide(&row, BETTER_LOWER, 0.05);
	assert_int_equal(row.verdict, VERDICT_EQUIVALENT);
	assert_true(compare_verdict_decided(row.verdict));
	assert_false(row_of(row.verdict)->significant);
	row.eq_hi = 3.0;	/* past the margin: nothing found */
	compare_row_decide(&row, BETTER_LOWER, 0.05);
	assert_int_equal(row.verdict, VERDICT_NOT_DETECTED);
	assert_false(compare_verdict_decided(row.verdict));
	row.why = "too few trials";
	compare_row_decide(&row, BETTER_LOWER, 0.05);
	assert_int_equal(row.verdict, VERDICT_INCONCLUSIVE);
	assert_false(compare_verdict_decided(row.verdict));
}

static void assert_list(enum compare_verdict_set set, bool glosses, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	compare_verdict_list(&sb, set, glosses);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

/* The lists lab compare's and lab run's usage and the design check say. */
static void test_lists(void **state)
{
	(void)state;
	assert_list(VERDICTS_ALL, true,
		    "better, worse, differs, equivalent, not detected (with what could have "
		    "been missed) or inconclusive");
	assert_list(VERDICTS_ALL, false,
		    "better, worse, differs, equivalent, not detected or inconclusive");
	assert_list(VERDICTS_DECIDED, false, "better, worse, differs or equivalent");
	assert_list(VERDICTS_SIGNIFICANT, false, "better, worse or differs");
}

/* ---- a table of one row per verdict, as the writers get it ---- */

struct verdict_table {
	struct compare_table t;
	struct compare_metric_info metric;
	struct compare_row rows[VERDICT_COUNT];
	char names[VERDICT_COUNT][8];
};

static void verdict_table_init(struct verdict_table *vt)
{
	static char name[] = "reclaim_ms", unit[] = "ms", base[] = "stock";
	const struct compare_side side = { .variant = base, .n = 5, .centre = 10.0,
					   .median = 10.0, .mean = 10.0, .sd = 1.0, .iqr = 1.0 };

	memset(vt, 0, sizeof(*vt));
	vt->metric = (struct compare_metric_info){
		.name = name, .unit = unit, .kind = METRIC_TIME, .better = BETTER_LOWER,
		.method = COMPARE_LOG_MEANS, .margin = { 2.0, true }, .base = side,
	};
	for (int v = 0; v < VERDICT_COUNT; v++) {
		struct compare_row *r = &vt->rows[v];

		snprintf(vt->names[v], sizeof(vt->names[v]), "v%d", v);
		*r = (struct compare_row){
			.metric = 0, .base = side, .var = side, .method = COMPARE_LOG_MEANS,
			.scale = SCALE_PERCENT, .diff = 3.0, .ci_lo = 1.0, .ci_hi = 5.0,
			.eq_lo = 1.5, .eq_hi = 4.5, .margin = 2.0, .direction = 1, .p = 0.01,
			.p_adj = 0.03, .level = 0.05, .mde = 4.0, .noise = NAN,
			.verdict = (enum compare_verdict)v, .se = NAN, .df = NAN,
		};
		r->var.variant = vt->names[v];
		if (row_of(v)->detail == VERDICT_DETAIL_WHY)
			r->why = "too few trials";
	}
	vt->t = (struct compare_table){
		.baseline = base, .metrics = &vt->metric, .n_metrics = 1, .rows = vt->rows,
		.n_rows = VERDICT_COUNT, .n_tests = VERDICT_COUNT,
	};
	compare_options_default(&vt->t.opts);
}

enum writer { TEXT, TEXT_COLOUR, MARKDOWN, JSON, CSV, HTML, STYLE };

static char *written(const struct compare_table *t, enum writer w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	switch (w) {
	case TEXT:        assert_int_equal(compare_format_text(out, t, false), 0); break;
	case TEXT_COLOUR: assert_int_equal(compare_format_text(out, t, true), 0); break;
	case MARKDOWN:    assert_int_equal(compare_format_markdown(out, t), 0); break;
	case JSON:        assert_int_equal(compare_format_json(out, t), 0); break;
	case CSV:         assert_int_equal(compare_format_csv(out, t), 0); break;
	case HTML:        assert_int_equal(compare_format_html(out, t), 0); break;
	case STYLE:       html_begin(out, "style"); break;
	}
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* The line of TEXT that holds NEEDLE (which may start with the newline
 * before it), copied into LINE without its end. */
static const char *line_with(char *line, size_t size, const char *text, const char *needle)
{
	const char *at = strstr(text, needle);

	assert_non_null(at);
	if (*at == '\n')	/* a needle that starts a line */
		at++;
	while (at > text && at[-1] != '\n')
		at--;
	size_t len = strcspn(at, "\r\n");
	assert_true(len < size);
	memcpy(line, at, len);
	line[len] = '\0';
	return line;
}

/* The first line of a row ends with the verdict's word, coloured as its
 * row says on a terminal; the word's qualifier starts the second line's tail. */
static void test_text_prints_the_words(void **state)
{
	(void)state;
	struct verdict_table vt;
	verdict_table_init(&vt);
	char *plain = written(&vt.t, TEXT), *colour = written(&vt.t, TEXT_COLOUR);
	char line[512], needle[32], want[64];

	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *info = row_of(v);

		snprintf(needle, sizeof(needle), "\n  %s ", vt.names[v]);
		assert_true(ends_with(line_with(line, sizeof(line), plain, needle), info->word));
		if (info->sgr)
			snprintf(want, sizeof(want), "\033[%sm%s\033[0m", info->sgr, info->word);
		else
			snprintf(want, sizeof(want), " %s", info->word);
		assert_true(ends_with(line_with(line, sizeof(line), colour, needle), want));
	}
	/* the legend says what each word means */
	for (int v = 0; v < VERDICT_COUNT; v++) {
		char said[64], paired[64];

		snprintf(said, sizeof(said), "%s:", row_of(v)->word);
		snprintf(paired, sizeof(paired), "%s/", row_of(v)->word);
		assert_true(strstr(plain, said) || strstr(plain, paired));
	}
	free(plain);
	free(colour);
}

/* The verdict cell of Markdown and the report's HTML: the word, then what
 * the claim carries ("equivalent (+-2%)"). */
static void test_markdown_and_html_print_the_words(void **state)
{
	(void)state;
	struct verdict_table vt;
	verdict_table_init(&vt);
	char *md = written(&vt.t, MARKDOWN), *html = written(&vt.t, HTML);
	char line[2048], needle[64], want[192], claim[96];

	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *info = row_of(v);

		compare_fmt_verdict(claim, sizeof(claim), &vt.rows[v]);
		assert_true(!strncmp(claim, info->word, strlen(info->word)));
		assert_int_equal(!strcmp(claim, info->word), info->detail == VERDICT_DETAIL_NONE);

		snprintf(needle, sizeof(needle), "| %s |", vt.names[v]);
		snprintf(want, sizeof(want), "| %s |", claim);
		assert_true(ends_with(line_with(line, sizeof(line), md, needle), want));

		snprintf(needle, sizeof(needle), "data-variant=\"%s\"", vt.names[v]);
		line_with(line, sizeof(line), html, needle);
		snprintf(want, sizeof(want), "data-verdict=\"%s\"", info->word);
		assert_non_null(strstr(line, want));
		snprintf(want, sizeof(want), "<td class=\"%s\">%s</td></tr>", info->css_class, claim);
		assert_true(ends_with(line, want));
	}
	free(md);
	free(html);
}

/* The report's style has a rule for each verdict whose row gives it a look. */
static void test_report_style(void **state)
{
	(void)state;
	char *page = written(NULL, STYLE);
	char want[128];

	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *info = row_of(v);

		snprintf(want, sizeof(want), "td.%s{", info->css_class);
		if (!info->css) {
			assert_null(strstr(page, want));
			continue;
		}
		snprintf(want, sizeof(want), "td.%s{%s}", info->css_class, info->css);
		assert_non_null(strstr(page, want));
	}
	free(page);
}

static void test_json_and_csv_carry_the_words(void **state)
{
	(void)state;
	struct verdict_table vt;
	verdict_table_init(&vt);
	char *json = written(&vt.t, JSON), *csv = written(&vt.t, CSV);
	json_error_t err;
	json_t *doc = json_loads(json, 0, &err);
	json_t *rows = json_object_get(doc, "rows");

	assert_non_null(doc);
	assert_int_equal(json_array_size(rows), VERDICT_COUNT);
	for (int v = 0; v < VERDICT_COUNT; v++) {
		json_t *r = json_array_get(rows, (size_t)v);

		assert_string_equal(json_string_value(json_object_get(r, "variant")), vt.names[v]);
		assert_string_equal(json_string_value(json_object_get(r, "verdict")), row_of(v)->word);
		assert_int_equal(json_is_true(json_object_get(r, "decided")), row_of(v)->decided);
	}
	json_decref(doc);

	/* the verdict column, by the header's name (no field here holds a comma) */
	char line[2048], *saveptr, *field;
	char *header = xstrdup(line_with(line, sizeof(line), csv, "metric,"));
	int column = -1, at = 0;
	for (field = strtok_r(header, ",", &saveptr); field;
	     field = strtok_r(NULL, ",", &saveptr), at++)
		if (!strcmp(field, "verdict"))
			column = at;
	free(header);
	assert_true(column > 0);
	for (int v = 0; v < VERDICT_COUNT; v++) {
		char needle[32], *copy;

		snprintf(needle, sizeof(needle), ",%s,stock,", vt.names[v]);
		copy = xstrdup(line_with(line, sizeof(line), csv, needle));
		field = copy;
		for (at = 0; at < column; at++)
			field = strchr(field, ',') + 1;
		field[strcspn(field, ",")] = '\0';
		assert_string_equal(field, row_of(v)->word);
		free(copy);
	}
	free(json);
	free(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_verdict_has_its_row),
		cmocka_unit_test(test_words_and_classes_unique),
		cmocka_unit_test(test_flags_follow_the_rule),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_text_prints_the_words),
		cmocka_unit_test(test_markdown_and_html_print_the_words),
		cmocka_unit_test(test_report_style),
		cmocka_unit_test(test_json_and_csv_carry_the_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
