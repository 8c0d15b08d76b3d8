/* test-stall.c - stall pairing (analysis/trace/stall.c) and the high-order
 * allocation tally (analysis/trace/page_alloc.c) on real traces from
 * tests/samples/, whole and cut (lines removed from a real trace, or the
 * trace cut short), for the edge cases.
 *
 * Expected values come from awk over the same lines, not from this code:
 * pair.awk (tests/samples/README.md) pairs begin/end per tid (column 2)
 * the same way and prints durations in ns; `sort -n` and a type-7 quantile
 * (h = (n-1)p + 1, interpolate) give p50/p99.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/trace/page_alloc.h"
#include "analysis/trace/stall.h"
#include "tests/unit/samples.h"

static void feed(const struct perf_sample *s, void *ctx)
{
	stall_tracker_sample(ctx, s);
}

/* Sample REL, without the lines containing DROP (may be NULL), cut after
 * KEEP_LINES lines (0: all), paired. */
static void pair_sample(const char *rel, const char *drop, size_t keep_lines,
			struct stall_tracker *t)
{
	char *text = sample_read(rel);
	struct strbuf kept = STRBUF_INIT;
	size_t n = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		char *copy = xstrndup(line, len);
		if (!(drop && strstr(copy, drop)) && (!keep_lines || n < keep_lines)) {
			strbuf_addstr(&kept, copy);
			n++;
		}
		free(copy);
		line = nl ? nl + 1 : NULL;
	}
	struct perf_script_stats st;
	stall_tracker_init(t);
	perf_script_parse_text(kept.buf, feed, t, &st);
	stall_tracker_finish(t, st.last_ns);
	strbuf_release(&kept);
	free(text);
}

static void assert_summary(const struct stall_series *s, uint64_t count, uint64_t total,
			   uint64_t max, double p50, double p99)
{
	struct stall_summary sum;
	stall_summarize(s->durations_ns, s->n, &sum);
	assert_int_equal(sum.count, count);
	assert_int_equal(sum.total_ns, total);
	assert_int_equal(sum.max_ns, max);
	if (fabs(sum.p50_ns - p50) > 1e-3 || fabs(sum.p99_ns - p99) > 1e-3)
		fail_msg("p50 %.3f p99 %.3f, expected %.3f %.3f", sum.p50_ns, sum.p99_ns, p50, p99);
}

/* memcg-kill/perf.script (oom-hog memcg mode, 2 hogs, memory.max 64M):
 * awk: memcg n=264 total=265202772 max=61239637 p50=242685.500 p99=13109276.130,
 * no unmatched, nested or open; no direct reclaim, no compaction. */
static void test_memcg_reclaim_whole(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("memcg-kill/perf.script", NULL, 0, &t);
	const struct stall_series *s = &t.kind[STALL_MEMCG_RECLAIM];
	assert_summary(s, 264, 265202772, 61239637, 242685.5, 13109276.13);
	assert_int_equal(s->unmatched_end, 0);
	assert_int_equal(s->nested, 0);
	assert_int_equal(s->open_at_end, 0);
	assert_int_equal(t.kind[STALL_DIRECT_RECLAIM].n, 0);
	assert_int_equal(t.kind[STALL_DIRECT_COMPACTION].n, 0);
	stall_tracker_release(&t);
}

/* global-kill/perf.script (tiny-256m, global OOM):
 * awk: direct n=24 total=66468907 max=14901702 p50=1052556 p99=14590070.860;
 * its one compaction begin/end pair is kcompactd0's (not a stall). */
static void test_direct_reclaim_whole(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("global-kill/perf.script", NULL, 0, &t);
	assert_summary(&t.kind[STALL_DIRECT_RECLAIM], 24, 66468907, 14901702, 1052556.0,
		       14590070.86);
	assert_int_equal(t.kind[STALL_DIRECT_COMPACTION].n, 0);
	assert_int_equal(t.kind[STALL_DIRECT_COMPACTION].unmatched_end, 0);
	assert_int_equal(t.kcompactd_passes, 1);
	stall_tracker_release(&t);
}

/* fragmented/perf.script (binder-kcalloc, phone-512m-fragmented, binder-mmap):
 * awk with kcompactd excluded (comm !~ ^kcompactd): compaction n=29
 * total=51715954 max=25162863 p50=115021 p99=20564848.320; grep -c:
 * 43 mm_compaction_try_to_compact_pages, 8 mm_compaction_end by kcompactd0;
 * direct reclaim n=36 total=109808134 max=23714685 p50=806413 p99=23645978.250 */
static void test_direct_compaction(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("fragmented/perf.script", NULL, 0, &t);
	assert_summary(&t.kind[STALL_DIRECT_COMPACTION], 29, 51715954, 25162863, 115021.0,
		       20564848.32);
	assert_int_equal(t.compaction_attempts, 43);
	assert_int_equal(t.kcompactd_passes, 8);
	assert_int_equal(t.kind[STALL_DIRECT_COMPACTION].open_at_end, 0);
	assert_summary(&t.kind[STALL_DIRECT_RECLAIM], 36, 109808134, 23714685, 806413.0,
		       23645978.25);
	stall_tracker_release(&t);
}

/* Nested: memcg-kill without the end of tid 45 at 2.618497909 (line 48), so
 * its begin at 2.607277575 is still open when tid 45 begins again at
 * 2.618553989.  The open begin is dropped (nested = 1), the new one pairs
 * with the next end: awk on the cut file n=263 total=253982438
 * (265202772 - (2.618497909 - 2.607277575 s) = 265202772 - 11220334)
 * p50=242208 p99=10677368.740. */
static void test_nested_begin(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("memcg-kill/perf.script", "2.618497909:", 0, &t);
	const struct stall_series *s = &t.kind[STALL_MEMCG_RECLAIM];
	assert_int_equal(s->nested, 1);
	assert_int_equal(s->unmatched_end, 0);
	assert_summary(s, 263, 253982438, 61239637, 242208.0, 10677368.74);
	stall_tracker_release(&t);
}

/* End without begin: memcg-kill without tid 46's first begin (2.607282285,
 * line 43); its end at 2.613412590 is ignored and counted.  awk: n=263
 * total=259072467 (265202772 - 6130305) unmatched=1 p99=13160328.620. */
static void test_end_without_begin(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("memcg-kill/perf.script", "2.607282285:", 0, &t);
	const struct stall_series *s = &t.kind[STALL_MEMCG_RECLAIM];
	assert_int_equal(s->unmatched_end, 1);
	assert_int_equal(s->nested, 0);
	assert_summary(s, 263, 259072467, 61239637, 242208.0, 13160328.62);
	stall_tracker_release(&t);
}

/* Cut off: memcg-kill's first 44 lines end with three begins (tids 45, 46, 44
 * at 2.607277575, 2.607282285, 2.608625509) and no end: 3 open, 0 complete;
 * their time up to the last event (2.608625509) is 1347934 + 1343224 + 0 =
 * 2691158 ns. */
static void test_cut_off(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("memcg-kill/perf.script", NULL, 44, &t);
	const struct stall_series *s = &t.kind[STALL_MEMCG_RECLAIM];
	assert_int_equal(s->n, 0);
	assert_int_equal(s->open_at_end, 3);
	assert_int_equal(s->open_ns, 2691158);
	/* the three begins stay listed, for the export to draw */
	assert_int_equal(s->n_open, 3);
	assert_int_equal(s->open[0].tid + s->open[1].tid + s->open[2].tid, 45 + 46 + 44);
	stall_tracker_release(&t);
}

/* hang-cut/perf.script: the last 200 lines of the trace of a guest the lab
 * stopped for hanging (real cut at the start): 4 direct reclaim ends and 2
 * begins; awk: unmatched=2, n=2 total=1900010 max=1067964. */
static void test_real_cut(void **state)
{
	(void)state;
	struct stall_tracker t;
	pair_sample("hang-cut/perf.script", NULL, 0, &t);
	const struct stall_series *s = &t.kind[STALL_DIRECT_RECLAIM];
	assert_int_equal(s->unmatched_end, 2);
	assert_int_equal(s->open_at_end, 0);
	assert_int_equal(s->n, 2);
	struct stall_summary sum;
	stall_summarize(s->durations_ns, s->n, &sum);
	assert_int_equal(sum.total_ns, 1900010);
	assert_int_equal(sum.max_ns, 1067964);
	stall_tracker_release(&t);
}

static void tally(const struct perf_sample *s, void *ctx)
{
	page_alloc_tally_sample(ctx, s);
}

/* fragmented/perf.script, kmem:mm_page_alloc (recorded with order > 0; the
 * first 30 kept and the failures): grep -o ' order=N' | sort | uniq -c over
 * the lines without page=(nil): order1 6, order2 11, order3 13 (30 in all,
 * awk sum of 2^order = 160 pages); 3 lines with page=(nil) pfn=0x0 (orders 1,
 * 4, 3) are failures.  kmem:mm_page_alloc_extfrag: 30 lines, all
 * fallback_order=0 < pageblock_order=9 (fragmenting), all change_ownership=0.
 * global-kill/perf.script: 40 extfrag lines kept; awk: fallback_order <
 * pageblock_order in 38, change_ownership=1 in 8. */
static void test_page_alloc_tally(void **state)
{
	(void)state;
	char *text = sample_read("fragmented/perf.script");
	struct page_alloc_tally t;
	struct perf_script_stats st;
	memset(&t, 0, sizeof(t));
	perf_script_parse_text(text, tally, &t, &st);
	assert_int_equal(t.high_order, 30);
	assert_int_equal(t.by_order[1], 6);
	assert_int_equal(t.by_order[2], 11);
	assert_int_equal(t.by_order[3], 13);
	assert_int_equal(t.by_order[4], 0);
	assert_int_equal(t.high_order_pages, 160);
	assert_int_equal(t.high_order_failed, 3);
	assert_int_equal(t.max_order, 4);
	assert_int_equal(t.extfrag, 30);
	assert_int_equal(t.extfrag_fragmenting, 30);
	assert_int_equal(t.extfrag_change_ownership, 0);
	free(text);

	text = sample_read("global-kill/perf.script");
	memset(&t, 0, sizeof(t));
	perf_script_parse_text(text, tally, &t, &st);
	assert_int_equal(t.extfrag, 40);
	assert_int_equal(t.extfrag_fragmenting, 38);
	assert_int_equal(t.extfrag_change_ownership, 8);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcg_reclaim_whole),
		cmocka_unit_test(test_direct_reclaim_whole),
		cmocka_unit_test(test_direct_compaction),
		cmocka_unit_test(test_nested_begin),
		cmocka_unit_test(test_end_without_begin),
		cmocka_unit_test(test_cut_off),
		cmocka_unit_test(test_real_cut),
		cmocka_unit_test(test_page_alloc_tally),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
