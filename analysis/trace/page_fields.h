/*
 * page_fields.h - the page allocator's tracepoint fields as perf script
 * prints them, in either of two forms:
 *   printed  the event's print format: page=0xffffea... (or (nil), or
 *            zeros for a failure) pfn=0x48d0 (0 for a failure)
 *            gfp_flags=GFP_KERNEL|__GFP_COMP|__GFP_ZERO (x86_64 here);
 *   raw      "[FAILED TO PARSE]" and the fields as numbers: no page=,
 *            pfn=0xffffffffffffffff for a failure, gfp_flags=0x40dc0. The
 *            host's perf cannot evaluate arm64's print format of
 *            mm_page_alloc (its page= needs vmemmap, a kernel variable).
 * Raw gfp flags are read with the bits of 6.12's include/linux/gfp_types.h.
 */
#ifndef ANALYSIS_TRACE_PAGE_FIELDS_H
#define ANALYSIS_TRACE_PAGE_FIELDS_H

#include <stdbool.h>

#include "analysis/parse/perf_script.h"

/* A kmem:mm_page_alloc sample that found no page, in either form. */
bool page_alloc_failed(const struct perf_sample *s);
/* Whether FLAGS (a gfp_flags field, symbolic or a number) has FLAG, one of
 * "__GFP_ZERO", "__GFP_COMP", "__GFP_NORETRY", "__GFP_NOWARN". */
bool gfp_flags_have(const char *flags, const char *flag);

#endif
