/* test-kmsg.c - analysis/parse/kmsg.c and analysis/parse/oom_report.c against real
 * kernel logs (tests/samples/NAME/kmsg.log, /dev/kmsg records forwarded by the
 * agent; see tests/samples/README.md).
 *
 * Expected values were read off the samples by hand or counted with grep/awk
 * (the commands are in the comments); none comes from running this code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/kernel-text/kmsg.h"
#include "analysis/parse/oom_report.h"
#include "tests/unit/samples.h"

/* memcg-kill/kmsg.log, line 1:
 *   5,0,0,-;Linux version 6.12.117 (oomlab@oomlab) ...
 * a stack trace line whose text starts with a blank (grep -n 'oom_kill_process+'):
 *   4,278,2587360,-; oom_kill_process+0xf9/0x1f0
 * a dictionary line (line 165): " SUBSYSTEM=acpi" */
static void test_records(void **state)
{
	(void)state;
	struct kmsg_record r;
	char *line = sample_line("memcg-kill/kmsg.log", "Linux version", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_int_equal(r.level, 5);
	assert_int_equal(r.facility, 0);
	assert_int_equal(r.seq, 0);
	assert_int_equal(r.usec, 0);
	assert_true(starts_with(r.text, "Linux version 6.12.117 (oomlab@oomlab)"));
	free(line);

	line = sample_line("memcg-kill/kmsg.log", "; oom_kill_process+", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_int_equal(r.level, 4);
	assert_int_equal(r.seq, 278);
	assert_int_equal(r.usec, 2587360);
	assert_string_equal(r.text, " oom_kill_process+0xf9/0x1f0");
	free(line);

	line = sample_line("memcg-kill/kmsg.log", " SUBSYSTEM=acpi", 0);
	assert_false(kmsg_parse_record(line, &r));
	free(line);
}

struct tally {
	uint64_t records, last_seq, last_usec;
};

static void count(const struct kmsg_record *r, void *arg)
{
	struct tally *t = arg;
	t->records++;
	t->last_seq = r->seq;
	t->last_usec = r->usec;
}

/* memcg-kill/kmsg.log: grep -c '^[0-9]' = 453 records, grep -c '^ ' = 92
 * dictionary lines, no other lines, sequence numbers without gaps (awk over
 * the second comma field); last record 3,452,3043634 (tail -1).
 * hang-cut/kmsg.log holds only the OOM lines of a longer log: 202 records
 * whose sequence numbers skip 2459 records in all (awk:
 * $2 != prev + 1 { gaps += $2 - prev - 1 }). */
static void test_whole_log(void **state)
{
	(void)state;
	struct kmsg_stats st;
	struct tally t = { 0 };
	char *path = sample_path("memcg-kill/kmsg.log");
	assert_int_equal(kmsg_read(path, count, &t, &st), 0);
	assert_int_equal(st.records, 453);
	assert_int_equal(t.records, 453);
	assert_int_equal(st.bad_lines, 0);
	assert_int_equal(st.seq_gaps, 0);
	assert_int_equal(t.last_seq, 452);
	assert_int_equal(t.last_usec, 3043634);
	free(path);

	char *text = sample_read("hang-cut/kmsg.log");
	memset(&t, 0, sizeof(t));
	kmsg_parse_text(text, count, &t, &st);
	assert_int_equal(st.records, 202);
	assert_int_equal(st.seq_gaps, 2459);
	free(text);
}

/* memcg-kill/kmsg.log:
 *   3,362,2602451,-;Memory cgroup out of memory: Killed process 46 (oom-hog)
 *   total-vm:56788kB, anon-rss:53268kB, file-rss:1208kB, shmem-rss:0kB, UID:0
 *   pgtables:156kB oom_score_adj:1000 */
static void test_memcg_kill_line(void **state)
{
	(void)state;
	struct kmsg_record r;
	struct oom_kill_report k;
	char *line = sample_line("memcg-kill/kmsg.log", "Killed process", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_true(oom_parse_kill_line(r.text, &k));
	assert_true(k.memcg_message);
	assert_int_equal(k.pid, 46);
	assert_string_equal(k.comm, "oom-hog");
	assert_int_equal(k.total_vm_kb, 56788);
	assert_int_equal(k.anon_rss_kb, 53268);
	assert_int_equal(k.file_rss_kb, 1208);
	assert_int_equal(k.shmem_rss_kb, 0);
	assert_int_equal(k.uid, 0);
	assert_int_equal(k.pgtables_kb, 156);
	assert_int_equal(k.oom_score_adj, 1000);
	free(line);
}

/* fragmented/kmsg.log (a global OOM from binder's order-3 allocation):
 *   6,318,6574423,-;oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,
 *     mems_allowed=0,global_oom,task_memcg=/workload,task=binder-mmap,pid=46,uid=0
 *   3,319,6575671,-;Out of memory: Killed process 46 (binder-mmap) total-vm:331228kB,
 *     anon-rss:148kB, file-rss:220kB, shmem-rss:0kB, UID:0 pgtables:48kB oom_score_adj:0
 * memcg-kill/kmsg.log:
 *   6,361,2599506,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,
 *     mems_allowed=0,oom_memcg=/workload,task_memcg=/workload,task=oom-hog,pid=46,uid=0 */
static void test_global_kill_and_constraints(void **state)
{
	(void)state;
	struct kmsg_record r;
	struct oom_kill_report k;
	struct oom_constraint_line c;
	char *line = sample_line("fragmented/kmsg.log", "Killed process", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_true(oom_parse_kill_line(r.text, &k));
	assert_false(k.memcg_message);
	assert_int_equal(k.pid, 46);
	assert_string_equal(k.comm, "binder-mmap");
	assert_int_equal(k.total_vm_kb, 331228);
	assert_int_equal(k.anon_rss_kb, 148);
	assert_int_equal(k.file_rss_kb, 220);
	assert_int_equal(k.pgtables_kb, 48);
	assert_int_equal(k.oom_score_adj, 0);
	free(line);

	line = sample_line("fragmented/kmsg.log", "oom-kill:constraint", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_true(oom_parse_constraint_line(r.text, &c));
	assert_int_equal(c.pid, 46);
	assert_string_equal(c.constraint, "global");
	free(line);

	line = sample_line("memcg-kill/kmsg.log", "oom-kill:constraint", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_true(oom_parse_constraint_line(r.text, &c));
	assert_int_equal(c.pid, 46);
	assert_string_equal(c.constraint, "memcg");
	/* the kill line is not a constraint line, nor the other way round */
	assert_false(oom_parse_kill_line(r.text, &k));
	free(line);
}

/* reaper-stock/kmsg.log:
 *   6,316,10123240,-;oom_reaper: reaped process 45 (oom-hog), now anon-rss:0kB,
 *     file-rss:40kB, shmem-rss:0kB */
static void test_reap_line(void **state)
{
	(void)state;
	struct kmsg_record r;
	struct oom_reap_report p;
	char *line = sample_line("reaper-stock/kmsg.log", "oom_reaper: reaped", 0);
	assert_true(kmsg_parse_record(line, &r));
	assert_int_equal(r.usec, 10123240);
	assert_true(oom_parse_reap_line(r.text, &p));
	assert_int_equal(p.pid, 45);
	assert_string_equal(p.comm, "oom-hog");
	assert_int_equal(p.anon_rss_kb, 0);
	assert_int_equal(p.file_rss_kb, 40);
	assert_int_equal(p.shmem_rss_kb, 0);
	free(line);
}

static struct oom_reports read_reports(const char *rel)
{
	struct oom_reports rep;
	struct kmsg_stats st;
	oom_reports_init(&rep);
	char *path = sample_path(rel);
	assert_int_equal(kmsg_read(path, oom_reports_kmsg_fn, &rep, &st), 0);
	free(path);
	return rep;
}

/* Whole logs:
 *   memcg-kill: grep -c 'Killed process' = 2 (pids 46 then 45, both "Memory
 *     cgroup out of memory"), 'oom-kill:constraint=CONSTRAINT_MEMCG' 2,
 *     'invoked oom-killer' 2, 'oom_reaper: reaped' 0; second kill at usec 3043634
 *   reaper-nodelay: 1 kill (pid 45, CONSTRAINT_NONE), 1 reaped
 *   hang-cut: 98 kills, all "Out of memory: Killed"; only 52 'oom-kill:' and 52
 *     'invoked oom-killer' lines (the kernel rate-limits the OOM header), all
 *     CONSTRAINT_NONE; last kill pid 142 (tail -1)
 *   panic-on-oom: 1 'invoked oom-killer', no kill (panic_on_oom)
 *   binder: nothing about OOM */
static void test_reports(void **state)
{
	(void)state;
	struct oom_reports r = read_reports("memcg-kill/kmsg.log");
	assert_int_equal(r.n_kills, 2);
	assert_int_equal(r.kills[0].pid, 46);
	assert_int_equal(r.kills[1].pid, 45);
	assert_string_equal(r.kills[0].constraint, "memcg");
	assert_string_equal(r.kills[1].constraint, "memcg");
	assert_int_equal(r.kills[1].usec, 3043634);
	assert_int_equal(r.kills[1].anon_rss_kb, 64276);
	assert_int_equal(r.invocations, 2);
	assert_int_equal(r.n_reaps, 0);
	assert_int_equal(r.n_pending, 0);
	oom_reports_release(&r);

	r = read_reports("reaper-nodelay/kmsg.log");
	assert_int_equal(r.n_kills, 1);
	assert_string_equal(r.kills[0].constraint, "global");
	assert_int_equal(r.n_reaps, 1);
	assert_int_equal(r.reaps[0].pid, 45);
	oom_reports_release(&r);

	r = read_reports("hang-cut/kmsg.log");
	assert_int_equal(r.n_kills, 98);
	assert_int_equal(r.invocations, 52);
	size_t global = 0;
	for (size_t i = 0; i < r.n_kills; i++)
		global += !strcmp(r.kills[i].constraint, "global");
	assert_int_equal(global, 98);
	assert_int_equal(r.kills[97].pid, 142);
	assert_int_equal(r.n_pending, 0);
	oom_reports_release(&r);

	r = read_reports("panic-on-oom/kmsg.log");
	assert_int_equal(r.n_kills, 0);
	assert_int_equal(r.invocations, 1);
	oom_reports_release(&r);

	r = read_reports("binder/kmsg.log");
	assert_int_equal(r.n_kills, 0);
	assert_int_equal(r.invocations, 0);
	oom_reports_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_whole_log),
		cmocka_unit_test(test_memcg_kill_line),
		cmocka_unit_test(test_global_kill_and_constraints),
		cmocka_unit_test(test_reap_line),
		cmocka_unit_test(test_reports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
