/* test-metric-reference.c - lab metrics (lab/reference/metric-reference.c): its JSON
 * has every row of both tables with every field, the kind and direction it
 * shows are the ones the comparison gives (metric_catalog_resolve), a GLOB
 * selects the rows it names, and a typo gets the nearest names. */
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
#include "common/util.h"
#include "lab/reference/metric-reference.h"

/* lab metrics --format json [GLOB], parsed; NULL when GLOB selects nothing. */
static json_t *metrics_json(const char *glob)
{
	struct metric_reference *rows;
	size_t n;
	struct strbuf err = STRBUF_INIT;
	int rc = metric_reference_select(glob, &rows, &n, &err);
	strbuf_release(&err);
	if (rc < 0) {
		free(rows);
		return NULL;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	metric_reference_print(out, REFERENCE_JSON, rows, n);
	fclose(out);
	free(rows);
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr);
	if (!doc)
		fail_msg("not JSON: %s: %s", jerr.text, text);
	free(text);
	json_t *metrics = json_incref(json_object_get(doc, "metrics"));
	json_decref(doc);
	assert_true(json_is_array(metrics));
	return metrics;
}

static const char *field(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_string(v))
		fail_msg("%s: '%s' is no string", json_string_value(json_object_get(o, "name")), key);
	return json_string_value(v);
}

static void json_has_every_row_with_every_field(void **state)
{
	(void)state;
	size_t n_lab, n_known;
	const struct metric_def *lab = metric_catalog_rows(&n_lab);
	const struct metric_def *known = metric_known_rows(&n_known);
	json_t *metrics = metrics_json(NULL);
	assert_int_equal(json_array_size(metrics), n_lab + n_known);
	for (size_t i = 0; i < n_lab + n_known; i++) {
		json_t *m = json_array_get(metrics, i);
		const struct metric_def *row = i < n_lab ? &lab[i] : &known[i - n_lab];
		assert_string_equal(field(m, "name"), row->name);
		assert_string_equal(field(m, "table"), i < n_lab ? "lab" : "workload");
		assert_string_equal(field(m, "unit"), row->unit);
		static const char *const said[] = { "kind", "better", "meaning", "source" };
		for (size_t k = 0; k < sizeof(said) / sizeof(said[0]); k++)
			if (!*field(m, said[k]))
				fail_msg("%s: '%s' is empty", row->name, said[k]);
	}
	json_decref(metrics);
}

/* The direction's word as docs/REFERENCE.md and the JSON say it, written
 * here apart from the code under test. */
static const char *better_word(enum metric_better better)
{
	return better == BETTER_LOWER ? "lower" : better == BETTER_HIGHER ? "higher" : "neither";
}

/* The kind and direction lab metrics shows for NAME are those the comparison gives it. */
static void assert_shown_as_judged(const char *name)
{
	json_t *metrics = metrics_json(name);
	if (!metrics)
		fail_msg("lab metrics %s: selects no row", name);
	assert_int_equal(json_array_size(metrics), 1);
	json_t *m = json_array_get(metrics, 0);
	struct metric_def judged;
	metric_catalog_resolve(name, NULL, &judged);
	if (strcmp(field(m, "better"), better_word(judged.better)) ||
	    strcmp(field(m, "kind"), metric_kind_name(judged.kind)))
		fail_msg("lab metrics %s shows %s, %s; the comparison judges it %s, %s", name,
			 field(m, "kind"), field(m, "better"), metric_kind_name(judged.kind),
			 better_word(judged.better));
	json_decref(metrics);
}

static void direction_shown_is_the_comparisons(void **state)
{
	(void)state;
	static const char *const names[] = {
		"trial_ok", "oom_kills", "oom_kills_memcg", "oom_kills.tier=cached", "reaper_wake_delay_ms",
		"reaper_reap_ms", "kernel_warnings.kind=lockdep", "direct_reclaim_stall_p99_us",
		"memcg_reclaim_stall_open", "vmstat_allocstall_normal", "slab_binder_node_efficiency",
		"slab_kmalloc-64_bytes_delta", "cgroup_psi_memory_some_us", "binder_page_array_order3_failed",
		"binder-mmap.exit_status", "binder-mmap.oom_kills", "binder-mmap.mmap_ok",
		"apps.deaths.tier=visible", "apps.switches", "spawn.spawn_per_s", "spawn_per_s",
		"binder-sendvec.sendvec_ns_per_rt.size=4096", "selftest.mm.compaction_test.duration_ns",
		"selftest.mm.compaction_test.case_1",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_shown_as_judged(names[i]);
	/* and every row of the whole list, as its own text (a glob's text is
	 * one of the names it matches) */
	json_t *metrics = metrics_json(NULL);
	for (size_t i = 0; i < json_array_size(metrics); i++) {
		json_t *m = json_array_get(metrics, i);
		struct metric_def judged;
		metric_catalog_resolve(field(m, "name"), NULL, &judged);
		if (strcmp(field(m, "better"), better_word(judged.better)) ||
		    strcmp(field(m, "kind"), metric_kind_name(judged.kind)))
			fail_msg("lab metrics shows %s as %s, %s; the comparison judges it %s, %s",
				 field(m, "name"), field(m, "kind"), field(m, "better"),
				 metric_kind_name(judged.kind), better_word(judged.better));
	}
	json_decref(metrics);
}

static void a_glob_selects_the_rows_it_names(void **state)
{
	(void)state;
	json_t *m = metrics_json("vmstat_pg*");
	assert_int_equal(json_array_size(m), 3);
	assert_string_equal(field(json_array_get(m, 0), "name"), "vmstat_pgmajfault");
	json_decref(m);
	/* no row is written so: the rows that can take one of its names */
	m = metrics_json("slab_binder_node_*");
	assert_true(json_array_size(m) >= 5);
	for (size_t i = 0; i < json_array_size(m); i++)
		assert_true(!strncmp(field(json_array_get(m, i), "name"), "slab_*_", 7));
	json_decref(m);
}

static void assert_refused(const char *glob, const char *said)
{
	struct metric_reference *rows;
	size_t n;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(metric_reference_select(glob, &rows, &n, &err), -1);
	free(rows);
	if (!strstr(err.buf, said))
		fail_msg("'%s': said \"%s\", wanted \"%s\" in it", glob, err.buf, said);
	strbuf_release(&err);
}

static void a_typo_gets_the_nearest_names(void **state)
{
	(void)state;
	assert_refused("oom_kils_memcg", "did you mean 'oom_kills_memcg'");
	assert_refused("spawn.spwn_per_s", "did you mean 'spawn.spawn_per_s'");
	assert_refused("vmstat_pgx*z", "'vmstat_pgx*z' matches no metric of the catalogue");
	assert_refused("slab_[", "'['");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_has_every_row_with_every_field),
		cmocka_unit_test(direction_shown_is_the_comparisons),
		cmocka_unit_test(a_glob_selects_the_rows_it_names),
		cmocka_unit_test(a_typo_gets_the_nearest_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
