/* test-kernel-text.c - the parsers of the kernel's text files that the guest
 * and the lab share (common/kernel-text/): one rule per format, the edges
 * of each rule. Real whole files are tested in tests/unit/analysis/parse/
 * (the lab's use) and tests/unit/workloads/ (the guest's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/kernel-text/binder-stats.h"
#include "common/kernel-text/buddyinfo.h"
#include "common/kernel-text/kmsg.h"
#include "common/kernel-text/kv.h"
#include "common/kernel-text/oom-lines.h"
#include "common/kernel-text/psi.h"
#include "common/kernel-text/slabinfo.h"

static bool line(const char *s, struct kv_pair *p)
{
	return kv_parse_line(s, strlen(s), p);
}

static void test_kv_rule(void **state)
{
	(void)state;
	struct kv_pair p;
	assert_true(line("pgscan_direct 12345", &p));
	assert_string_equal(p.key, "pgscan_direct");
	assert_int_equal(p.value, 12345);
	assert_true(line("MemAvailable:    497856 kB", &p));      /* meminfo: ':' and a unit */
	assert_string_equal(p.key, "MemAvailable");
	assert_int_equal(p.value, 497856);
	assert_true(line("VmRSS:\t  4096 kB", &p));
	assert_int_equal(p.value, 4096);
	assert_true(line("nr_zone_write_pending -3", &p));
	assert_int_equal(p.value, -3);
	assert_false(line("oom_kill", &p));                        /* no value */
	assert_false(line("oom_kill 12x", &p));                    /* not a number */
	assert_false(line("oom_kill -", &p));
	assert_false(line(" 12", &p));                             /* no key */
	assert_false(line("some avg10=0.00 avg60=0.00", &p));
	assert_false(line("big 99999999999999999999999", &p));
	char longkey[KV_KEY_MAX + 8];
	memset(longkey, 'k', KV_KEY_MAX + 1);
	strcpy(longkey + KV_KEY_MAX + 1, " 1");
	assert_false(line(longkey, &p));
	/* only LEN bytes count: the rest of the buffer is not the line */
	assert_true(kv_parse_line("low 5\nhigh 7", 5, &p));
	assert_int_equal(p.value, 5);
}

static void test_kv_find_and_each(void **state)
{
	(void)state;
	const char *events = "low 0\nhigh 3\nmax 71\noom 2\noom_kill 2\n";
	long long v = 0;
	assert_true(kv_find(events, "oom", &v));
	assert_int_equal(v, 2);                 /* "oom", not the "oom_kill" line */
	assert_true(kv_find(events, "oom_kill", &v));
	assert_false(kv_find("oom_kill 5\n", "oom", &v));
	assert_false(kv_find(events, "lo", &v));
	assert_int_equal(kv_each(events, NULL, NULL), 5);
	assert_int_equal(kv_each("garbage\n\nx 1\n", NULL, NULL), 1);
}

static void test_psi(void **state)
{
	(void)state;
	struct psi p;
	assert_true(psi_parse("some avg10=1.50 avg60=0.20 avg300=0.00 total=12345\n"
			      "full avg10=0.00 avg60=0.00 avg300=0.00 total=6789\n", &p));
	assert_true(p.have_some && p.have_full);
	assert_int_equal(p.some_total_us, 12345);
	assert_int_equal(p.full_total_us, 6789);
	assert_true(p.some_avg10 > 1.49 && p.some_avg10 < 1.51);
	/* the system-wide file of an older kernel has no "full" line */
	assert_true(psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n", &p));
	assert_false(p.have_full);
	assert_false(psi_parse("some avg10=0.00 total=1\n", &p));
}

/* Stalled share between heartbeats: 250 ms of some and 100 ms of full over 1 s. */
static void test_psi_rate(void **state)
{
	(void)state;
	struct psi_rate r = { 0 };
	double some, full;
	psi_rate_step(&r, 1000000000, true, 5000, true, 1000, &some, &full);
	assert_true(some < 0 && full < 0);              /* the first reading says nothing */
	psi_rate_step(&r, 2000000000, true, 255000, true, 101000, &some, &full);
	assert_float_equal(some, 25.0, 1e-9);
	assert_float_equal(full, 10.0, 1e-9);
	/* a total absent in one reading: unknown next to it, the other still known */
	psi_rate_step(&r, 3000000000, true, 755000, false, 0, &some, &full);
	assert_float_equal(some, 50.0, 1e-9);
	assert_true(full < 0);
	/* no time between two readings, or a total gone backwards: unknown */
	psi_rate_step(&r, 3000000000, true, 800000, true, 1, &some, &full);
	assert_true(some < 0 && full < 0);
	psi_rate_step(&r, 4000000000, true, 700000, true, 500001, &some, &full);
	assert_true(some < 0);
	assert_float_equal(full, 50.0, 1e-9);
}

static const char slab_text[] =
	"slabinfo - version: 2.1\n"
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
	"binder_thread        858    858    304   26    2 : tunables    0    0    0 : slabdata     33     33      0\n"
	"kmalloc-128         8448   8480    128   32    1 : tunables    0    0    0 : slabdata    265    265      0\n"
	"cut-short           8448   8480    128   32    1 : tunables    0    0\n";

static void test_slabinfo(void **state)
{
	(void)state;
	assert_int_equal(slabinfo_each(slab_text, NULL, NULL), 2);
	struct slab_cache c;
	assert_int_equal(slabinfo_find(slab_text, "binder_thread", &c), 0);
	assert_true(c.active_objs == 858 && c.objsize == 304 && c.objs_per_slab == 26);
	assert_true(c.pages_per_slab == 2 && c.active_slabs == 33 && c.num_slabs == 33);
	assert_int_equal(slab_cache_bytes(&c, 4096), 33ull * 2 * 4096);
	/* 858 * 304 / (33 * 2 * 4096) */
	assert_true(slab_cache_efficiency(&c, 4096) > 0.9648 && slab_cache_efficiency(&c, 4096) < 0.9649);
	/* the same slabinfo from a kernel with 16 KiB pages: four times the bytes */
	assert_int_equal(slab_cache_bytes(&c, 16384), 33ull * 2 * 16384);
	assert_true(slab_cache_efficiency(&c, 16384) > 0.2412 && slab_cache_efficiency(&c, 16384) < 0.2413);
	assert_int_equal(slabinfo_find(slab_text, "cut-short", &c), -1);
	assert_int_equal(slabinfo_find(slab_text, "kmalloc-1", &c), -1);
	/* not slabinfo 2.x: nothing */
	assert_int_equal(slabinfo_each("slabinfo - version: 1.1\n", NULL, NULL), -1);
	assert_int_equal(slabinfo_find(slab_text + 24, "kmalloc-128", &c), -1);
	struct slab_cache empty = { .name = "x" };
	assert_true(slab_cache_efficiency(&empty, 4096) == 0.0);
}

struct seen {
	int objects, commands;
	unsigned long long node_active, bc_transaction;
};

static void count_lines(const struct binder_stats_line *l, void *ctx)
{
	struct seen *s = ctx;
	if (l->object) {
		s->objects++;
		if (!strcmp(l->name, "node"))
			s->node_active = l->active;
	} else {
		s->commands++;
		if (!strcmp(l->name, "BC_TRANSACTION"))
			s->bc_transaction = l->count;
	}
}

static void test_binder_stats(void **state)
{
	(void)state;
	const char *text = "binder stats:\n"
			   "BC_TRANSACTION: 24110\n"
			   "BR_REPLY: 24110\n"
			   "proc: active 100 total 6735\n"
			   "node: active 5668 total 1027387\n"
			   "  thread: active 1 total 1\n"   /* indented: not the global section's */
			   "proc 123\n"
			   "  node: active 99 total 99\n"
			   "thread: active 7 total 7\n";   /* after the first process: not read */
	struct seen s = { 0 };
	assert_int_equal(binder_stats_each(text, count_lines, &s), 2);
	assert_int_equal(s.objects, 2);
	assert_int_equal(s.commands, 2);
	assert_int_equal(s.node_active, 5668);
	assert_int_equal(s.bc_transaction, 24110);
	assert_int_equal(binder_stats_each("proc: active 1 total 1\n", NULL, NULL), -1);
}

static void test_buddyinfo(void **state)
{
	(void)state;
	struct buddyinfo bi;
	assert_int_equal(buddyinfo_parse("Node 0, zone      DMA      1      1      1\n"
					 "Node 0, zone   Normal     10      4\n"
					 "something else\n", &bi), 2);
	assert_string_equal(bi.z[1].zone, "Normal");
	assert_int_equal(bi.z[1].norders, 2);
	assert_true(bi.z[1].free[0] == 10 && bi.z[1].free[1] == 4);
	assert_int_equal(buddyinfo_parse("Node 0, zone DMA\n", &bi), -22);  /* -EINVAL: no orders */
}

static void test_kmsg_and_oom_lines(void **state)
{
	(void)state;
	char rec[] = "3,712,9789123,-;Memory cgroup out of memory: Killed process 130 (oom hog) "
		     "total-vm:200000kB, anon-rss:180000kB, file-rss:12kB, shmem-rss:0kB, UID:0 "
		     "pgtables:400kB oom_score_adj:1000\n SUBSYSTEM=memory\n";
	struct kmsg_record r;
	assert_true(kmsg_parse_record(rec, &r));
	assert_int_equal(r.seq, 712);
	assert_int_equal(r.usec, 9789123);
	struct oom_kill_report k;
	assert_true(oom_parse_kill_line(r.text, &k));
	assert_int_equal(k.pid, 130);
	assert_string_equal(k.comm, "oom hog");
	assert_true(k.memcg_message);
	assert_int_equal(k.anon_rss_kb, 180000);
	assert_int_equal(k.oom_score_adj, 1000);
	struct oom_reap_report rp;
	assert_true(oom_parse_reap_line("oom_reaper: reaped process 130 (oom hog), now anon-rss:0kB, "
					"file-rss:0kB, shmem-rss:0kB", &rp));
	assert_int_equal(rp.pid, 130);
	int pid = 0;
	assert_true(oom_parse_unable_to_reap_line("oom_reaper: unable to reap pid:131 (oom-hog)", &pid));
	assert_int_equal(pid, 131);
	assert_false(oom_parse_unable_to_reap_line("oom_reaper: unable to reap pid:", &pid));
	assert_false(oom_parse_kill_line("Killed process 130", &k));
	assert_false(oom_parse_reap_line("oom_reaper: reaped process x", &rp));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_rule),
		cmocka_unit_test(test_kv_find_and_each),
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_psi_rate),
		cmocka_unit_test(test_slabinfo),
		cmocka_unit_test(test_binder_stats),
		cmocka_unit_test(test_buddyinfo),
		cmocka_unit_test(test_kmsg_and_oom_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
