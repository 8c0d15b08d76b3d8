/* test-killer-metrics.c - kills by killer and by tier: the guest killer's
 * kmsg lines gathered (each reap joined to its kill), its SIGKILLs picked
 * out of a trace by sender, and the metrics and lists made of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/killer_metrics.h"
#include "analysis/metrics/metric_catalog.h"
#include "common/util.h"

static const char kmsg[] =
	"6,100,2000000,-;some kernel line\n"
	"14,101,2100000,-;lmkd: PSI some event: stall 240ms in the last 1000ms (threshold 200ms), 60ms after crossing it\n"
	"14,102,2100500,-;lmkd: Kill 'hold-900' (300), oom_score_adj 900 (cached) to free 40960kB rss, 512kB swap; reason: psi-partial; psi some 12.50 full 1.25; t_mono_ns 2100000000, sent by 2100000400\n"
	"14,103,2100900,-;lmkd: Process 300 was reaped in 4ms\n"
	"14,104,2500000,-;lmkd: PSI full event: stall 710ms in the last 1000ms (threshold 700ms), -1ms after crossing it\n"
	"14,105,2500100,-;lmkd: Kill 'hold-500' (301), oom_score_adj 500 (service) to free 40000kB rss, 512kB swap; reason: NOT_RESPONDING; psi some 30.00 full 20.00; t_mono_ns 2200000000\n"
	"14,106,2500200,-;lmkd: Kill 'hold-100' (302), oom_score_adj 100 (visible) to free 39000kB rss, 512kB swap; reason: psi-complete; psi some 31.00 full 21.00; t_mono_ns 2300000000\n"
	"14,107,2501000,-;lmkd: Process 302 was reaped in 10ms\n"
	"14,108,2600000,-;lmkd: Process 301 was not reaped in 1000ms\n"
	"14,110,2650000,-;oomd: Killed /sys/fs/cgroup/workload/app-01 (2 processes): memory pressure 72.15% > 60% for 30012ms in /sys/fs/cgroup/workload, pgscan 1234, memory 45678kB; t_mono_ns 2650000000\n"
	"3,109,2700000,-;Out of memory: Killed process 303 (press-0) total-vm:520000kB, anon-rss:500000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1000kB oom_score_adj:0\n";

static const char script[] =
	"oomlab-lmkd   250/250   [000]  2.100600000: signal:signal_generate: sig=9 errno=0 code=0 comm=hold-900 pid=300 grp=1 res=0\n"
	"oomlab-lmkd   250/250   [000]  2.500150000: signal:signal_generate: sig=9 errno=0 code=0 comm=hold-500 pid=301 grp=1 res=0\n"
	"oomlab-lmkd   250/250   [000]  2.500250000: signal:signal_generate: sig=9 errno=0 code=0 comm=hold-100 pid=302 grp=1 res=0\n"
	"oomlab-lmkd   250/250   [000]  2.600000000: signal:signal_generate: sig=15 errno=0 code=0 comm=hold-100 pid=302 grp=1 res=0\n"
	"oomlab-oomd   260/260   [000]  2.650000100: signal:signal_generate: sig=9 errno=0 code=0 comm=app-01 pid=310 grp=1 res=0\n"
	"oomlab-oomd   260/260   [000]  2.650000200: signal:signal_generate: sig=9 errno=0 code=0 comm=app-01 pid=311 grp=1 res=0\n"
	"press-0       303/303   [001]  2.700000000: signal:signal_generate: sig=9 errno=0 code=0 comm=press-0 pid=303 grp=1 res=0\n";

static void record_fn(const struct kmsg_record *rec, void *ctx)
{
	struct trace *t = ctx;
	trace_take_kmsg(t, rec);
}

static void sample_fn(const struct perf_sample *s, void *ctx)
{
	kill_signals_sample(ctx, s);
}

static double value(const struct metric_set *m, const char *name)
{
	const struct metric_value *v = metric_set_get(m, name);
	if (!v)
		fail_msg("no metric %s", name);
	return v->value;
}

static void kills_by_killer_and_tier(void **state)
{
	(void)state;
	struct trace t;
	memset(&t, 0, sizeof(t));
	oom_reports_init(&t.reports);
	lmkd_reports_init(&t.lmkd);
	char *text = xstrdup(kmsg);
	struct kmsg_stats ks = { 0 };
	kmsg_parse_text(text, record_fn, &t, &ks);
	char *trace = xstrdup(script);
	struct perf_script_stats ps = { 0 };
	perf_script_parse_text(trace, sample_fn, &t.sigkills, &ps);

	assert_int_equal(t.lmkd.n_kills, 3);
	assert_int_equal(t.lmkd.n_events, 2);
	/* the killer's SIGTERM is not a kill, and a SIGKILL of another sender's is not the killer's */
	assert_int_equal(t.sigkills.by_kind[KILLER_KIND_LMKD], 3);
	/* each kind's kill lines and SIGKILLs apart: oomd's cgroup.kill of two */
	assert_int_equal(t.killer_kills[KILLER_KIND_LMKD], 3);
	assert_int_equal(t.killer_kills[KILLER_KIND_OOMD], 1);
	assert_int_equal(t.sigkills.by_kind[KILLER_KIND_OOMD], 2);
	assert_int_equal(t.sigkills.by_kind[KILLER_KIND_KERNEL], 0);

	struct metric_set m = METRIC_SET_INIT;
	killer_metrics(&m, &t, KILLER_KIND_OOMD, true);
	assert_int_equal(value(&m, "oomd_kills"), 1);
	assert_int_equal(value(&m, "oomd_kills_trace"), 2);
	assert_null(metric_set_get(&m, "lmkd_kills"));
	assert_non_null(metric_catalog_find("oomd_kills"));
	assert_non_null(metric_catalog_find("oomd_kills_trace"));
	metric_set_clear(&m);

	killer_metrics(&m, &t, KILLER_KIND_LMKD, true);
	assert_null(metric_set_get(&m, "oomd_kills"));
	oom_kills_by_tier(&m, &t.reports);
	assert_int_equal(value(&m, "lmkd_kills"), 3);
	assert_int_equal(value(&m, "lmkd_kills_trace"), 3);
	assert_int_equal(value(&m, "lmkd_kills.tier=cached"), 1);
	assert_int_equal(value(&m, "lmkd_kills.tier=service"), 1);
	assert_int_equal(value(&m, "lmkd_kills.tier=visible"), 1);
	assert_int_equal(value(&m, "lmkd_kills.tier=perceptible"), 0);
	assert_int_equal(value(&m, "lmkd_kills.tier=foreground"), 0);
	/* by lmkd's reason: an older killer's psi-partial and psi-complete are none of them */
	assert_int_equal(value(&m, "lmkd_kills.reason=NOT_RESPONDING"), 1);
	assert_int_equal(value(&m, "lmkd_kills.reason=LOW_MEM"), 0);
	assert_int_equal(value(&m, "lmkd_kills.reason=LOW_FILECACHE_AFTER_THRASHING"), 0);
	assert_null(metric_set_get(&m, "lmkd_kills.reason=NONE"));
	assert_null(metric_set_get(&m, "lmkd_kills.reason=psi-complete"));
	/* each has its catalogue row (what lab metrics and the comparison read) */
	const struct metric_def *row = metric_catalog_find("lmkd_kills.reason=LOW_MEM");
	assert_non_null(row);
	assert_string_equal(row->name, "lmkd_kills.reason=*");
	/* the reaped two (4 and 10 ms): median 7, the unreaped one left out */
	assert_float_equal(value(&m, "lmkd_reap_ms"), 7.0, 1e-9);
	assert_float_equal(value(&m, "lmkd_reap_max_ms"), 10.0, 1e-9);
	assert_int_equal(value(&m, "lmkd_psi_events.kind=some"), 1);
	assert_int_equal(value(&m, "lmkd_psi_events.kind=full"), 1);
	assert_int_equal(value(&m, "oom_kills.tier=foreground"), 1);
	assert_int_equal(value(&m, "oom_kills.tier=cached"), 0);
	metric_set_clear(&m);
	/* without a trace, no trace count */
	killer_metrics(&m, &t, KILLER_KIND_LMKD, false);
	assert_null(metric_set_get(&m, "lmkd_kills_trace"));
	metric_set_clear(&m);

	json_t *kills = lmkd_kills_json(&t.lmkd);
	assert_int_equal(json_array_size(kills), 3);
	json_t *k0 = json_array_get(kills, 0), *k1 = json_array_get(kills, 1), *k2 = json_array_get(kills, 2);
	assert_string_equal(json_string_value(json_object_get(k0, "comm")), "hold-900");
	assert_int_equal(json_integer_value(json_object_get(k0, "usec")), 2100500);
	assert_int_equal(json_integer_value(json_object_get(k0, "t_mono_ns")), 2100000000);
	assert_int_equal(json_integer_value(json_object_get(k0, "t_sent_ns")), 2100000400);
	/* an older killer's line says no second time */
	assert_true(json_is_null(json_object_get(k1, "t_sent_ns")));
	assert_int_equal(json_integer_value(json_object_get(k0, "rss_kb")), 40960);
	assert_int_equal(json_integer_value(json_object_get(k0, "swap_kb")), 512);
	assert_string_equal(json_string_value(json_object_get(k0, "tier")), "cached");
	assert_string_equal(json_string_value(json_object_get(k0, "reason")), "psi-partial");
	assert_float_equal(json_real_value(json_object_get(k0, "psi_some_avg10")), 12.5, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(k0, "reap_ms")), 4);
	assert_true(json_is_true(json_object_get(k0, "reaped")));
	/* each reap to its own kill, though they came out of order */
	assert_true(json_is_false(json_object_get(k1, "reaped")));
	assert_int_equal(json_integer_value(json_object_get(k1, "reap_ms")), 1000);
	assert_int_equal(json_integer_value(json_object_get(k2, "reap_ms")), 10);
	json_decref(kills);
	json_t *events = lmkd_events_json(&t.lmkd);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(events, 0), "after_crossing_ms")), 60);
	assert_true(json_is_null(json_object_get(json_array_get(events, 1), "after_crossing_ms")));
	json_decref(events);

	free(text);
	free(trace);
	oom_reports_release(&t.reports);
	lmkd_reports_release(&t.lmkd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kills_by_killer_and_tier),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
