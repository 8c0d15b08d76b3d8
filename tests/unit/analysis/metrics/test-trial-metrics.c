/* test-trial-metrics.c - a trial folder's metrics (analysis/metrics/trial_metrics.c)
 * on the real trial folders in tests/samples/ (trimmed copies of real boots,
 * see tests/samples/README.md): OOM victims and the reaper timeline, OOM kill
 * totals by source, counter deltas, slab and binder figures, partial trials,
 * and that writing trial.json twice gives the same bytes.
 *
 * Expected values were read off the sample files by hand, or computed with
 * grep/awk/python3 arithmetic on the numbers there, as each comment says;
 * none comes from running this code.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/metrics/metric_catalog.h"
#include "analysis/metrics/trial_metrics.h"
#include "tests/unit/samples.h"

static json_t *compute(const char *sample)
{
	char *dir = sample_path(sample);
	struct strbuf err = STRBUF_INIT;
	json_t *out = NULL;
	if (trial_metrics_compute(dir, &out, &err) < 0)
		fail_msg("%s: %s", dir, err.buf);
	strbuf_release(&err);
	free(dir);
	return out;
}

static json_t *metric(json_t *out, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(out, "metrics"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "name")), name))
			return m;
	return NULL;
}

#define assert_metric(out, name, value, unit, source) \
	assert_metric_at((out), (name), (value), (unit), (source), __FILE__, __LINE__)

static void assert_metric_at(json_t *out, const char *name, double value, const char *unit,
			     const char *source, const char *file, int line)
{
	json_t *m = metric(out, name);
	if (!m) {
		print_error("no metric %s\n", name);
		_fail(file, line);
	}
	double v = json_number_value(json_object_get(m, "value"));
	const char *u = json_string_value(json_object_get(m, "unit"));
	const char *s = json_string_value(json_object_get(m, "source"));
	if (fabs(v - value) > 1e-6 * fmax(1.0, fabs(value)) || strcmp(u, unit) ||
	    (source && strcmp(s, source))) {
		print_error("%s = %.9g %s (%s), expected %.9g %s (%s)\n", name, v, u, s, value, unit,
			    source ? source : "any");
		_fail(file, line);
	}
}

static json_int_t victim_int(json_t *v, const char *key)
{
	json_t *x = json_object_get(v, key);
	if (!json_is_integer(x))
		fail_msg("victim field %s is not an integer", key);
	return json_integer_value(x);
}

/* reaper-stock (oom-hog --mode reaper on stock, phone-512m): perf.script
 *   mark_victim pid=45 at 7.930515847, wake_reaper 9.948461868,
 *   start_task_reaping 9.948854492, finish_task_reaping 10.170840339,
 *   sched_process_exit of 45/45 at 7.932871930 and of 45/46 at 18.266629881
 * kmsg: "Out of memory: Killed process 45 (oom-hog) total-vm:540116kB,
 *   anon-rss:466268kB, file-rss:1412kB, shmem-rss:0kB, UID:0 pgtables:976kB
 *   oom_score_adj:1000" at usec 7883227, after CONSTRAINT_NONE for pid=45.
 * Delays (python3): wake 2017.946021 ms (OOM_REAPER_DELAY, 2 s), finish
 * 2240.324492, reap 221.985847, exit 10336.114034. */
static void test_reaper_stock(void **state)
{
	(void)state;
	json_t *out = compute("reaper-stock");
	json_t *victims = json_object_get(out, "victims");
	assert_int_equal(json_array_size(victims), 1);
	json_t *v = json_array_get(victims, 0);
	assert_int_equal(victim_int(v, "pid"), 45);
	assert_string_equal(json_string_value(json_object_get(v, "comm")), "oom-hog");
	assert_string_equal(json_string_value(json_object_get(v, "constraint")), "global");
	assert_int_equal(victim_int(v, "anon_rss_kb"), 466268);
	assert_int_equal(victim_int(v, "file_rss_kb"), 1412);
	assert_int_equal(victim_int(v, "shmem_rss_kb"), 0);
	assert_int_equal(victim_int(v, "oom_score_adj"), 1000);
	assert_int_equal(victim_int(v, "killed_ns"), 7883227000LL);
	assert_int_equal(victim_int(v, "mark_victim_ns"), 7930515847LL);
	assert_int_equal(victim_int(v, "wake_reaper_ns"), 9948461868LL);
	assert_int_equal(victim_int(v, "start_reaping_ns"), 9948854492LL);
	assert_int_equal(victim_int(v, "finish_reaping_ns"), 10170840339LL);
	assert_true(json_is_null(json_object_get(v, "skip_reaping_ns")));
	assert_int_equal(victim_int(v, "exit_ns"), 18266629881LL);
	assert_true(json_is_true(json_object_get(v, "reaped_before_exit")));

	assert_metric(out, "reaper_wake_delay_ms", 2017.946021, "ms", "trace");
	assert_metric(out, "reaper_finish_delay_ms", 2240.324492, "ms", "trace");
	assert_metric(out, "reaper_reap_ms", 221.985847, "ms", "trace");
	assert_metric(out, "oom_victim_exit_ms", 10336.114034, "ms", "trace");
	assert_metric(out, "reaper_wakes", 1, "count", "trace");
	assert_metric(out, "reaper_reaped", 1, "count", "trace");
	assert_metric(out, "reaped_before_exit", 1, "count", "trace");
	assert_metric(out, "oom_reaped_kmsg", 1, "count", "kmsg");
	assert_metric(out, "oom_kills", 1, "count", NULL);
	assert_metric(out, "oom_kills_global", 1, "count", "kmsg");
	assert_metric(out, "oom_kills_memcg", 0, "count", "kmsg");
	assert_true(json_is_false(json_object_get(out, "partial")));
	json_decref(out);
}

/* reaper-nodelay (the same on oom-reaper-nodelay, OOM_REAPER_DELAY 0):
 *   mark_victim 5.895271829, wake_reaper 5.896810581, start 5.897096068,
 *   finish 6.020988196; exits 45/45 5.902367680, 45/46 17.315314415
 * python3: wake 1.538752 ms, reap 123.892128, exit 11420.042586. */
static void test_reaper_nodelay(void **state)
{
	(void)state;
	json_t *out = compute("reaper-nodelay");
	json_t *v = json_array_get(json_object_get(out, "victims"), 0);
	assert_non_null(v);
	assert_int_equal(victim_int(v, "wake_reaper_ns"), 5896810581LL);
	assert_int_equal(victim_int(v, "exit_ns"), 17315314415LL);
	assert_true(json_is_true(json_object_get(v, "reaped_before_exit")));
	assert_metric(out, "reaper_wake_delay_ms", 1.538752, "ms", "trace");
	assert_metric(out, "reaper_reap_ms", 123.892128, "ms", "trace");
	assert_metric(out, "oom_victim_exit_ms", 11420.042586, "ms", "trace");
	json_decref(out);
}

/* memcg-kill (oom-hog --mode memcg --hogs 2 --kills 2 --memcg-max 64M):
 *   kmsg: 2 "Memory cgroup out of memory: Killed process" (46, then 45), both
 *     CONSTRAINT_MEMCG; vmstat oom_kill 0 -> 2; memory.events oom_kill 0 -> 2;
 *     perf.script: 2 oom:mark_victim (46 at 2.650034199, 45 at 3.091289634),
 *     exits 46/46 2.744248627 and 45/45 3.106387526; no wake_reaper (both
 *     exited before the reaper's timer).
 *   memory.events max 0 -> 264 = the 264 memcg reclaim pairs (each charge
 *     that hits memory.max reclaims once); oom 0 -> 13.
 *   PSI totals: system some 0 -> 109752, full 0 -> 88292; cgroup some 0 ->
 *     109865, full 0 -> 90481; vmstat pgmajfault 0 -> 97.
 *   alloc_stall_time_total_ms: the memcg reclaim total 265202772 ns (awk).
 *   python3: exit delays 94.214428 and 15.097892 ms, median 54.65616. */
static void test_memcg_kill(void **state)
{
	(void)state;
	json_t *out = compute("memcg-kill");
	assert_metric(out, "oom_kills", 2, "count", NULL);
	assert_metric(out, "oom_kills_memcg", 2, "count", "kmsg");
	assert_metric(out, "oom_kills_global", 0, "count", "kmsg");
	assert_metric(out, "oom_kills_kmsg", 2, "count", "kmsg");
	assert_metric(out, "oom_kills_vmstat", 2, "count", "vmstat");
	assert_metric(out, "oom_kills_memory_events", 2, "count", "memory.events");
	assert_metric(out, "oom_kills_trace", 2, "count", "trace");
	assert_metric(out, "oom_victims", 2, "count", NULL);
	assert_metric(out, "reaper_wakes", 0, "count", "trace");
	assert_metric(out, "memory_events_max", 264, "count", "memory.events");
	assert_metric(out, "memcg_reclaim_stall_count", 264, "count", "trace");
	assert_metric(out, "memory_events_oom", 13, "count", "memory.events");
	assert_metric(out, "psi_memory_some_us", 109752, "us", "pressure");
	assert_metric(out, "psi_memory_full_us", 88292, "us", "pressure");
	assert_metric(out, "cgroup_psi_memory_some_us", 109865, "us", "memory.pressure");
	assert_metric(out, "cgroup_psi_memory_full_us", 90481, "us", "memory.pressure");
	assert_metric(out, "vmstat_pgmajfault", 97, "count", "vmstat");
	assert_metric(out, "alloc_stall_time_total_ms", 265.202772, "ms", "trace");
	assert_metric(out, "memcg_reclaim_stall_p99_us", 13109.27613, "us", "trace");
	assert_metric(out, "reclaim_stall_p99_us", 13109.27613, "us", "trace");
	assert_metric(out, "oom_victim_exit_ms", 54.65616, "ms", "trace");
	/* no reaper figure without a wake */
	assert_null(metric(out, "reaper_wake_delay_ms"));
	/* the workload's own figures, named <workload>.<name> */
	assert_metric(out, "oom-hog.oomhog_victims_lost", 2, "count", "out.log");
	assert_metric(out, "oom-hog.memcg_max", 264, "count", "out.log");

	json_t *victims = json_object_get(out, "victims");
	assert_int_equal(json_array_size(victims), 2);
	json_t *v = json_array_get(victims, 0);
	assert_int_equal(victim_int(v, "pid"), 46);
	assert_string_equal(json_string_value(json_object_get(v, "constraint")), "memcg");
	assert_int_equal(victim_int(v, "mark_victim_ns"), 2650034199LL);
	assert_int_equal(victim_int(v, "exit_ns"), 2744248627LL);
	assert_true(json_is_null(json_object_get(v, "wake_reaper_ns")));
	assert_true(json_is_false(json_object_get(v, "reaped_before_exit")));
	assert_int_equal(victim_int(json_array_get(victims, 1), "pid"), 45);
	assert_int_equal(json_integer_value(json_object_get(out, "lost_events")), 0);
	assert_true(json_is_false(json_object_get(out, "partial")));
	json_decref(out);
}

/* fragmented (binder-kcalloc, phone-512m-fragmented, binder-mmap): awk
 * (README) direct compaction n=29 total=51715954 p99=20564848.32; 43
 * try_to_compact_pages; the page_alloc/extfrag counts of test-metrics-stall;
 * kmsg: "Out of memory: Killed process 46 (binder-mmap)", CONSTRAINT_NONE. */
static void test_fragmented(void **state)
{
	(void)state;
	json_t *out = compute("fragmented");
	assert_metric(out, "direct_compaction_stall_count", 29, "count", "trace");
	assert_metric(out, "direct_compaction_stall_total_us", 51715.954, "us", "trace");
	assert_metric(out, "direct_compaction_stall_p99_us", 20564.84832, "us", "trace");
	assert_metric(out, "direct_compaction_attempts", 43, "count", "trace");
	assert_metric(out, "page_alloc_high_order_failed", 3, "count", "trace");
	assert_metric(out, "page_alloc_order3", 13, "count", "trace");
	assert_metric(out, "page_alloc_high_order_pages", 160, "pages", "trace");
	assert_metric(out, "extfrag_fragmenting", 30, "count", "trace");
	assert_metric(out, "oom_kills_global", 1, "count", "kmsg");
	/* direct reclaim 109808134 + compaction 51715954 ns, no memcg reclaim */
	assert_metric(out, "alloc_stall_time_total_ms", 161.524088, "ms", "trace");
	/* kmsg line 413: "binder-mmap: page allocation failure: order:3, ..." and no other complaint */
	assert_metric(out, "kernel_warnings", 1, "count", "kmsg+console");
	assert_metric(out, "kernel_warnings.kind=alloc-failure", 1, "count", "kmsg+console");
	assert_metric(out, "kernel_warnings.kind=warning", 0, "count", "kmsg+console");
	assert_metric(out, "kernel_warnings.kind=lockdep", 0, "count", "kmsg+console");
	json_t *complaints = json_object_get(out, "kernel_complaints");
	assert_int_equal(json_array_size(complaints), 1);
	json_t *first = json_array_get(complaints, 0);
	assert_string_equal(json_string_value(json_object_get(first, "kind")), "alloc-failure");
	assert_int_equal(json_integer_value(json_object_get(first, "order")), 3);
	assert_string_equal(json_string_value(json_object_get(first, "function")), "binder_alloc_mmap_handler");
	json_decref(out);
}

/* binder (stock, binder-sendvec + binder-mmap + binder-objects): binder-stats
 * before has no object lines, after: proc total 205, transaction total 940,
 * all active 0; slabinfo kmalloc-1k: before 7 slabs * 4 pages * 4096 =
 * 114688 B, after 14 * 4 * 4096 = 229376 B (awk $15*$6*4096), delta 114688;
 * no binder_ cache on stock.
 * binder-kmem-cache (binder objects in their own caches): awk sum of
 * $15*$6*4096 over binder_* = 126976 bytes; binder_work 8192 B, efficiency
 * 340*24/8192 = 0.99609375. */
static void test_binder(void **state)
{
	(void)state;
	json_t *out = compute("binder");
	assert_metric(out, "binder_proc_created", 205, "count", "binder-stats");
	assert_metric(out, "binder_proc_active", 0, "count", "binder-stats");
	assert_metric(out, "binder_transaction_created", 940, "count", "binder-stats");
	assert_metric(out, "slab_kmalloc-1k_bytes", 229376, "bytes", "slabinfo");
	assert_metric(out, "slab_kmalloc-1k_bytes_delta", 114688, "bytes", "slabinfo");
	/* A kmalloc cache's geometry is a constant of the kernel: only binder's own caches get it. */
	assert_null(metric(out, "slab_kmalloc-1k_objsize"));
	assert_null(metric(out, "slab_kmalloc-1k_pages_per_slab"));
	assert_null(metric(out, "slab_kmalloc-cg-1k_bytes"));
	assert_metric(out, "slab_binder_bytes", 0, "bytes", "slabinfo");
	/* num_slabs x pages_per_slab x 4096 over all 97 caches, summed with awk */
	assert_metric(out, "slab_total_bytes", 10366976, "bytes", "slabinfo");
	assert_metric(out, "binder-mmap.mmap_ok", 200, "count", "out.log");
	json_decref(out);

	out = compute("binder-kmem-cache");
	assert_metric(out, "slab_binder_bytes", 126976, "bytes", "slabinfo");
	assert_metric(out, "slab_total_bytes", 10174464, "bytes", "slabinfo");
	assert_metric(out, "slab_binder_work_bytes", 8192, "bytes", "slabinfo");
	assert_metric(out, "slab_binder_work_efficiency", 0.99609375, "ratio", "slabinfo");
	assert_metric(out, "slab_binder_work_active_objs", 340, "count", "slabinfo");
	assert_metric(out, "slab_binder_work_objs_per_slab", 170, "count", "slabinfo");
	json_decref(out);
}

/* arm64-16k (binder-kvcalloc-16k's stock trial 000, arm64 with 16 KiB
 * pages): the hello says page_size 16384, and slabinfo counts in those
 * pages. kmalloc-8k holds 16 objects of 8192 B in slabs of 8 pages, which
 * only fits 16 KiB pages: 10 slabs * 8 * 16384 = 1310720 B; every cache,
 * awk '$15*$6*16384' summed: 21823488 B (a quarter of it with 4096). */
static void test_arm64_16k_slab(void **state)
{
	(void)state;
	json_t *out = compute("arm64-16k");
	assert_metric(out, "slab_kmalloc-8k_bytes", 1310720, "bytes", "slabinfo");
	assert_metric(out, "slab_total_bytes", 21823488, "bytes", "slabinfo");
	json_decref(out);
}

/* hang-cut: a guest the lab stopped as hung (oom-hog --respawn under
 * tiny-256m); no files/after, ctl.jsonl without an "exit" line (grep -c 0):
 * partial.  kmsg (OOM lines only): 98 kills, all global.  perf.script: the
 * last 200 lines, no oom: event (grep), 2 direct reclaim ends without begin. */
static void test_partial_hang(void **state)
{
	(void)state;
	json_t *out = compute("hang-cut");
	assert_true(json_is_true(json_object_get(out, "partial")));
	assert_metric(out, "oom_kills", 98, "count", "kmsg");
	assert_metric(out, "oom_kills_kmsg", 98, "count", "kmsg");
	assert_metric(out, "oom_kills_global", 98, "count", "kmsg");
	assert_metric(out, "oom_kills_trace", 0, "count", "trace");
	assert_metric(out, "direct_reclaim_stall_unmatched_end", 2, "count", "trace");
	assert_metric(out, "direct_reclaim_stall_open", 0, "count", "trace");
	/* no after-snapshots: no deltas */
	assert_null(metric(out, "oom_kills_vmstat"));
	assert_null(metric(out, "vmstat_pgmajfault"));
	assert_null(metric(out, "memory_events_oom_kill"));
	assert_null(metric(out, "psi_memory_some_us"));
	/* victims from the kernel log alone: no trace times */
	json_t *victims = json_object_get(out, "victims");
	assert_int_equal(json_array_size(victims), 98);
	json_t *v = json_array_get(victims, 0);
	assert_true(json_is_null(json_object_get(v, "mark_victim_ns")));
	assert_string_equal(json_string_value(json_object_get(v, "constraint")), "global");
	json_decref(out);
}

/* panic-on-oom: vm.panic_on_oom=1, the first OOM panics the guest; the
 * recording did not survive (perf.script empty: perf script failed on the cut
 * stream), no files/after, ctl.jsonl without "exit".  kmsg: 1 "invoked
 * oom-killer", no kill. */
static void test_partial_panic(void **state)
{
	(void)state;
	json_t *out = compute("panic-on-oom");
	assert_true(json_is_true(json_object_get(out, "partial")));
	assert_metric(out, "oom_kills", 0, "count", "kmsg");
	assert_metric(out, "oom_invocations_kmsg", 1, "count", "kmsg");
	/* an empty trace is no trace: no zero stall figures */
	assert_null(metric(out, "direct_reclaim_stall_count"));
	assert_null(metric(out, "oom_kills_trace"));
	assert_int_equal(json_array_size(json_object_get(out, "victims")), 0);
	json_decref(out);
}

/*
 * The metrics the lab computes itself (every name without a workload's
 * "workload." prefix) are judged by the one table of metrics
 * (analysis/metrics/metric_catalog.c): each has a row there, so it gets a kind and
 * a direction rather than only "differs", and the unit it is written with
 * is that row's, where the row names one; the row says what the figure is
 * and where it comes from (lab metrics prints it). Over every sample trial.
 */
static void test_every_lab_metric_is_catalogued(void **state)
{
	(void)state;
	static const char *const samples[] = { "arm64-16k", "binder-kmem-cache", "binder", "comm-space",
		"complaints", "fragmented", "global-kill", "hang-cut", "memcg-kill", "panic-on-oom",
		"reaper-nodelay", "reaper-stock", "warn-binder", NULL };
	int checked = 0, bad = 0;
	for (const char *const *sample = samples; *sample; sample++) {
		json_t *out = compute(*sample);
		size_t i;
		json_t *m;
		json_array_foreach(json_object_get(out, "metrics"), i, m) {
			const char *name = json_string_value(json_object_get(m, "name"));
			const char *unit = json_string_value(json_object_get(m, "unit"));
			if (strchr(name, '.') && strncmp(name, "kernel_warnings.", 16))
				continue;
			const struct metric_def *def = metric_catalog_find(name);
			checked++;
			if (!def) {
				print_error("%s: %s (%s) is in no row of metric_catalog.c\n", *sample, name, unit);
				bad++;
			} else if (*def->unit && strcmp(def->unit, unit)) {
				print_error("%s: %s is written in '%s' but metric_catalog.c says '%s'\n", *sample, name, unit,
					    def->unit);
				bad++;
			} else if (!def->meaning || !*def->meaning || !def->source || !*def->source) {
				print_error("%s: %s: its row %s has no meaning or no source\n", *sample, name,
					    def->name);
				bad++;
			}
		}
		json_decref(out);
	}
	assert_true(checked > 100);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reaper_stock),
		cmocka_unit_test(test_reaper_nodelay),
		cmocka_unit_test(test_memcg_kill),
		cmocka_unit_test(test_fragmented),
		cmocka_unit_test(test_binder),
		cmocka_unit_test(test_arm64_16k_slab),
		cmocka_unit_test(test_partial_hang),
		cmocka_unit_test(test_partial_panic),
		cmocka_unit_test(test_every_lab_metric_is_catalogued),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
