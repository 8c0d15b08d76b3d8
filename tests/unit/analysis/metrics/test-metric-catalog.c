/* test-metric-catalog.c - the catalogue of the lab's own metrics
 * (analysis/metrics/lab_metric_rows.h, metric_catalog.c): every row says what
 * it is and where it comes from, the makers add their figures only through
 * their rows (lab_metric_add.h), and a name fits its row only when it matches
 * the row's glob. The names the makers format at run time are held to their
 * rows over the real sample trials by test-trial-metrics.
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
#include "common/util.h"

/* The files that compute the lab's own figures. */
static const char *const maker_files[] = { "analysis/metrics/trial_metrics.c",
					   "analysis/metrics/killer_metrics.c",
					   "analysis/metrics/workload_lines.c", NULL };

/* No maker adds a figure past its row: metric_set_add() would take a name
 * and a unit of the caller's own. */
static void makers_add_only_by_row(void **state)
{
	(void)state;
	for (const char *const *file = maker_files; *file; file++) {
		char *source = read_file(*file, NULL);
		if (!source)
			fail_msg("%s: cannot read it (the tests run from the checkout)", *file);
		const char *call = strstr(source, "metric_set_add(");
		if (call)
			fail_msg("%s: %.60s: add it by its row (lab_metric_add.h)", *file, call);
		assert_non_null(strstr(source, "lab_metric_add"));
		free(source);
	}
}

/* ID indexes its row, and every row the lab writes has a unit. */
static void ids_index_their_rows(void **state)
{
	(void)state;
	assert_string_equal(metric_catalog_row(LAB_TRIAL_OK)->name, "trial_ok");
	assert_string_equal(metric_catalog_row(LAB_OOM_KILLS_MEMCG)->unit, "count");
	assert_string_equal(metric_catalog_row(LAB_SLAB_BYTES)->name, "slab_*_bytes");
	for (int id = 0; id < LAB_METRIC_COUNT; id++) {
		const struct metric_def *row = metric_catalog_row(id);
		assert_non_null(row->name);
		/* "": as recorded, for older records' names the lab writes no more */
		if (!*row->unit && id != LAB_OOM_KILLS_ANY && id != LAB_OOM_INVOCATIONS_ANY)
			fail_msg("lab_metric_rows.h: %s has no unit", row->name);
	}
}

/* A name is of its row when it is the row's name or matches its glob; a
 * killer's names are of LAB_KILLER_ROWS. */
static void a_name_fits_its_rows_glob(void **state)
{
	(void)state;
	assert_non_null(metric_catalog_row_of(LAB_OOM_KILLS_MEMCG, "oom_kills_memcg"));
	assert_null(metric_catalog_row_of(LAB_OOM_KILLS_MEMCG, "oom_kills_global"));
	assert_ptr_equal(metric_catalog_row_of(LAB_OOM_KILLS_TIER, "oom_kills.tier=cached"),
			 metric_catalog_row(LAB_OOM_KILLS_TIER));
	assert_null(metric_catalog_row_of(LAB_OOM_KILLS_TIER, "oom_kills.kind=cached"));
	assert_non_null(metric_catalog_row_of(LAB_SLAB_BYTES, "slab_kmalloc-64_bytes"));
	assert_null(metric_catalog_row_of(LAB_SLAB_BYTES, "slab_kmalloc-64_objsize"));
	assert_non_null(metric_catalog_row_of(LAB_STALL_TIME_US, "direct_reclaim_stall_p99_us"));
	const struct metric_def *lmkd = metric_catalog_row_of(LAB_KILLER_ROWS, "lmkd_kills");
	assert_non_null(lmkd);
	assert_string_equal(lmkd->unit, metric_catalog_row(LAB_KILLER_ROWS)->unit);
	assert_non_null(metric_catalog_row_of(LAB_KILLER_ROWS, "lmkd_kills_trace"));
	assert_null(metric_catalog_row_of(LAB_KILLER_ROWS, "lmkd_kill"));
	assert_null(metric_catalog_row_of(LAB_KILLER_ROWS, LAB_KILLER_ROWS_NAME));
}

static bool described(const struct metric_def *d)
{
	return d && d->meaning && *d->meaning && d->source && *d->source;
}

/* Every row of both tables says what it is and where it comes from. */
static void every_row_is_described(void **state)
{
	(void)state;
	size_t n;
	const struct metric_def *rows = metric_catalog_rows(&n);
	for (size_t i = 0; i < n; i++)
		if (!described(&rows[i]))
			fail_msg("metric_catalog.c: %s has no meaning or no source", rows[i].name);
	rows = metric_known_rows(&n);
	for (size_t i = 0; i < n; i++)
		if (!described(&rows[i]))
			fail_msg("compare/metric.c: %s has no meaning or no source", rows[i].name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(makers_add_only_by_row),
		cmocka_unit_test(ids_index_their_rows),
		cmocka_unit_test(a_name_fits_its_rows_glob),
		cmocka_unit_test(every_row_is_described),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
