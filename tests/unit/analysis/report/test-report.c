/* test-report.c - unit tests for lab report: HTML escaping (analysis/report/
 * report_html.c, compare_html.c), gnuplot's SVG made inline (analysis/report/
 * plot.c), buddyinfo and the intervals, the figures drawn or left out
 * (report_figures.c) and the whole command on a small run made of real trial
 * lines (tests/samples/export/, export-fixture.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/compare/compare.h"
#include "analysis/report/plot.h"
#include "analysis/report/report_complaints.h"
#include "analysis/report/report_figures.h"
#include "analysis/report/report_html.h"
#include "analysis/report/report_trace.h"
#include "lab/builtin.h"
#include "lab/util/version.h"
#include "analysis/run/run-data.h"
#include "tests/unit/export-fixture.h"

static int setup(void **state)
{
	char *base = fixture_make_run();
	if (!base)
		return -1;
	*state = base;
	return 0;
}

static int teardown(void **state)
{
	remove_tree(*state);
	free(*state);
	return 0;
}

static void test_html_escape(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	html_escape(&sb, "<script>alert(\"x\") & 'y'</script>\x01\tok\n");
	assert_string_equal(sb.buf, "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;"
				    "&lt;/script&gt;\tok\n");
	strbuf_release(&sb);
	html_escape(&sb, NULL);
	assert_string_equal(strbuf_str(&sb), "");
	strbuf_release(&sb);
}

static char *capture(void (*fn)(FILE *, void *), void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	fn(mem, arg);
	fclose(mem);
	return text;
}

static void pieces(FILE *out, void *arg)
{
	(void)arg;
	html_begin(out, "a <title> & more");
	html_para(out, "warn", "5 < 6 \"quoted\"");
	html_figure_absent(out, "id\"x", "Fig <1>", "no <data>");
	const char *keys[] = { "k<" }, *vals[] = { "v&" };
	html_kv_table(out, NULL, keys, vals, 1);
	html_end(out, "foot > er");
}

static void test_html_pieces_escape_data(void **state)
{
	(void)state;
	char *html = capture(pieces, NULL);
	assert_non_null(strstr(html, "<title>a &lt;title&gt; &amp; more</title>"));
	assert_non_null(strstr(html, "<p class=\"warn\">5 &lt; 6 &quot;quoted&quot;</p>"));
	assert_non_null(strstr(html, "id=\"id&quot;x\""));
	assert_non_null(strstr(html, "Fig &lt;1&gt;"));
	assert_non_null(strstr(html, "no &lt;data&gt;"));
	assert_non_null(strstr(html, "<th>k&lt;</th><td>v&amp;</td>"));
	assert_null(strstr(html, "<data>"));
	assert_null(strstr(html, "<1>"));
	/* self-contained: nothing is fetched */
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	assert_null(strstr(html, "<script"));
	free(html);
}

static void compare_html(FILE *out, void *arg)
{
	compare_format_html(out, arg);
}

static void test_compare_html_escapes(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct compare_group groups[] = {
		{ .label = "stock", .values = a, .n = 3 },
		{ .label = "<b>new</b>", .values = b, .n = 3 },
	};
	struct compare_metric m = { .groups = groups, .n_groups = 2 };
	metric_resolve("lat<ency>_ms", "ms", &m.def);
	struct compare_options opts;
	compare_options_default(&opts);
	opts.baseline = "stock";
	struct compare_table table;
	assert_int_equal(compare_table_build(&m, 1, &opts, &table), 0);
	char *html = capture(compare_html, &table);
	assert_non_null(strstr(html, "<table class=\"compare\">"));
	/* the summary line of each variant above the table, escaped (3 against 3
	 * trials: no permutation p below 0.1, nothing decided) */
	assert_non_null(strstr(html, "<p class=\"summary\"><strong>&lt;b&gt;new&lt;/b&gt;: no row "
				     "decided (1 row)</strong></p>"));
	assert_non_null(strstr(html, "lat&lt;ency&gt;_ms"));
	assert_non_null(strstr(html, "&lt;b&gt;new&lt;/b&gt;"));
	assert_null(strstr(html, "<b>new"));
	assert_null(strstr(html, "<ency>"));
	/* one baseline row and one variant row */
	size_t rows = 0;
	for (const char *p = html; (p = strstr(p, "<tr")); p++)
		rows++;
	assert_int_equal(rows, 3);      /* header, baseline, variant */
	free(html);
	compare_table_free(&table);
}

static void test_svg_inline_prefixes_ids(void **state)
{
	(void)state;
	const char *svg = "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 10\">\n"
			  "<g id=\"gnuplot_canvas\"><path id='gpPt1' d='M0,0'/>"
			  "<use xlink:href='#gpPt1' grid='x'/><rect fill=\"url(#grad)\"/></g></svg>\n";
	struct strbuf out = STRBUF_INIT;
	plot_svg_inline(svg, "f3", &out);
	assert_true(starts_with(out.buf, "<svg"));
	assert_non_null(strstr(out.buf, "id=\"f3-gnuplot_canvas\""));
	assert_non_null(strstr(out.buf, "id='f3-gpPt1'"));
	assert_non_null(strstr(out.buf, "href='#f3-gpPt1'"));
	assert_non_null(strstr(out.buf, "url(#f3-grad)"));
	assert_non_null(strstr(out.buf, "grid='x'"));
	assert_null(strstr(out.buf, "<?xml"));
	strbuf_release(&out);

	struct strbuf q = STRBUF_INIT;
	plot_quote(&q, "it's\nhere");
	assert_string_equal(q.buf, "'it''s here'");
	strbuf_release(&q);
}

static void test_buddyinfo_and_interval(void **state)
{
	(void)state;
	struct report_buddy b = { 0 };
	report_buddy_add("Node 0, zone      DMA      1      2      3\n"
			"Node 0, zone    DMA32     10     20     30     40\n"
			"garbage line\n", &b);
	assert_true(b.have);
	assert_int_equal(b.orders, 4);
	assert_true(b.free[0] == 11 && b.free[1] == 22 && b.free[2] == 33 && b.free[3] == 40);

	double mid, lo, hi;
	const double one[] = { 7 };
	report_interval(one, 1, 0, &mid, &lo, &hi);
	assert_true(mid == 7 && isnan(lo) && isnan(hi));
	const double x[] = { 1, 2, 3, 4, 100 };
	report_interval(x, 5, 0, &mid, &lo, &hi);
	assert_true(mid == 3 && lo <= mid && mid <= hi && lo >= 1 && hi <= 100);
	double mid2, lo2, hi2;
	report_interval(x, 5, 0, &mid2, &lo2, &hi2);      /* seeded: the same again */
	assert_true(lo == lo2 && hi == hi2);
	report_interval(x, 5, 1, &mid, &lo, &hi);
	assert_true(mid == 22);
}

static const struct report_figure *figure(const struct report_figures *f, const char *id)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].id, id))
			return &f->v[i];
	return NULL;
}

static void test_figures_drawn_or_left_out(void **state)
{
	if (!plot_available())
		skip();
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *run = xasprintf("%s/run", (char *)*state);
	assert_int_equal(run_data_add(&rd, run, &err), 0);
	struct report_figures figs;
	report_figures_build(&rd, &figs);
	static const char *const drawn[] = { "oom-kills", "stalls-direct_reclaim",
					     "stalls-direct_compaction", "reaper", "sendvec",
					     "buddyinfo", "memory" };
	for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++) {
		const struct report_figure *f = figure(&figs, drawn[i]);
		if (!f || !f->svg)
			fail_msg("figure %s was not drawn: %s", drawn[i],
				 f && f->absent ? f->absent : "(missing)");
		assert_true(starts_with(f->svg, "<svg"));
		assert_non_null(strstr(f->svg, "</svg>"));
		assert_non_null(f->caption);
	}
	/* no binder-throughput in this run: left out with a reason, never drawn empty */
	const struct report_figure *t = figure(&figs, "throughput");
	assert_non_null(t);
	assert_null(t->svg);
	assert_non_null(strstr(t->absent, "binder-throughput"));
	const struct report_figure *l = figure(&figs, "latency");
	assert_non_null(l);
	assert_null(l->svg);
	/* The figures of this run: the seven drawn above, throughput and latency
	 * left out; each one either drawn or left out with a reason, never both. */
	assert_int_equal(figs.n, 9);
	size_t with_svg = 0;
	for (size_t i = 0; i < figs.n; i++) {
		assert_true((figs.v[i].svg != NULL) != (figs.v[i].absent != NULL));
		with_svg += figs.v[i].svg != NULL;
	}
	assert_int_equal(with_svg, 7);
	assert_int_equal(figs.drawn, 7);
	assert_int_equal(figs.left_out, 2);
	/* ids are unique across the inline SVGs */
	assert_null(strstr(figure(&figs, "reaper")->svg, "id=\"gnuplot_canvas\""));
	report_figures_free(&figs);
	run_data_free(&rd);
	strbuf_release(&err);
	free(run);
}

static void test_report_command(void **state)
{
	if (!plot_available())
		skip();
	char *run = xasprintf("%s/run", (char *)*state);
	char *out = xasprintf("%s/report.html", (char *)*state);
	char *argv[] = { "report", run, "-o", out, NULL };
	/* the trials' guests had the user's files: the environment names them */
	static const char *const groups[] = { "stock", "binder-kcalloc" };
	for (size_t g = 0; g < 2; g++) {
		char *path = xasprintf("%s/%s/000/trial.json", run, groups[g]);
		json_t *t = json_load_file(path, 0, NULL);
		assert_non_null(t);
		json_object_set_new(json_object_get(t, "environment"), "files",
				    json_pack("{s:s, s:[s]}", "hash", "f11e5c0ffee", "dirs", "/home/u/repro"));
		assert_int_equal(json_dump_file(t, path, JSON_INDENT(2)), 0);
		json_decref(t);
		free(path);
	}
	quiet = true;
	fflush(stdout);
	int saved = dup(1);
	freopen("/dev/null", "w", stdout);
	int rc = cmd_report(4, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(rc, 0);
	char *html = read_file(out, NULL);
	assert_non_null(html);
	assert_true(starts_with(html, "<!DOCTYPE html>"));
	assert_non_null(strstr(html, "<table class=\"compare\">"));
	assert_non_null(strstr(html, "<svg"));
	/* the TCG claim */
	assert_non_null(strstr(html, "TCG"));
	assert_non_null(strstr(html, "ratios between variants measured in one run"));
	/* left-out figures say so in one line */
	assert_non_null(strstr(html, "binder-throughput: transactions per second</strong>: left out"));
	assert_non_null(strstr(html, "<th>trial.files.hash</th><td>f11e5c0ffee</td>"));
	assert_non_null(strstr(html, "<th>trial.files.dirs</th><td>[&quot;/home/u/repro&quot;]</td>"));
	/* the lab that wrote the report says its version; the fixture's run.json,
	 * from before run.json had one, still reads and shows none */
	char *version = xasprintf("<th>report.lab_version</th><td>%s</td>", lab_version());
	assert_non_null(strstr(html, version));
	free(version);
	assert_null(strstr(html, "run.lab_version"));
	/* run.json's text is escaped */
	assert_non_null(strstr(html, "a &lt;fixture&gt; &amp; its &quot;quotes&quot;"));
	assert_null(strstr(html, "<fixture>"));
	assert_null(strstr(html, "<script"));
	free(html);
	free(run);
	free(out);
}

/* The complaints section: one line per distinct complaint (the signature
 * trial_metrics wrote), the trials it came up in per group, the stack. */
static json_t *complaint(const char *kind, const char *summary, const char *function,
			 const char *top)
{
	char *sig = xasprintf("%s|%s|%s", kind, summary, function);
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[s, s]}", "kind", kind, "summary", summary,
			      "function", function, "signature", sig, "title", "WARNING: <title>",
			      "frames", top, "caller_of_it");
	free(sig);
	return o;
}

static void complaints(FILE *out, void *rd)
{
	report_complaints_write(out, rd);
}

static void test_complaints_section(void **state)
{
	(void)state;
	struct run_data rd = { 0 };
	strlist_push(&rd.labels, "stock");
	strlist_push(&rd.labels, "stock+debug");
	struct run_trial trials[3] = {
		{ .label = "stock", .index = 0, .outcome = "ok" },
		{ .label = "stock+debug", .index = 0, .outcome = "ok" },
		{ .label = "stock+debug", .index = 1, .outcome = "ok" },
	};
	trials[0].trial = json_pack("{s:[]}", "kernel_complaints");
	trials[1].trial = json_pack("{s:[o, o]}", "kernel_complaints",
				    complaint("sleep-in-atomic", "sleeping function called", "vfree", "vfree"),
				    complaint("warning", "mm/x.c:1", "f<g>", "f<g>"));
	trials[2].trial = json_pack("{s:[o]}", "kernel_complaints",
				    complaint("sleep-in-atomic", "sleeping function called", "vfree", "vfree"));
	rd.trials = trials;
	rd.n = 3;
	char *html = capture(complaints, &rd);
	assert_non_null(strstr(html, "2 distinct complaints in 3 trials"));
	/* the one in two trials comes first, with both trials of its group */
	char *sleep = strstr(html, "<td>sleep-in-atomic</td>"), *warn = strstr(html, "<td>warning</td>");
	assert_non_null(sleep);
	assert_non_null(warn);
	assert_true(sleep < warn);
	assert_non_null(strstr(html, "stock+debug: 2 of 2 (000 001)"));
	assert_non_null(strstr(html, "stock+debug: 1 of 2 (000)"));
	assert_null(strstr(html, "stock: "));
	assert_non_null(strstr(html, "vfree\ncaller_of_it"));
	/* names from the kernel are escaped */
	assert_non_null(strstr(html, "f&lt;g&gt;"));
	assert_null(strstr(html, "<g>"));
	free(html);

	/* trials that read the logs and found nothing say so; trials that never
	 * read them are not taken for quiet ones */
	json_decref(trials[1].trial);
	json_decref(trials[2].trial);
	trials[1].trial = json_pack("{s:[]}", "kernel_complaints");
	trials[2].trial = json_object();
	html = capture(complaints, &rd);
	assert_non_null(strstr(html, "complained in none of the 2 trials"));
	free(html);
	for (size_t i = 0; i < 3; i++)
		json_decref(trials[i].trial);
	strlist_clear(&rd.labels);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_complaints_section),
		cmocka_unit_test(test_html_pieces_escape_data),
		cmocka_unit_test(test_compare_html_escapes),
		cmocka_unit_test(test_svg_inline_prefixes_ids),
		cmocka_unit_test(test_buddyinfo_and_interval),
		cmocka_unit_test_setup_teardown(test_figures_drawn_or_left_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_command, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
