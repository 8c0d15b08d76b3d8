/* page_alloc.h - tallies of high-order page allocations and of the
 * allocator's migratetype fallbacks, from two tracepoints:
 *
 *   kmem:mm_page_alloc            recorded with the filter "order > 0"
 *                                 (lab/trial/perf-events.c); order-0 samples, if a
 *                                 recording has them, are ignored here.  A
 *                                 failed allocation prints page=(nil)/0 and
 *                                 pfn=0x0 (the tracepoint fires either way).
 *   kmem:mm_page_alloc_extfrag    one per fallback: a request of one
 *                                 migratetype served from another's
 *                                 pageblock; fragmenting=1 when it splits a
 *                                 pageblock it does not take over.
 *                                 fragmenting is taken as fallback_order <
 *                                 pageblock_order from the printed fields:
 *                                 perf 6.1 prints the expression itself wrong
 *                                 (fragmenting=9 or 10 in real traces).
 */
#ifndef OOMLAB_PAGE_ALLOC_H
#define OOMLAB_PAGE_ALLOC_H

#include <stdint.h>

#include "analysis/parse/perf_script.h"

#define PAGE_ALLOC_MAX_ORDER 10         /* MAX_PAGE_ORDER on x86-64 */

struct page_alloc_tally {
	uint64_t high_order;            /* order > 0 allocations that succeeded */
	uint64_t high_order_failed;     /* ... that found no page */
	uint64_t high_order_pages;      /* sum of 2^order over the successful ones */
	uint64_t by_order[PAGE_ALLOC_MAX_ORDER + 1];    /* successful, per order */
	int max_order;                  /* highest order seen (successful or not); 0 when none */
	uint64_t extfrag;               /* fallbacks */
	uint64_t extfrag_fragmenting;
	uint64_t extfrag_change_ownership;
};

void page_alloc_tally_sample(struct page_alloc_tally *t, const struct perf_sample *s);

#endif
