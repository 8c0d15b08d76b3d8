/* test-perf-script.c - analysis/parse/perf_script.c against real perf script output
 * (tests/samples/, captured from guests; see tests/samples/README.md).
 *
 * Every expected value was read off the sample by hand, or counted with
 * grep/awk as the comment above it says; none comes from running this code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/parse/perf_script.h"
#include "tests/unit/samples.h"

/* Parses the SKIP-th line of sample REL containing NEEDLE; the line is kept
 * in *keep (the sample points into it). */
static void parse_sample_line(const char *rel, const char *needle, int skip, struct perf_sample *s,
			      char **keep)
{
	*keep = sample_line(rel, needle, skip);
	assert_non_null(*keep);
	uint64_t lost = 0;
	assert_int_equal(perf_script_parse_line(*keep, s, &lost), PERF_LINE_SAMPLE);
}

static void assert_field(const struct perf_sample *s, const char *key, const char *value)
{
	const char *v = perf_field(s, key);
	assert_non_null(v);
	assert_string_equal(v, value);
}

static void assert_field_long(const struct perf_sample *s, const char *key, long long value)
{
	long long v = -12345;
	assert_true(perf_field_long(s, key, &v));
	assert_int_equal(v, value);
}

/* memcg-kill/perf.script:
 *   oom-hog    45/45    [000]     2.650034199:    oom:mark_victim: pid=46 comm=oom-hog
 *   total-vm=56788kB anon-rss=53268kB file-rss:1208kB shmem-rss:0kB uid=0 pgtables=156kB
 *   oom_score_adj=1000 */
static void test_mark_victim(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("memcg-kill/perf.script", "oom:mark_victim", 0, &s, &line);
	assert_string_equal(s.comm, "oom-hog");
	assert_int_equal(s.pid, 45);
	assert_int_equal(s.tid, 45);
	assert_int_equal(s.cpu, 0);
	assert_int_equal(s.t_ns, 2650034199ull);
	assert_string_equal(s.event, "oom:mark_victim");
	assert_int_equal(s.n_fields, 9);
	assert_field_long(&s, "pid", 46);
	assert_field(&s, "comm", "oom-hog");
	assert_field(&s, "total-vm", "56788kB");
	assert_field_long(&s, "total-vm", 56788);
	assert_field_long(&s, "anon-rss", 53268);
	/* printed "file-rss:1208kB", with a colon */
	assert_field_long(&s, "file-rss", 1208);
	assert_field_long(&s, "shmem-rss", 0);
	assert_field_long(&s, "uid", 0);
	assert_field_long(&s, "pgtables", 156);
	assert_field_long(&s, "oom_score_adj", 1000);
	assert_null(perf_field(&s, "nothing"));
	free(line);
}

/* memcg-kill/perf.script, the first memcg reclaim begin and end:
 *   oom-hog 45/45 [000] 2.607277575: vmscan:mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
 *   oom-hog 46/46 [001] 2.613412590: vmscan:mm_vmscan_memcg_reclaim_end: nr_reclaimed=37 */
static void test_memcg_reclaim(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("memcg-kill/perf.script", "memcg_reclaim_begin", 0, &s, &line);
	assert_string_equal(s.event, "vmscan:mm_vmscan_memcg_reclaim_begin");
	assert_int_equal(s.tid, 45);
	assert_int_equal(s.t_ns, 2607277575ull);
	assert_field_long(&s, "order", 0);
	assert_field(&s, "gfp_flags", "GFP_HIGHUSER_MOVABLE");
	free(line);
	parse_sample_line("memcg-kill/perf.script", "memcg_reclaim_end", 0, &s, &line);
	assert_string_equal(s.event, "vmscan:mm_vmscan_memcg_reclaim_end");
	assert_int_equal(s.pid, 46);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.t_ns, 2613412590ull);
	assert_field_long(&s, "nr_reclaimed", 37);
	free(line);
}

/* global-kill/perf.script:
 *   oom-hog 43/43 [001] 3.230731203: vmscan:mm_vmscan_direct_reclaim_begin: order=0
 *     gfp_flags=GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP
 *   oom-hog 43/43 [001] 3.231898693: vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=34 */
static void test_direct_reclaim(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("global-kill/perf.script", "direct_reclaim_begin", 0, &s, &line);
	assert_string_equal(s.event, "vmscan:mm_vmscan_direct_reclaim_begin");
	assert_int_equal(s.pid, 43);
	assert_int_equal(s.t_ns, 3230731203ull);
	assert_field(&s, "gfp_flags", "GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP");
	free(line);
	parse_sample_line("global-kill/perf.script", "direct_reclaim_end", 0, &s, &line);
	assert_int_equal(s.t_ns, 3231898693ull);
	assert_field_long(&s, "nr_reclaimed", 34);
	free(line);
}

/* fragmented/perf.script (binder-kcalloc on phone-512m-fragmented):
 *   binder-mmap 46/46 [001] 6.185305541: compaction:mm_compaction_begin: zone_start=0x1
 *     migrate_pfn=0x1 free_pfn=0x1fe00 zone_end=0x1ffda, mode=sync
 *   binder-mmap 46/46 [001] 6.186068581: compaction:mm_compaction_end: zone_start=0x1
 *     migrate_pfn=0x370 free_pfn=0x1fe00 zone_end=0x1ffda, mode=sync status=success
 *   binder-mmap 46/46 [001] 6.135043657: compaction:mm_compaction_try_to_compact_pages:
 *     order=3 gfp_mask=GFP_KERNEL|__GFP_COMP|__GFP_ZERO priority=2
 *   binder-mmap 46/46 [001] 6.183478792: oom:compact_retry: order=3
 *     priority=COMPACT_PRIO_SYNC_LIGHT compaction_result=withdrawn retries=0 max_retries=16 should_retry=1 */
static void test_compaction(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("fragmented/perf.script", "mm_compaction_begin", 0, &s, &line);
	assert_string_equal(s.comm, "binder-mmap");
	assert_string_equal(s.event, "compaction:mm_compaction_begin");
	assert_int_equal(s.t_ns, 6185305541ull);
	/* "zone_end=0x1ffda," loses its comma */
	assert_field(&s, "zone_end", "0x1ffda");
	assert_field_long(&s, "zone_end", 0x1ffda);
	assert_field(&s, "mode", "sync");
	free(line);
	parse_sample_line("fragmented/perf.script", "mm_compaction_end", 0, &s, &line);
	assert_field_long(&s, "migrate_pfn", 0x370);
	assert_field(&s, "status", "success");
	free(line);
	parse_sample_line("fragmented/perf.script", "try_to_compact_pages", 0, &s, &line);
	assert_string_equal(s.event, "compaction:mm_compaction_try_to_compact_pages");
	assert_int_equal(s.t_ns, 6135043657ull);
	assert_field_long(&s, "order", 3);
	assert_field_long(&s, "priority", 2);
	free(line);
	parse_sample_line("fragmented/perf.script", "oom:compact_retry", 0, &s, &line);
	assert_field(&s, "priority", "COMPACT_PRIO_SYNC_LIGHT");
	assert_field(&s, "compaction_result", "withdrawn");
	assert_field_long(&s, "max_retries", 16);
	free(line);
}

/* fragmented/perf.script, a failed order-1 allocation:
 *   sh 45/45 [000] 6.081102029: kmem:mm_page_alloc: page=(nil) pfn=0x0 order=1 migratetype=2
 *     gfp_flags=__GFP_IO|__GFP_FS|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP|__GFP_NOMEMALLOC|__GFP_RECLAIMABLE
 * global-kill/perf.script, the first fallback:
 *   oom-hog 45/45 [001] 2.414366964: kmem:mm_page_alloc_extfrag: page=0x6400 pfn=0x6400
 *     alloc_order=0 fallback_order=10 pageblock_order=9 alloc_migratetype=0
 *     fallback_migratetype=1 fragmenting=10 change_ownership=1 */
static void test_page_alloc(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("fragmented/perf.script", "page=(nil)", 0, &s, &line);
	assert_string_equal(s.comm, "sh");
	assert_string_equal(s.event, "kmem:mm_page_alloc");
	assert_field(&s, "page", "(nil)");
	assert_field_long(&s, "pfn", 0);
	assert_field_long(&s, "order", 1);
	assert_field(&s, "gfp_flags",
		     "__GFP_IO|__GFP_FS|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP|__GFP_NOMEMALLOC|__GFP_RECLAIMABLE");
	free(line);
	parse_sample_line("global-kill/perf.script", "mm_page_alloc_extfrag", 0, &s, &line);
	assert_int_equal(s.cpu, 1);
	assert_field_long(&s, "pfn", 0x6400);
	assert_field_long(&s, "fallback_order", 10);
	assert_field_long(&s, "pageblock_order", 9);
	assert_field_long(&s, "fragmenting", 10);  /* as printed (libtraceevent's mistake) */
	assert_field_long(&s, "change_ownership", 1);
	free(line);
}

/* reaper-stock/perf.script:
 *   swapper 0/0 [000] 9.948461868: oom:wake_reaper: pid=45
 *   oom_reaper 28/28 [001] 9.948854492: oom:start_task_reaping: pid=45
 *   oom_reaper 28/28 [001] 10.170840339: oom:finish_task_reaping: pid=45
 *   oom-hog 45/46 [000] 18.266629881: sched:sched_process_exit: comm=oom-hog pid=46 prio=120 */
static void test_reaper_and_exit(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("reaper-stock/perf.script", "oom:wake_reaper", 0, &s, &line);
	assert_string_equal(s.comm, "swapper");
	assert_int_equal(s.pid, 0);
	assert_int_equal(s.tid, 0);
	assert_int_equal(s.t_ns, 9948461868ull);
	assert_field_long(&s, "pid", 45);
	free(line);
	parse_sample_line("reaper-stock/perf.script", "oom:start_task_reaping", 0, &s, &line);
	assert_string_equal(s.comm, "oom_reaper");
	assert_int_equal(s.tid, 28);
	free(line);
	parse_sample_line("reaper-stock/perf.script", "oom:finish_task_reaping", 0, &s, &line);
	/* ten seconds and more: the integer part grows a digit */
	assert_int_equal(s.t_ns, 10170840339ull);
	free(line);
	parse_sample_line("reaper-stock/perf.script", "sched_process_exit", 1, &s, &line);
	assert_int_equal(s.pid, 45);
	assert_int_equal(s.tid, 46);
	assert_field(&s, "comm", "oom-hog");
	assert_field_long(&s, "pid", 46);
	assert_field_long(&s, "prio", 120);
	free(line);
}

/* binder/perf.script:
 *   binder-sendvec 46/46 [001] 2.210906821: binder:binder_alloc_page_start: proc=47 page_index=0 */
static void test_binder_event(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("binder/perf.script", "binder_alloc_page_start", 0, &s, &line);
	assert_string_equal(s.comm, "binder-sendvec");
	assert_string_equal(s.event, "binder:binder_alloc_page_start");
	assert_field_long(&s, "proc", 47);
	assert_field_long(&s, "page_index", 0);
	free(line);
}

/* comm-space/perf.script: commands run as "/tmp/Binder thread" and
 * "/tmp/Binder:x y" (comms with a blank, one with a colon too):
 *   Binder thread 45/45 [000] 1.768742919: sched:sched_process_exit: comm=Binder thread pid=45 prio=120
 *   Binder:x y 43/43 [001] 1.805797098: sched:sched_process_exit: comm=Binder:x y pid=43 prio=120 */
static void test_comm_with_blank(void **state)
{
	(void)state;
	struct perf_sample s;
	char *line;
	parse_sample_line("comm-space/perf.script", "comm=Binder thread", 0, &s, &line);
	assert_string_equal(s.comm, "Binder thread");
	assert_string_equal(s.event, "sched:sched_process_exit");
	assert_int_equal(s.pid, 45);
	assert_int_equal(s.t_ns, 1768742919ull);
	assert_field(&s, "comm", "Binder thread");
	assert_field_long(&s, "pid", 45);
	assert_field_long(&s, "prio", 120);
	free(line);
	parse_sample_line("comm-space/perf.script", "comm=Binder:x y", 0, &s, &line);
	assert_string_equal(s.comm, "Binder:x y");
	assert_int_equal(s.cpu, 1);
	assert_field(&s, "comm", "Binder:x y");
	assert_field_long(&s, "pid", 43);
	assert_field_long(&s, "prio", 120);
	free(line);
}

/* lost-events.perf.script: 3 lines either side of each of the 4 LOST records
 * of a recording of unfiltered kmem events (28 lines).  The records, by
 * `grep PERF_RECORD_LOST`:
 *   perf 42/42 [000] 4.180242055: PERF_RECORD_LOST lost 129
 *   ... lost 60, lost 6237, lost 5947            sum (awk) 12373 */
static void test_lost_records(void **state)
{
	(void)state;
	char *line = sample_line("lost-events.perf.script", "PERF_RECORD_LOST", 0);
	struct perf_sample s;
	uint64_t lost = 0;
	assert_non_null(line);
	assert_int_equal(perf_script_parse_line(line, &s, &lost), PERF_LINE_LOST);
	assert_int_equal(lost, 129);
	free(line);

	char *path = sample_path("lost-events.perf.script");
	struct perf_script_stats st;
	assert_int_equal(perf_script_read(path, NULL, NULL, &st), 0);
	assert_int_equal(st.lost_records, 4);
	assert_int_equal(st.lost_events, 12373);
	assert_int_equal(st.samples, 24);
	assert_int_equal(st.unparsed_lines, 0);
	free(path);
}

struct count_ctx {
	unsigned mark_victim, exits, begins, ends, page_alloc;
};

static void count_events(const struct perf_sample *s, void *arg)
{
	struct count_ctx *c = arg;
	c->mark_victim += !strcmp(s->event, "oom:mark_victim");
	c->exits += !strcmp(s->event, "sched:sched_process_exit");
	c->begins += !strcmp(s->event, "vmscan:mm_vmscan_memcg_reclaim_begin");
	c->ends += !strcmp(s->event, "vmscan:mm_vmscan_memcg_reclaim_end");
	c->page_alloc += !strcmp(s->event, "kmem:mm_page_alloc");
}

/* memcg-kill/perf.script as a whole: 574 lines (grep -c .), per event
 * (awk over the event column | sort | uniq -c): 41 kmem:mm_page_alloc,
 * 2 oom:mark_victim, 3 sched:sched_process_exit, 264 memcg_reclaim_begin,
 * 264 memcg_reclaim_end; first time 2.189965027 (head -1), last 3.128565056
 * (tail -1). */
static void test_whole_file(void **state)
{
	(void)state;
	char *path = sample_path("memcg-kill/perf.script");
	struct perf_script_stats st;
	struct count_ctx c = { 0 };
	assert_int_equal(perf_script_read(path, count_events, &c, &st), 0);
	assert_int_equal(st.samples, 574);
	assert_int_equal(st.unparsed_lines, 0);
	assert_int_equal(st.lost_events, 0);
	assert_int_equal(c.page_alloc, 41);
	assert_int_equal(c.mark_victim, 2);
	assert_int_equal(c.exits, 3);
	assert_int_equal(c.begins, 264);
	assert_int_equal(c.ends, 264);
	assert_int_equal(st.first_ns, 2189965027ull);
	assert_int_equal(st.last_ns, 3128565056ull);
	free(path);

	/* the same from text in memory */
	char *text = sample_read("memcg-kill/perf.script");
	memset(&c, 0, sizeof(c));
	perf_script_parse_text(text, count_events, &c, &st);
	assert_int_equal(st.samples, 574);
	assert_int_equal(c.begins, 264);
	free(text);
}

/* perf's own stderr lines (panic-on-oom/perf.script.stderr) are not samples,
 * and a line cut short in the middle of its header is not one either. */
static void test_not_samples(void **state)
{
	(void)state;
	char *line = sample_line("panic-on-oom/perf.script.stderr", "not valid", 0);
	struct perf_sample s;
	uint64_t lost = 0;
	assert_non_null(line);
	assert_int_equal(perf_script_parse_line(line, &s, &lost), PERF_LINE_UNPARSED);
	free(line);
	/* the mark_victim line cut after its time stamp */
	line = sample_line("memcg-kill/perf.script", "oom:mark_victim", 0);
	char *cut = strstr(line, "2.650034199:");
	assert_non_null(cut);
	cut[strlen("2.650034199:")] = '\0';
	assert_int_equal(perf_script_parse_line(line, &s, &lost), PERF_LINE_UNPARSED);
	free(line);
	char blank[] = "   ";
	assert_int_equal(perf_script_parse_line(blank, &s, &lost), PERF_LINE_BLANK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark_victim),
		cmocka_unit_test(test_memcg_reclaim),
		cmocka_unit_test(test_direct_reclaim),
		cmocka_unit_test(test_compaction),
		cmocka_unit_test(test_page_alloc),
		cmocka_unit_test(test_reaper_and_exit),
		cmocka_unit_test(test_binder_event),
		cmocka_unit_test(test_comm_with_blank),
		cmocka_unit_test(test_lost_records),
		cmocka_unit_test(test_whole_file),
		cmocka_unit_test(test_not_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
