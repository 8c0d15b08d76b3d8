/* test-workload-catalog.c - lab workloads: the workloads as the lab reads
 * them from oomlab-workload --describe (lab/reference/workload-catalog.c), and each
 * declared metric shown with the kind and direction the comparison gives it
 * (lab/reference/workload-reference.c). The real binary is build/guest/oomlab-workload
 * (the tests run from the checkout). */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metric_catalog.h"
#include "common/base/str-list.h"
#include "common/proto/selftest-line.h"
#include "common/util.h"
#include "lab/reference/workload-catalog.h"
#include "lab/reference/workload-reference.h"
#include "lab/run/metric-check.h"

#define WORKLOAD_BINARY "build/guest/oomlab-workload"

/* Two workloads as --describe writes them. */
static const char fixture[] =
	"workload\thog\teats memory\n"
	"usage\tUsage: hog [OPTIONS]\n"
	"usage\tEats memory until killed.\n"
	"usage\t\n"
	"group\tTarget:\n"
	"option\tn\tbytes\tSIZE\thow much (default 1G)\n"
	"option\t\tquiet\t\tsay nothing\n"
	"notes\tOutput: hog_kills (count)\n"
	"metric\toom_kills\n"
	"metric\thog_kills\n"
	"workload\tspawn\tfork+exec\n"
	"usage\tUsage: spawn [OPTIONS]\n"
	"metric\tspawn_per_s\n"
	"metric\tspawn_count\n";

static void parses_the_records(void **state)
{
	(void)state;
	struct workload_catalog c;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(workload_catalog_parse(fixture, &c, &err), 0);
	assert_int_equal(c.n, 2);
	const struct workload_info *hog = &c.items[0];
	assert_string_equal(hog->name, "hog");
	assert_string_equal(hog->summary, "eats memory");
	assert_string_equal(workload_synopsis(hog), "hog [OPTIONS]");
	assert_int_equal(hog->usage.n, 3);
	assert_int_equal(hog->n_options, 3);
	assert_string_equal(hog->options[0].group, "Target:");
	assert_string_equal(hog->options[1].short_name, "n");
	assert_string_equal(hog->options[1].long_name, "bytes");
	assert_string_equal(hog->options[1].arg, "SIZE");
	assert_string_equal(hog->options[1].help, "how much (default 1G)");
	assert_string_equal(hog->options[2].short_name, "");
	assert_string_equal(hog->options[2].arg, "");
	assert_int_equal(hog->notes.n, 1);
	assert_int_equal(hog->metrics.n, 2);
	assert_string_equal(c.items[1].metrics.items[1], "spawn_count");
	workload_catalog_clear(&c);
	strbuf_release(&err);
}

static void assert_refused(const char *text, const char *said)
{
	struct workload_catalog c;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(workload_catalog_parse(text, &c, &err), -1);
	if (!strstr(err.buf, said))
		fail_msg("said \"%s\", wanted \"%s\" in it", err.buf, said);
	strbuf_release(&err);
}

static void a_bad_record_names_its_line(void **state)
{
	(void)state;
	assert_refused("metric\tx\n", "line 1: a record before the first workload");
	assert_refused("workload\ta\tb\noption\tn\tcount\n", "line 2: not a record");
	assert_refused("workload\ta\n", "line 1: a workload record has a name and a summary");
	assert_refused("", "named no workload");
}

/* lab workloads --format json of the fixture, its workloads' metrics. */
static json_t *fixture_metrics(void)
{
	struct workload_catalog c;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(workload_catalog_parse(fixture, &c, &err), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	workload_reference_print(out, REFERENCE_JSON, c.items, c.n);
	fclose(out);
	workload_catalog_clear(&c);
	strbuf_release(&err);
	json_t *doc = json_loads(text, 0, NULL);
	if (!doc)
		fail_msg("not JSON: %s", text);
	free(text);
	json_t *all = json_array();
	size_t i;
	json_t *w;
	json_array_foreach(json_object_get(doc, "workloads"), i, w)
		json_array_extend(all, json_object_get(w, "metrics"));
	json_decref(doc);
	return all;
}

static const char *better_word(enum metric_better better)
{
	return better == BETTER_LOWER ? "lower" : better == BETTER_HIGHER ? "higher" : "neither";
}

/* What lab workloads shows of each metric is what the comparison gives it:
 * hog.oom_kills by the lab's line row, spawn.spawn_per_s and
 * spawn.spawn_count by spawn's rows (common/proto/workload-metrics.h), with
 * their meaning, hog.hog_kills by no row (its unit, neither). */
static void metrics_shown_as_judged(void **state)
{
	(void)state;
	json_t *metrics = fixture_metrics();
	assert_int_equal(json_array_size(metrics), 4);
	size_t i;
	json_t *m;
	json_array_foreach(metrics, i, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		struct metric_def judged;
		metric_catalog_resolve(name, NULL, &judged);
		const struct metric_def *row = metric_catalog_lookup(name);
		const char *better = json_string_value(json_object_get(m, "better"));
		json_t *kind = json_object_get(m, "kind"), *by = json_object_get(m, "judged_by");
		if (strcmp(better, better_word(judged.better)))
			fail_msg("%s shown %s, judged %s", name, better, better_word(judged.better));
		if (row) {
			assert_string_equal(json_string_value(kind), metric_kind_name(judged.kind));
			assert_string_equal(json_string_value(by), row->name);
			assert_string_equal(json_string_value(json_object_get(m, "meaning")), row->meaning);
		} else {
			/* the kind comes from the unit, which only the run knows */
			assert_true(json_is_null(kind));
			assert_true(json_is_null(by));
		}
	}
	/* the sample holds each case */
	assert_string_equal(json_string_value(json_object_get(json_array_get(metrics, 0), "better")), "lower");
	assert_string_equal(json_string_value(json_object_get(json_array_get(metrics, 0), "judged_by")),
			    "*.oom_kills");
	assert_string_equal(json_string_value(json_object_get(json_array_get(metrics, 2), "better")), "higher");
	assert_true(json_is_null(json_object_get(json_array_get(metrics, 1), "judged_by")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(metrics, 3), "judged_by")),
			    "spawn.spawn_count");
	assert_string_equal(json_string_value(json_object_get(json_array_get(metrics, 3), "kind")), "count");
	json_decref(metrics);
}

/* The built binary's --describe: every workload has a summary, a usage, its
 * options (--node at least) and the metrics --metrics lists, in its order. */
static void the_binary_describes_every_workload(void **state)
{
	(void)state;
	struct workload_catalog c;
	struct strlist declared = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	if (workload_catalog_load(WORKLOAD_BINARY, &c, &err) < 0)
		fail_msg("%s", err.buf);
	if (metric_declarations_load(WORKLOAD_BINARY, &declared, &err) < 0)
		fail_msg("%s", err.buf);
	assert_true(c.n >= 9);
	size_t k = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct workload_info *w = &c.items[i];
		assert_true(*w->summary);
		assert_true(strcmp(workload_synopsis(w), w->name));
		bool node = false;
		for (size_t o = 0; o < w->n_options; o++)
			node |= !strcmp(w->options[o].long_name, "node");
		if (!node)
			fail_msg("%s: no --node among its %zu options", w->name, w->n_options);
		for (size_t m = 0; m < w->metrics.n; m++, k++) {
			char *full = xasprintf("%s.%s", w->name, w->metrics.items[m]);
			assert_true(k < declared.n);
			assert_string_equal(full, declared.items[k]);
			free(full);
		}
	}
	assert_int_equal(k, declared.n);
	workload_catalog_clear(&c);
	strlist_clear(&declared);
	strbuf_release(&err);
}

/* The host finds a selftest line's test past the options that take a value
 * (selftest_operand): its list is the built selftest's option table's, both
 * ways, long and short names. */
static void selftest_value_options_are_the_workloads(void **state)
{
	(void)state;
	struct workload_catalog c;
	struct strbuf err = STRBUF_INIT;
	if (workload_catalog_load(WORKLOAD_BINARY, &c, &err) < 0)
		fail_msg("%s", err.buf);
	const struct workload_info *selftest = NULL;
	for (size_t i = 0; i < c.n; i++)
		if (!strcmp(c.items[i].name, "selftest"))
			selftest = &c.items[i];
	assert_non_null(selftest);
	size_t with_value = 0;
	for (size_t o = 0; o < selftest->n_options; o++) {
		const struct workload_option *opt = &selftest->options[o];
		if (*opt->group || !*opt->arg)
			continue;
		if (*opt->long_name) {
			char *name = xasprintf("--%s", opt->long_name);
			if (!str_in_list(name, selftest_value_options))
				fail_msg("selftest's %s %s is not in selftest_value_options", name, opt->arg);
			free(name);
			with_value++;
		}
		if (*opt->short_name) {
			char *name = xasprintf("-%s", opt->short_name);
			if (!str_in_list(name, selftest_value_options))
				fail_msg("selftest's %s %s is not in selftest_value_options", name, opt->arg);
			free(name);
			with_value++;
		}
	}
	size_t listed = 0;
	while (selftest_value_options[listed])
		listed++;
	if (listed != with_value)
		fail_msg("selftest_value_options lists %zu options, selftest has %zu that take a value",
			 listed, with_value);
	workload_catalog_clear(&c);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_records),
		cmocka_unit_test(a_bad_record_names_its_line),
		cmocka_unit_test(metrics_shown_as_judged),
		cmocka_unit_test(the_binary_describes_every_workload),
		cmocka_unit_test(selftest_value_options_are_the_workloads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
