/* stall.h - allocation stalls from begin/end tracepoint pairs.
 *
 * Three kinds, each paired per thread (tid):
 *   direct_reclaim     vmscan:mm_vmscan_direct_reclaim_begin/_end
 *                      (global reclaim by the allocating task)
 *   memcg_reclaim      vmscan:mm_vmscan_memcg_reclaim_begin/_end
 *                      (reclaim to get under memory.max/high, by the charging task)
 *   direct_compaction  compaction:mm_compaction_begin/_end in any thread but
 *                      kcompactd's (comm "kcompactdN")
 *
 * Why compaction_begin/end and not mm_compaction_try_to_compact_pages: the
 * latter marks the start of a direct compaction attempt but has no end
 * event, so it cannot give a duration; begin/end bracket compact_zone(), the
 * work itself, once per zone tried.  A direct compaction attempt that
 * compaction_suitable() skips emits try_to_compact_pages and no begin/end:
 * those are counted apart (direct_compaction_attempts).  kcompactd runs
 * compact_zone() too, in the background, which stalls nobody: excluded.
 *
 * Edge cases:
 *   end without begin  ignored, counted (unmatched_end): the begin was
 *                      before the recording started, or was lost.
 *   begin while open   (same kind, same tid) the kernel never nests these
 *                      (reclaim runs with PF_MEMALLOC, compact_zone does not
 *                      recurse), so the open begin lost its end: it is
 *                      dropped and counted (nested); the new begin is kept.
 *                      Pairing the end with the older begin would stretch
 *                      one stall over the gap.
 *   begin never ended  when the trace ends (perf stopped, or the guest
 *                      died) the stall is counted as open, and the time from
 *                      its begin to the trace's last event is summed in
 *                      open_ns; it is never mixed into the completed stalls.
 */
#ifndef OOMLAB_STALL_H
#define OOMLAB_STALL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/parse/perf_script.h"

enum stall_kind {
	STALL_DIRECT_RECLAIM,
	STALL_MEMCG_RECLAIM,
	STALL_DIRECT_COMPACTION,
	STALL_KINDS,
};

struct stall_open {
	int tid;
	uint64_t begin_ns;
};

struct stall_series {
	uint64_t *durations_ns;         /* completed stalls, in order of their ends */
	size_t n, alloc;
	struct stall_open *open;        /* begins waiting for their end (at the end: never ended) */
	size_t n_open, alloc_open;
	uint64_t unmatched_end;
	uint64_t nested;
	uint64_t open_at_end;           /* set by stall_tracker_finish() */
	uint64_t open_ns;               /* their time up to the trace's last event */
};

struct stall_tracker {
	struct stall_series kind[STALL_KINDS];
	uint64_t compaction_attempts;   /* mm_compaction_try_to_compact_pages */
	uint64_t kcompactd_passes;      /* mm_compaction_end in kcompactd */
};

/* The name used in metric names: "direct_reclaim", "memcg_reclaim", "direct_compaction". */
const char *stall_kind_name(enum stall_kind kind);

void stall_tracker_init(struct stall_tracker *t);
void stall_tracker_release(struct stall_tracker *t);
/* Feeds one sample (samples of other events are ignored). */
void stall_tracker_sample(struct stall_tracker *t, const struct perf_sample *s);
void stall_begin(struct stall_tracker *t, enum stall_kind kind, int tid, uint64_t t_ns);
void stall_end(struct stall_tracker *t, enum stall_kind kind, int tid, uint64_t t_ns);
/* The trace is over; LAST_NS is its last event's time.  Closes the books on
 * the begins still open (open_at_end, open_ns); they stay listed in open[]
 * for whoever draws them. */
void stall_tracker_finish(struct stall_tracker *t, uint64_t last_ns);

struct stall_summary {
	uint64_t count;
	uint64_t total_ns, max_ns;
	double p50_ns, p99_ns;          /* GSL quantiles of the sorted durations; 0 when none */
};

void stall_summarize(const uint64_t *durations_ns, size_t n, struct stall_summary *out);

#endif
