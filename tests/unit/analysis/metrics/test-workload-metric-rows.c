/* test-workload-metric-rows.c - the host judges every figure a workload
 * reports by the row the workload reports it through
 * (common/proto/workload-metrics.h): for each workload, each row and each of
 * its label sets, a name as trial.json writes it ("WORKLOAD.NAME.KEY=VALUE",
 * each '*' of a set or a selftest glob filled in) resolves, through the
 * lab's catalogue first as the comparison looks it up, to that row's kind,
 * direction, unit and meaning, whatever unit the figure carries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metric_catalog.h"
#include "common/proto/workload-metrics.h"
#include "common/util.h"

/* TEXT with each '*' as FILL (malloc'd). */
static char *filled(const char *text, const char *fill)
{
	struct strbuf sb = STRBUF_INIT;
	for (; *text; text++)
		if (*text == '*')
			strbuf_addstr(&sb, fill);
		else
			strbuf_add(&sb, text, 1);
	return strbuf_detach(&sb);
}

static void every_row_is_judged_by_itself(void **state)
{
	(void)state;
	size_t names = 0;
	for (const struct workload_metrics *t = workload_metric_tables; t->workload; t++)
		for (const struct metric_row *row = t->rows; row->name; row++) {
			const char *set;
			for (size_t i = 0; (set = metric_row_label_set(row, i)); i++, names++) {
				char *metric = filled(row->name, "kselftest.mm");
				char *labels = filled(set, "4096");
				char *name = *labels ? xasprintf("%s.%s.%s", t->workload, metric, labels)
						     : xasprintf("%s.%s", t->workload, metric);
				struct metric_def def;
				/* a unit of no kind: a guess would not come out as the row */
				metric_catalog_resolve(name, "widgets", &def);
				const struct metric_def *judge = metric_catalog_lookup(name);
				if (!judge || def.kind != row->kind || def.better != row->better ||
				    strcmp(def.unit, row->unit) || judge->meaning != row->meaning)
					fail_msg("%s: judged as %s, %s, [%s] (row %s), but its row says %s, "
						 "%s, [%s]", name, metric_kind_name(def.kind),
						 metric_better_word(def.better), def.unit,
						 judge ? judge->name : "none", metric_kind_name(row->kind),
						 metric_better_word(row->better), row->unit);
				assert_int_equal(metric_selftest_case(name),
						 row == &selftest_metric_rows[SELFTEST_CASE]);
				free(name);
				free(labels);
				free(metric);
			}
		}
	assert_true(names > WORKLOAD_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_is_judged_by_itself),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
