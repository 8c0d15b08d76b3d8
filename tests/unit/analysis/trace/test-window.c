/* test-window.c - the workload window's stalls counted from the trace the
 * way vmstat counts them (analysis/trace/window.c), on perf script lines
 * written here in perf's own format (the fields as 6.12 prints them).
 *
 * The window is [8 s, 90 s]. Expected, by the rules in window.h:
 *   tid 201: an attempt at 10 s whose only zone is skipped, then reclaim
 *            (12 s): not counted; reclaim counted. Another attempt at 20 s,
 *            zone suitable and compacted: counted.
 *   tid 202: deferred (15 s): counted.
 *   tid 203: no zone event, then a high-order allocation (31 s): the
 *            watermark was met, COMPACT_SUCCESS: counted.
 *   tid 204: an attempt at 5 s, before the window: not counted.
 *   tid 205: an attempt at 100 s, after it: not counted; so is the reclaim
 *            at 95 s.
 *   tid 206: two zones, the first skipped, the second suitable: counted.
 *   tid 207: the last attempt (50 s), still open when the trace ends, with
 *            ret=not_suitable_zone: not counted.
 *   tid 208: an attempt (60 s) and the thread's exit: counted.
 *   kcompactd (tid 40) runs compact_zone with no attempt: nothing.
 * Compaction stalls 5 (201 at 20 s, 202, 203, 206, 208); direct reclaims 1.
 *
 * binder's page array: tid 201 allocates an order-3 zeroed compound page at
 * 21 s (kcalloc-like) and fails one with __GFP_NORETRY at 22 s (kvcalloc's
 * try); tid 203's order-3 allocation at 31 s has no __GFP_ZERO (a slab's):
 * not counted, nor kcompactd's. Page arrays 2, failed 1. The openers' stall
 * time: tid 201's reclaim 12 s -> 12.5 s and compaction 20.0002 s -> 20.1 s,
 * 599.8 ms; kcompactd's does not count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/trace/window.h"
#include "common/util.h"

#define TRY "compaction:mm_compaction_try_to_compact_pages: order=3 gfp_mask=GFP_KERNEL|__GFP_COMP|__GFP_ZERO priority=2"
#define SKIP "compaction:mm_compaction_suitable: node=0 zone=DMA32    order=3 ret=skipped"
#define GO "compaction:mm_compaction_suitable: node=0 zone=DMA32    order=3 ret=continue"
#define NOZONE "compaction:mm_compaction_suitable: node=0 zone=DMA32    order=3 ret=not_suitable_zone"
#define BEGIN "compaction:mm_compaction_begin: zone_start=0x1 migrate_pfn=0x1 free_pfn=0x7fe00 zone_end=0x80000, mode=async"
#define END "compaction:mm_compaction_end: zone_start=0x1 migrate_pfn=0x1 free_pfn=0x7fe00 zone_end=0x80000, mode=async status=complete"
#define DEFER "compaction:mm_compaction_deferred: node=0 zone=DMA32    order=3 order_failed=3 consider=1 limit=2"
#define RECLAIM "vmscan:mm_vmscan_direct_reclaim_begin: order=3 gfp_flags=GFP_KERNEL"
#define RECLAIM_END "vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=32"
#define PAGE_ARRAY "kmem:mm_page_alloc: page=0xffffea0000123400 pfn=0x48d0 order=3 migratetype=0 gfp_flags=GFP_KERNEL|__GFP_COMP|__GFP_ZERO"
#define PAGE_ARRAY_FAILED "kmem:mm_page_alloc: page=0000000000000000 pfn=0x0 order=3 migratetype=0 gfp_flags=GFP_KERNEL|__GFP_COMP|__GFP_NOWARN|__GFP_NORETRY|__GFP_ZERO"
#define ALLOC "kmem:mm_page_alloc: page=0x1 pfn=0x2 order=3 migratetype=0 gfp_flags=GFP_KERNEL"
/* arm64's, raw: the host's perf cannot print its page= (vmemmap) */
#define RAW_ARRAY "kmem:mm_page_alloc: [FAILED TO PARSE] pfn=0x13c48 order=3 gfp_flags=0x40dc0 migratetype=0"
#define RAW_ARRAY_FAILED "kmem:mm_page_alloc: [FAILED TO PARSE] pfn=0xffffffffffffffff order=3 gfp_flags=0x52dc0 migratetype=0"
#define RAW_SLAB "kmem:mm_page_alloc: [FAILED TO PARSE] pfn=0x13c50 order=3 gfp_flags=0x40cc0 migratetype=0"
#define EXIT "sched:sched_process_exit: comm=binder-mmap pid=208 prio=120"

static const char *const trace_lines[] = {
	"binder-mmap 200/204 [000] 5.000000000: " TRY,
	"binder-mmap 200/201 [000] 10.000000000: " TRY,
	"binder-mmap 200/201 [000] 10.100000000: " SKIP,
	"binder-mmap 200/201 [000] 12.000000000: " RECLAIM,
	"binder-mmap 200/201 [000] 12.500000000: " RECLAIM_END,
	"binder-mmap 200/202 [001] 15.000000000: " TRY,
	"binder-mmap 200/202 [001] 15.000100000: " DEFER,
	"binder-mmap 200/201 [000] 20.000000000: " TRY,
	"binder-mmap 200/201 [000] 20.000100000: " GO,
	"binder-mmap 200/201 [000] 20.000200000: " BEGIN,
	"binder-mmap 200/201 [000] 20.100000000: " END,
	"binder-mmap 200/201 [000] 21.000000000: " PAGE_ARRAY,
	"binder-mmap 200/201 [000] 22.000000000: " PAGE_ARRAY_FAILED,
	"kcompactd0 40/40 [001] 23.000000000: " PAGE_ARRAY,
	"kcompactd0 40/40 [001] 25.000000000: " BEGIN,
	"kcompactd0 40/40 [001] 25.100000000: " END,
	"binder-mmap 200/203 [001] 30.000000000: " TRY,
	"binder-mmap 200/203 [001] 31.000000000: " ALLOC,
	"binder-mmap 200/206 [000] 40.000000000: " TRY,
	"binder-mmap 200/206 [000] 40.000100000: " SKIP,
	"binder-mmap 200/206 [000] 40.000200000: " GO,
	"binder-mmap 200/207 [001] 50.000000000: " TRY,
	"binder-mmap 200/207 [001] 50.000100000: " NOZONE,
	"binder-mmap 200/208 [000] 60.000000000: " TRY,
	"binder-mmap 200/208 [000] 61.000000000: " EXIT,
	"binder-mmap 200/205 [000] 95.000000000: " RECLAIM,
	"binder-mmap 200/205 [000] 100.000000000: " TRY,
};

static const char all_events[] =
	"vmscan:mm_vmscan_direct_reclaim_begin,compaction:mm_compaction_begin,"
	"compaction:mm_compaction_try_to_compact_pages,compaction:mm_compaction_suitable,"
	"compaction:mm_compaction_deferred";

/* Feeds perf script LINES (N of them) to W. */
static void feed(struct stall_window *w, const char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *line = xstrdup(lines[i]);
		struct perf_sample s;
		uint64_t lost;

		assert_int_equal(perf_script_parse_line(line, &s, &lost), PERF_LINE_SAMPLE);
		stall_window_sample(w, &s);
		free(line);
	}
}

static void feed_all(struct stall_window *w)
{
	feed(w, trace_lines, sizeof(trace_lines) / sizeof(trace_lines[0]));
	stall_window_finish(w);
}

static void counts_like_vmstat(void **state)
{
	struct stall_window w;

	(void)state;
	stall_window_init(&w, 8000000000ULL, 90000000000ULL, all_events);
	assert_true(w.can_count_compaction);
	feed_all(&w);
	assert_int_equal(w.compaction_stalls, 5);
	assert_int_equal(w.direct_reclaims, 1);
	assert_true(w.opener_seen);
	assert_int_equal(w.page_array_allocs, 2);
	assert_int_equal(w.page_array_failed, 1);
	assert_int_equal(w.opener_stall_ns, 599800000);
	stall_window_release(&w);
}

/* A window over 8..90 s with every event recorded, fed perf script LINES. */
static void window_of_lines(struct stall_window *w, const char *const *lines, size_t n)
{
	stall_window_init(w, 8000000000ULL, 90000000000ULL, all_events);
	feed(w, lines, n);
	stall_window_finish(w);
}

/* arm64's raw samples ("[FAILED TO PARSE]", numeric gfp_flags, pfn -1 for
 * a failure) count as the printed ones do. */
static void raw_page_arrays_count(void **state)
{
	static const char *const raw[] = {
		"binder-mmap 300/301 [000] 10.000000000: " RAW_ARRAY,
		"binder-mmap 300/301 [000] 11.000000000: " RAW_ARRAY_FAILED,
		"binder-mmap 300/301 [000] 12.000000000: " RAW_SLAB,
	};
	struct stall_window w;

	(void)state;
	window_of_lines(&w, raw, sizeof(raw) / sizeof(raw[0]));
	assert_int_equal(w.page_array_allocs, 2);
	assert_int_equal(w.page_array_failed, 1);
	stall_window_release(&w);
}

/* The apps workload's apps (app-NN) map binder too: their page arrays count,
 * and so do their stalls; another process's do not. */
static void apps_page_arrays_count(void **state)
{
	static const char *const lines[] = {
		"app-03 400/400 [000] 10.000000000: " PAGE_ARRAY,
		"app-11 401/401 [001] 11.000000000: " PAGE_ARRAY_FAILED,
		"app-11 401/401 [001] 12.000000000: " RECLAIM,
		"app-11 401/401 [001] 12.250000000: " RECLAIM_END,
		"apps 399/399 [000] 13.000000000: " PAGE_ARRAY,
		"apple 402/402 [000] 14.000000000: " PAGE_ARRAY,
	};
	struct stall_window w;

	(void)state;
	window_of_lines(&w, lines, sizeof(lines) / sizeof(lines[0]));
	assert_true(w.opener_seen);
	assert_int_equal(w.page_array_allocs, 2);
	assert_int_equal(w.page_array_failed, 1);
	assert_int_equal(w.opener_stall_ns, 250000000);
	stall_window_release(&w);
}

/* Without mm_compaction_suitable recorded, a skipped attempt cannot be
 * told from a counted one: no compaction count, reclaim still. */
static void needs_the_events(void **state)
{
	struct stall_window w;

	(void)state;
	stall_window_init(&w, 8000000000ULL, 90000000000ULL,
			  "vmscan:mm_vmscan_direct_reclaim_begin,"
			  "compaction:mm_compaction_try_to_compact_pages,compaction:mm_compaction_begin");
	assert_false(w.can_count_compaction);
	feed_all(&w);
	assert_int_equal(w.compaction_stalls, 0);
	assert_int_equal(w.direct_reclaims, 1);
	stall_window_release(&w);
	/* a name that only starts like a needed one does not count */
	stall_window_init(&w, 0, 1, "compaction:mm_compaction_suitable_x,compaction:mm_compaction_deferred,"
			  "compaction:mm_compaction_try_to_compact_pages,compaction:mm_compaction_begin");
	assert_false(w.can_count_compaction);
	stall_window_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_like_vmstat),
		cmocka_unit_test(raw_page_arrays_count),
		cmocka_unit_test(apps_page_arrays_count),
		cmocka_unit_test(needs_the_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
