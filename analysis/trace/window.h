/* window.h - the allocation stalls of the workload's window, counted from
 * the trace the way the kernel counts them in /proc/vmstat, so that the two
 * sources can be set side by side (common/proto/protocol.h: CTL_WINDOW).
 *
 *   direct reclaim  one vmscan:mm_vmscan_direct_reclaim_begin per call of
 *                   try_to_free_pages() that reclaims, as allocstall_<zone>
 *                   counts one per do_try_to_free_pages() outside a cgroup
 *                   (6.12 mm/vmscan.c): the two match one for one.
 *   compaction      vmstat's compact_stall counts the direct compaction
 *                   attempts (try_to_compact_pages(), traced by
 *                   mm_compaction_try_to_compact_pages) whose result was not
 *                   COMPACT_SKIPPED (6.12 mm/page_alloc.c,
 *                   __alloc_pages_direct_compact). Per thread, an attempt is
 *                   skipped when the events that follow it, up to the
 *                   thread's next allocation step, are only
 *                   mm_compaction_suitable with ret=skipped or
 *                   ret=not_suitable_zone; a deferral, a suitable zone, a
 *                   compact_zone() (mm_compaction_begin) or no zone event at
 *                   all (the watermark was met: COMPACT_SUCCESS) counts it.
 *                   The thread's next allocation step is its next attempt,
 *                   its direct reclaim, a high-order page allocation, its exit
 *                   or the end of the trace. Exact with one zone per node (no
 *                   ZONE_DMA, under 4 GiB: every shipped profile); with
 *                   several zones an attempt whose first zone is skipped and
 *                   second meets its watermark is missed.
 *
 * binder's page array, the allocation the kcalloc/kvcalloc change is about:
 * the order-3 zeroed compound pages (kmem:mm_page_alloc, order=3, gfp_flags
 * with __GFP_ZERO and __GFP_COMP) that the binder-mmap workload's processes
 * (comm "binder-mmap") or the apps workload's apps (comm "app-NN": the
 * array of a --binder-map 4M mapping; Android's 1 MiB one needs 8 KiB, from
 * kmalloc-8k's slabs, which this does not count) allocate; kcalloc's one try, or kvcalloc's kmalloc
 * try (with __GFP_NORETRY), which falls back to vmalloc when it fails.
 * Their failures (page and pfn 0) are counted apart, and so is the time the
 * same processes spent stalled in direct reclaim and compaction (begin/end
 * pairs per thread) inside the window.
 *
 * Only attempts and reclaims that begin inside [start_ns, end_ns] count.
 * The compaction count needs mm_compaction_suitable and
 * mm_compaction_deferred recorded: stall_window_init says whether it can.
 */
#ifndef OOMLAB_WINDOW_H
#define OOMLAB_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/parse/perf_script.h"

struct window_attempt {
	int tid;
	uint64_t t_ns;
	bool decided, counted;	/* a zone event came; whether the attempt counts */
};

struct window_stall {
	int tid;
	uint64_t begin_ns;
};

struct stall_window {
	uint64_t start_ns, end_ns;
	bool can_count_compaction;	/* the events it needs were recorded */
	uint64_t direct_reclaims;
	uint64_t compaction_stalls;
	struct window_attempt *pending;	/* one open attempt per thread at most */
	size_t n_pending, alloc_pending;
	/* binder's page array, by the binder-mmap processes or the apps */
	bool opener_seen;		/* a sample of theirs in the window */
	uint64_t page_array_allocs, page_array_failed;
	uint64_t opener_stall_ns;
	struct window_stall *stalls;	/* their open reclaim/compaction begins */
	size_t n_stalls, alloc_stalls;
};

/* RECORDED: the recorded events, ',' separated (CTL_RECORDING's "events"). */
void stall_window_init(struct stall_window *w, uint64_t start_ns, uint64_t end_ns,
		       const char *recorded);
void stall_window_sample(struct stall_window *w, const struct perf_sample *s);
/* The trace is over: attempts still open are settled. */
void stall_window_finish(struct stall_window *w);
void stall_window_release(struct stall_window *w);

#endif
