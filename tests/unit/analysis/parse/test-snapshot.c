/* test-snapshot.c - the snapshot parsers (analysis/parse/snapshot.c,
 * slabinfo.c, binder_stats.c, workload_metrics.c) against real guest files
 * in tests/samples/ (see tests/samples/README.md).
 *
 * Expected values were read off the files by hand (cat, grep) or computed
 * with awk/bc as the comments say; none comes from running this code.
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

#include "analysis/parse/binder_stats.h"
#include "analysis/parse/slabinfo.h"
#include "analysis/parse/snapshot.h"
#include "analysis/metrics/workload_lines.h"
#include "analysis/metrics/workload_metrics.h"
#include "tests/unit/samples.h"

static void assert_kv(const struct kv_list *l, const char *key, long long expected)
{
	long long v = -12345;
	assert_true(kv_get(l, key, &v));
	assert_int_equal(v, expected);
}

/* memcg-kill/files/{before,after}/vmstat: grep -c . = 160 lines each, all
 * "key value"; before: oom_kill 0, pgmajfault 0, nr_free_pages 119727;
 * after: oom_kill 2, pgmajfault 97, nr_free_pages 104879. */
static void test_vmstat(void **state)
{
	(void)state;
	struct kv_list b = { 0 }, a = { 0 };
	char *before = sample_read("memcg-kill/files/before/vmstat");
	char *after = sample_read("memcg-kill/files/after/vmstat");
	assert_int_equal(kv_parse(before, &b), 160);
	assert_int_equal(kv_parse(after, &a), 160);
	assert_kv(&b, "oom_kill", 0);
	assert_kv(&a, "oom_kill", 2);
	assert_kv(&b, "pgmajfault", 0);
	assert_kv(&a, "pgmajfault", 97);
	assert_kv(&b, "nr_free_pages", 119727);
	assert_kv(&a, "nr_free_pages", 104879);
	long long v;
	assert_false(kv_get(&a, "no_such_counter", &v));
	kv_clear(&b);
	kv_clear(&a);
	free(before);
	free(after);

	/* global-kill: allocstall_movable 0 -> 31 */
	after = sample_read("global-kill/files/after/vmstat");
	kv_parse(after, &a);
	assert_kv(&a, "allocstall_movable", 31);
	assert_kv(&a, "oom_kill", 1);
	kv_clear(&a);
	free(after);
}

/* memcg-kill/files/after/cgroup-memory.events:
 *   low 0 / high 0 / max 264 / oom 13 / oom_kill 2 / oom_group_kill 0 */
static void test_memory_events(void **state)
{
	(void)state;
	struct kv_list a = { 0 };
	char *after = sample_read("memcg-kill/files/after/cgroup-memory.events");
	assert_int_equal(kv_parse(after, &a), 6);
	assert_kv(&a, "low", 0);
	assert_kv(&a, "high", 0);
	assert_kv(&a, "max", 264);
	assert_kv(&a, "oom", 13);
	assert_kv(&a, "oom_kill", 2);
	assert_kv(&a, "oom_group_kill", 0);
	kv_clear(&a);
	free(after);
}

/* memcg-kill/files/after/pressure-memory:
 *   some avg10=1.26 avg60=0.22 avg300=0.04 total=109752
 *   full avg10=0.90 avg60=0.16 avg300=0.03 total=88292
 * memcg-kill/files/after/cgroup-memory.pressure: some total=109865, full total=90481
 * memcg-kill/files/before/pressure-memory: both totals 0 */
static void test_psi(void **state)
{
	(void)state;
	struct psi p;
	char *text = sample_read("memcg-kill/files/after/pressure-memory");
	assert_true(psi_parse(text, &p));
	assert_true(p.have_some && p.have_full);
	assert_int_equal(p.some_total_us, 109752);
	assert_int_equal(p.full_total_us, 88292);
	assert_true(fabs(p.some_avg10 - 1.26) < 1e-9);
	assert_true(fabs(p.full_avg60 - 0.16) < 1e-9);
	assert_true(fabs(p.full_avg300 - 0.03) < 1e-9);
	free(text);
	text = sample_read("memcg-kill/files/after/cgroup-memory.pressure");
	assert_true(psi_parse(text, &p));
	assert_int_equal(p.some_total_us, 109865);
	assert_int_equal(p.full_total_us, 90481);
	free(text);
	text = sample_read("memcg-kill/files/before/pressure-memory");
	assert_true(psi_parse(text, &p));
	assert_int_equal(p.some_total_us, 0);
	free(text);
	/* not PSI: a vmstat file */
	text = sample_read("memcg-kill/files/after/vmstat");
	assert_false(psi_parse(text, &p));
	free(text);
}

/* binder-kmem-cache/files/after/slabinfo (the binder-kmem-cache variant: binder
 * objects in their own caches); grep -vc '^#\|^slabinfo' = 103 caches:
 *   binder_work  340 340  24 170 1 : tunables 0 0 0 : slabdata 2 2 0
 *   binder_thread 34  51 456  17 2 : tunables 0 0 0 : slabdata 3 3 0
 *   binder_proc   25  25 632  25 4 : tunables 0 0 0 : slabdata 1 1 0
 * memory used = num_slabs * pagesperslab * 4096; efficiency (bc):
 *   binder_work   2*1*4096 = 8192,   340*24/8192   = 0.99609375
 *   binder_thread 3*2*4096 = 24576,  34*456/24576  = 0.630859375
 *   binder_proc   1*4*4096 = 16384,  25*632/16384  = 0.96435546875
 * binder/files/after/slabinfo (stock): 97 caches, no binder_ cache;
 *   kmalloc-1k 142 224 1024 16 4 ... slabdata 14 14 0 -> 229376 bytes,
 *   142*1024/229376 = 0.6339285714285714 */
static void test_slabinfo(void **state)
{
	(void)state;
	struct slabinfo s = { 0 };
	char *text = sample_read("binder-kmem-cache/files/after/slabinfo");
	assert_int_equal(slabinfo_parse(text, &s), 103);
	const struct slab_cache *c = slabinfo_cache(&s, "binder_work");
	assert_non_null(c);
	assert_int_equal(c->active_objs, 340);
	assert_int_equal(c->num_objs, 340);
	assert_int_equal(c->objsize, 24);
	assert_int_equal(c->objs_per_slab, 170);
	assert_int_equal(c->pages_per_slab, 1);
	assert_int_equal(c->active_slabs, 2);
	assert_int_equal(c->num_slabs, 2);
	assert_int_equal(slab_cache_bytes(c, 4096), 8192);
	assert_true(fabs(slab_cache_efficiency(c, 4096) - 0.99609375) < 1e-12);
	c = slabinfo_cache(&s, "binder_thread");
	assert_non_null(c);
	assert_int_equal(slab_cache_bytes(c, 4096), 24576);
	assert_true(fabs(slab_cache_efficiency(c, 4096) - 0.630859375) < 1e-12);
	c = slabinfo_cache(&s, "binder_proc");
	assert_non_null(c);
	assert_int_equal(c->objsize, 632);
	assert_int_equal(slab_cache_bytes(c, 4096), 16384);
	assert_true(fabs(slab_cache_efficiency(c, 4096) - 0.96435546875) < 1e-12);
	slabinfo_clear(&s);
	free(text);

	text = sample_read("binder/files/after/slabinfo");
	assert_int_equal(slabinfo_parse(text, &s), 97);
	assert_null(slabinfo_cache(&s, "binder_work"));
	c = slabinfo_cache(&s, "kmalloc-1k");
	assert_non_null(c);
	assert_int_equal(slab_cache_bytes(c, 4096), 229376);
	assert_true(fabs(slab_cache_efficiency(c, 4096) - 0.6339285714285714) < 1e-12);
	slabinfo_clear(&s);
	free(text);

	/* not slabinfo */
	text = sample_read("binder/files/after/binder-stats");
	assert_int_equal(slabinfo_parse(text, &s), -1);
	slabinfo_clear(&s);
	free(text);
}

/* binder/files/after/binder-stats (binder-sendvec, binder-mmap, binder-objects):
 *   proc: active 0 total 205 / thread: active 0 total 215 / node: active 0 total 258
 *   ref: active 0 total 256 / death: active 0 total 256
 *   transaction: active 0 total 940 / transaction_complete: active 0 total 940
 *   BC_TRANSACTION: 470 ... BR_CLEAR_DEATH_NOTIFICATION_DONE: 128 (20 BC_/BR_ lines)
 * binder/files/before/binder-stats: only the "binder stats:" header. */
static void test_binder_stats(void **state)
{
	(void)state;
	struct binder_stats s = { 0 };
	char *text = sample_read("binder/files/after/binder-stats");
	assert_int_equal(binder_stats_parse(text, &s), 7);
	const struct binder_obj_count *o = binder_stats_obj(&s, "proc");
	assert_non_null(o);
	assert_int_equal(o->active, 0);
	assert_int_equal(o->total, 205);
	assert_int_equal(binder_stats_obj(&s, "thread")->total, 215);
	assert_int_equal(binder_stats_obj(&s, "node")->total, 258);
	assert_int_equal(binder_stats_obj(&s, "ref")->total, 256);
	assert_int_equal(binder_stats_obj(&s, "death")->total, 256);
	assert_int_equal(binder_stats_obj(&s, "transaction")->total, 940);
	assert_int_equal(binder_stats_obj(&s, "transaction_complete")->total, 940);
	assert_int_equal(s.n_cmds, 20);
	unsigned long long n = 0;
	assert_true(binder_stats_cmd(&s, "BC_TRANSACTION", &n));
	assert_int_equal(n, 470);
	assert_true(binder_stats_cmd(&s, "BR_CLEAR_DEATH_NOTIFICATION_DONE", &n));
	assert_int_equal(n, 128);
	assert_false(binder_stats_cmd(&s, "BC_NOTHING", &n));
	binder_stats_clear(&s);
	free(text);

	text = sample_read("binder/files/before/binder-stats");
	assert_int_equal(binder_stats_parse(text, &s), 0);
	assert_null(binder_stats_obj(&s, "proc"));
	binder_stats_clear(&s);
	free(text);
}

/* binder-stats-live.txt: the stats file read while binder-objects held its
 * objects (cat during --hold): 13 global BC_/BR_ lines, then
 *   proc: active 2 total 2 / thread: active 8 total 8 / node: active 33 total 33
 *   ref: active 32 total 32 / death: active 32 total 32
 *   transaction: active 0 total 4 / transaction_complete: active 0 total 4
 * then per-process blocks ("proc 52", "  BC_FREE_BUFFER: 2", ...) whose
 * indented counters must not be taken for the global ones (BC_FREE_BUFFER: 4). */
static void test_binder_stats_live(void **state)
{
	(void)state;
	struct binder_stats s = { 0 };
	char *text = sample_read("binder-stats-live.txt");
	assert_int_equal(binder_stats_parse(text, &s), 7);
	assert_int_equal(binder_stats_obj(&s, "proc")->active, 2);
	assert_int_equal(binder_stats_obj(&s, "thread")->active, 8);
	assert_int_equal(binder_stats_obj(&s, "node")->active, 33);
	assert_int_equal(binder_stats_obj(&s, "node")->total, 33);
	assert_int_equal(binder_stats_obj(&s, "death")->active, 32);
	assert_int_equal(binder_stats_obj(&s, "transaction")->active, 0);
	assert_int_equal(binder_stats_obj(&s, "transaction")->total, 4);
	assert_int_equal(s.n_cmds, 13);
	unsigned long long n = 0;
	assert_true(binder_stats_cmd(&s, "BC_FREE_BUFFER", &n));
	assert_int_equal(n, 4);
	assert_true(binder_stats_cmd(&s, "BR_TRANSACTION_COMPLETE", &n));
	assert_int_equal(n, 4);
	binder_stats_clear(&s);
	free(text);
}

static const struct metric_value *find(const struct metric_set *m, const char *name)
{
	const struct metric_value *v = metric_set_get(m, name);
	if (!v)
		fail_msg("no metric %s", name);
	return v;
}

/* binder/out.log (binder-sendvec --sizes 4,4096, binder-mmap --opens 200 and
 * the first 30 binder-objects lines):
 *   grep -c '"type":"metric"' = 54 metric lines, all distinct names
 *   {"type":"metric","workload":"binder-sendvec","name":"sendvec_ns_per_rt",
 *    "value":3708529.506,"unit":"ns","labels":{"size":"4"}}
 *   {"type":"metric","workload":"binder-mmap","name":"mmap_ok","value":200,"unit":"count"}
 *   {"type":"metric","workload":"binder-mmap","name":"mmap_latency_mean_ns",
 *    "value":330119.075,"unit":"ns"}
 *   {"type":"metric","workload":"binder-objects","name":"binder_active","value":0,
 *    "unit":"count","labels":{"type":"proc","when":"before","cycle":"0"}}
 * and three text lines ("binder-sendvec:      4 bytes: ..."), not metrics. */
static void test_workload_metrics(void **state)
{
	(void)state;
	struct metric_set m = METRIC_SET_INIT;
	char *text = sample_read("binder/out.log");
	struct workload_lines lines;
	assert_int_equal(workload_lines_parse(text, strlen(text), &lines, &m), 54);
	assert_int_equal(lines.n, 0);   /* an out.log of before the line runner */
	workload_lines_clear(&lines);
	assert_int_equal(m.n, 54);
	const struct metric_value *v = find(&m, "binder-sendvec.sendvec_ns_per_rt.size=4");
	assert_true(fabs(v->value - 3708529.506) < 1e-9);
	assert_string_equal(v->unit, "ns");
	assert_string_equal(v->source, "out.log");
	v = find(&m, "binder-mmap.mmap_ok");
	assert_true(v->value == 200);
	assert_string_equal(v->unit, "count");
	v = find(&m, "binder-mmap.mmap_latency_mean_ns");
	assert_true(fabs(v->value - 330119.075) < 1e-9);
	/* labels sorted by key: cycle, type, when */
	v = find(&m, "binder-objects.binder_active.cycle=0.type=proc.when=before");
	assert_true(v->value == 0);
	metric_set_clear(&m);
	free(text);

	/* an event line is not a metric */
	char *line = sample_line("binder/out.log", "\"type\":\"event\"", 0);
	assert_non_null(line);
	json_t *obj = json_loads(line, 0, NULL);
	assert_non_null(obj);
	assert_null(workload_metric_name_in(obj, NULL));
	json_decref(obj);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_memory_events),
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_slabinfo),
		cmocka_unit_test(test_binder_stats),
		cmocka_unit_test(test_binder_stats_live),
		cmocka_unit_test(test_workload_metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
