/*
 * What the guest's perf records. An event is written "group:name", with an
 * optional filter after " if " (perf's --filter syntax):
 *     kmem:mm_page_alloc if order > 0
 * The default list covers the OOM killer and reaper, direct and memcg
 * reclaim, compaction, fragmentation fallbacks, high-order page
 * allocations, binder's page allocation and unmapping, and process exit.
 */
#ifndef LAB_PERF_EVENTS_H
#define LAB_PERF_EVENTS_H

#include "common/util.h"

extern const char *const default_perf_events[];

/* Checks one event spec; returns NULL or the reason it is malformed. */
const char *perf_event_check(const char *spec);
/* Appends perf record arguments (-e EVENT [--filter F]) for each spec. */
int perf_events_to_args(const struct strlist *events, struct strlist *args, struct strbuf *err);
/* The default list as a strlist. */
void perf_default_events(struct strlist *out);
/* True when dir/perf.data holds anything (the guest's perf sent some of its stream). */
bool perf_recorded(const char *dir);
/*
 * Decodes dir/perf.data (pipe format, possibly cut short) into
 * dir/perf.script with `perf script`; returns 0 if a script was written.
 */
int perf_decode(const char *dir, struct strbuf *err);

#endif
