/* page_alloc.c - high-order allocation and fallback tallies (page_alloc.h). */
#include "page_alloc.h"

#include <string.h>

#include "page_fields.h"

void page_alloc_tally_sample(struct page_alloc_tally *t, const struct perf_sample *s)
{
	long long v;
	if (!strcmp(s->event, "kmem:mm_page_alloc")) {
		if (!perf_field_long(s, "order", &v) || v <= 0)
			return;
		if (v > t->max_order)
			t->max_order = (int)v;
		if (page_alloc_failed(s)) {
			t->high_order_failed++;
			return;
		}
		t->high_order++;
		t->high_order_pages += 1ull << (v > 62 ? 62 : v);
		if (v <= PAGE_ALLOC_MAX_ORDER)
			t->by_order[v]++;
	} else if (!strcmp(s->event, "kmem:mm_page_alloc_extfrag")) {
		t->extfrag++;
		/* The printed fragmenting= is the expression "fallback_order <
		 * pageblock_order", which perf's libtraceevent (6.1) evaluates
		 * wrongly (it prints 9 or 10): compute it from the two fields. */
		long long fallback, pageblock;
		if (perf_field_long(s, "fallback_order", &fallback) &&
		    perf_field_long(s, "pageblock_order", &pageblock) && fallback < pageblock)
			t->extfrag_fragmenting++;
		if (perf_field_long(s, "change_ownership", &v) && v)
			t->extfrag_change_ownership++;
	}
}
