/* Unit tests: each workload declares the metrics it reports (struct
 * workload's metrics), and the declaration holds to its source: every name
 * a report_metric()/report_metricl() call in workloads/<name>.c passes is
 * declared, and every declared name is reported there. The label rows are
 * held to their form (".KEY=VALUE" in key order); which labels a call passes
 * is not followed (they are built at run time, arrays or varargs). */
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

static const char *const report_calls[] = { "report_metric(", "report_metricl(",
					    "report_begin_metric(", NULL };

/* The metric names SOURCE's report calls pass; a failed test for a name that
 * is not a string literal, which no declaration could be held to. */
static void reported_names(const char *file, const char *source, struct strlist *names)
{
	for (const char *const *call = report_calls; *call; call++) {
		for (const char *p = strstr(source, *call); p; p = strstr(p + 1, *call)) {
			if (p > source && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
				continue;   /* another function's name ends so */
			const char *arg = p + strlen(*call);
			arg += strspn(arg, " \t\n");
			if (*arg != '"')
				fail_msg("%s: %s%.20s...: the metric's name is not a string literal", file,
					 *call, arg);
			const char *end = strchr(arg + 1, '"');
			assert_non_null(end);
			char *name = xstrndup(arg + 1, (size_t)(end - arg - 1));
			if (!strlist_has(names, name))
				strlist_push(names, name);
			free(name);
		}
	}
}

/* The metric a declared ROW is of: up to its first '.', malloc'd. */
static char *row_metric(const char *row)
{
	return xstrndup(row, strcspn(row, "."));
}

/* ".KEY=VALUE" segments after the name, keys in order (as trial.json sorts them). */
static void assert_label_form(const char *workload, const char *row)
{
	char *copy = xstrdup(row), *save = NULL, *previous = NULL;
	strtok_r(copy, ".", &save);
	for (char *label = strtok_r(NULL, ".", &save); label; label = strtok_r(NULL, ".", &save)) {
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

static void declarations_hold_to_the_source(void **state)
{
	(void)state;
	size_t workloads = 0;
	for (const struct workload *w = workload_table; w->name; w++, workloads++) {
		/* selftest's names are the test's and its cases' (SUITE.TEST.CASE): "*" */
		if (w->metrics && w->metrics[0] && !strcmp(w->metrics[0], "*")) {
			assert_null(w->metrics[1]);
			assert_string_equal(w->name, "selftest");
			continue;
		}
		char *file = xasprintf("workloads/%s.c", w->name);
		char *source = read_file(file, NULL);
		if (!source)
			fail_msg("%s: cannot read it (the tests run from the checkout)", file);
		struct strlist reported = STRLIST_INIT, declared = STRLIST_INIT;
		reported_names(file, source, &reported);
		assert_non_null(w->metrics);
		for (const char *const *row = w->metrics; *row; row++) {
			char *metric = row_metric(*row);
			if (!strlist_has(&reported, metric))
				fail_msg("%s declares '%s', which %s never reports", w->name, *row, file);
			if (strlist_has(&declared, *row))
				fail_msg("%s declares '%s' twice", w->name, *row);
			strlist_push(&declared, *row);
			assert_label_form(w->name, *row);
			free(metric);
		}
		for (size_t i = 0; i < reported.n; i++) {
			bool found = false;
			for (size_t k = 0; !found && k < declared.n; k++) {
				char *metric = row_metric(declared.items[k]);
				found = !strcmp(metric, reported.items[i]);
				free(metric);
			}
			if (!found)
				fail_msg("%s reports '%s' (%s), but its metrics do not declare it", w->name,
					 reported.items[i], file);
		}
		assert_true(reported.n > 0);
		strlist_clear(&reported);
		strlist_clear(&declared);
		free(source);
		free(file);
	}
	assert_int_equal(workloads, WORKLOAD_COUNT);
}

/* The scan finds what it should: a source with an undeclared or a computed name. */
static void the_scan_sees_every_call(void **state)
{
	(void)state;
	struct strlist names = STRLIST_INIT;
	reported_names("x.c", "report_metric(\"a_ns\", 1, \"ns\", NULL);\n"
			      "report_metricl(\n\t\"b_count\", 2, \"count\", \"k\", \"v\", NULL);\n"
			      "my_report_metric(\"not_this\");\n",
		       &names);
	assert_int_equal(names.n, 2);
	assert_string_equal(names.items[0], "a_ns");
	assert_string_equal(names.items[1], "b_count");
	strlist_clear(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(declarations_hold_to_the_source),
		cmocka_unit_test(the_scan_sees_every_call),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
