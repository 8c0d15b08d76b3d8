/* Unit tests: each workload's metrics are its rows (common/proto/workload-metrics.h),
 * and the rows hold to the source: workloads/<name>.c reports every row of its
 * list through ROW(ID), and no metric of its own by a name and unit it writes
 * (report_metric and the like). Each row has a unit and a meaning, and its
 * label sets the form trial.json writes (".KEY=VALUE" in key order). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "workloads/workload.h"

/* Each list's IDs as text, to find them in the workload's source. */
#define ID_TEXT(id, name, unit, kind, better, labels, meaning) #id,
static const struct {
	const char *workload;
	const char *const *ids;
} id_lists[] = {
	{ "binder-sendvec", (const char *const[]){ BINDER_SENDVEC_METRICS(ID_TEXT) NULL } },
	{ "binder-throughput", (const char *const[]){ BINDER_THROUGHPUT_METRICS(ID_TEXT) NULL } },
	{ "binder-objects", (const char *const[]){ BINDER_OBJECTS_METRICS(ID_TEXT) NULL } },
	{ "binder-mmap", (const char *const[]){ BINDER_MMAP_METRICS(ID_TEXT) NULL } },
	{ "spawn", (const char *const[]){ SPAWN_METRICS(ID_TEXT) NULL } },
	{ "oom-hog", (const char *const[]){ OOM_HOG_METRICS(ID_TEXT) NULL } },
	{ "fragment", (const char *const[]){ FRAGMENT_METRICS(ID_TEXT) NULL } },
	{ "selftest", (const char *const[]){ SELFTEST_METRICS(ID_TEXT) NULL } },
	{ "apps", (const char *const[]){ APPS_METRICS(ID_TEXT) NULL } },
};
#undef ID_TEXT

/* The calls that would report a metric by a name the workload writes itself. */
static const char *const own_name_calls[] = { "report_metric(", "report_metricl(",
					      "report_begin_metric(", NULL };

static const char *const *ids_of(const char *workload)
{
	for (size_t i = 0; i < sizeof(id_lists) / sizeof(id_lists[0]); i++)
		if (!strcmp(id_lists[i].workload, workload))
			return id_lists[i].ids;
	return NULL;
}

/* The first call of CALLS in SOURCE (not another function whose name ends so), or NULL. */
static const char *own_name_call(const char *source)
{
	for (const char *const *call = own_name_calls; *call; call++)
		for (const char *p = strstr(source, *call); p; p = strstr(p + 1, *call))
			if (p == source || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
				return p;
	return NULL;
}

/* ".KEY=VALUE" segments, keys in order (as trial.json sorts them). */
static void assert_label_set(const char *workload, const char *row, const char *set)
{
	char *copy = xstrdup(set), *save = NULL, *previous = NULL;
	for (char *label = strtok_r(copy, ".", &save); label; label = strtok_r(NULL, ".", &save)) {
		char *eq = strchr(label, '=');
		if (!eq || eq == label || !eq[1])
			fail_msg("%s: row '%s': '%s' is no KEY=VALUE label", workload, row, label);
		*eq = '\0';
		if (previous && strcmp(previous, label) >= 0)
			fail_msg("%s: row '%s': label keys out of order", workload, row);
		previous = label;
	}
	free(copy);
}

static void rows_hold_to_the_source(void **state)
{
	(void)state;
	size_t workloads = 0;
	for (const struct workload *w = workload_table; w->name; w++, workloads++) {
		const char *const *ids = ids_of(w->name);
		if (!ids)
			fail_msg("%s: no list of IDs in this test (id_lists)", w->name);
		assert_ptr_equal(w->metrics, workload_metric_rows(w->name));
		char *file = xasprintf("workloads/%s.c", w->name);
		char *source = read_file(file, NULL);
		if (!source)
			fail_msg("%s: cannot read it (the tests run from the checkout)", file);
		const char *call = own_name_call(source);
		if (call)
			fail_msg("%s: %.40s...: a metric goes through its row (report_row)", file, call);
		size_t n = 0;
		for (const struct metric_row *row = w->metrics; row->name; row++, n++) {
			assert_non_null(ids[n]);
			char *use = xasprintf("ROW(%s)", ids[n]);
			if (!strstr(source, use))
				fail_msg("%s declares %s ('%s'), which %s never reports", w->name, ids[n],
					 row->name, file);
			free(use);
			if (!row->unit || !*row->unit || !row->meaning || !*row->meaning)
				fail_msg("%s: row '%s' needs a unit and a meaning", w->name, row->name);
			for (const struct metric_row *other = w->metrics; other < row; other++)
				if (!strcmp(other->name, row->name))
					fail_msg("%s declares '%s' twice", w->name, row->name);
			const char *set;
			for (size_t i = 0; (set = metric_row_label_set(row, i)); i++)
				if (*set)
					assert_label_set(w->name, row->name, set);
		}
		assert_null(ids[n]);
		assert_true(n > 0);
		free(source);
		free(file);
	}
	assert_int_equal(workloads, WORKLOAD_COUNT);
}

/* The scan finds what it should: a call by a name of its own, not another function's. */
static void the_scan_sees_a_call_by_name(void **state)
{
	(void)state;
	assert_null(own_name_call("report_row(ROW(A), 1, NULL);\nmy_report_metric(\"x\");\n"));
	const char *s = "x;\n\treport_metricl(\"b_count\", 2, \"count\", \"k\", \"v\", NULL);\n";
	assert_ptr_equal(own_name_call(s), strstr(s, "report_metricl("));
}

/* A row's label sets: none, one, or a figure with and without labels. */
static void label_sets(void **state)
{
	(void)state;
	const struct metric_row plain = { "a", "ns", METRIC_TIME, BETTER_LOWER, "m", METRIC_NO_LABELS };
	const struct metric_row both = { "b", "count", METRIC_COUNT, BETTER_LOWER, "m",
					 METRIC_LABELS("", "tier=*") };
	assert_string_equal(metric_row_label_set(&plain, 0), "");
	assert_null(metric_row_label_set(&plain, 1));
	assert_string_equal(metric_row_label_set(&both, 0), "");
	assert_string_equal(metric_row_label_set(&both, 1), "tier=*");
	assert_null(metric_row_label_set(&both, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_hold_to_the_source),
		cmocka_unit_test(the_scan_sees_a_call_by_name),
		cmocka_unit_test(label_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
