/*
 * killer_metrics.h - kills by killer and by tier (trial_metrics.h lists the
 * names): the kernel's OOM kills by the oom_score_adj tier of each victim
 * (common/proto/app-tiers.h), and, in a trial whose guest ran a userspace
 * killer (the control line CTL_KILLER names its kind,
 * common/proto/killer-kinds.h), that killer's kills: for every kind
 * PREFIX_kills from its kill lines in kmsg.log and PREFIX_kills_trace from
 * the trace's SIGKILLs sent under its comm; for lmkd also by tier and by
 * Android lmkd's kill reason, its reap times, its PSI events, and
 * trial.json's "lmkd_kills" and "lmkd_events" lists.
 */
#ifndef OOMLAB_KILLER_METRICS_H
#define OOMLAB_KILLER_METRICS_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/trace/trace.h"
#include "metric_set.h"

/* oom_kills.tier=T for every tier, from the kernel's kill reports. */
void oom_kills_by_tier(struct metric_set *m, const struct oom_reports *r);
/* The metrics of killer KIND (a userspace one): PREFIX_kills, and
 * PREFIX_kills_trace only when HAVE_TRACE, then the kind's own. */
void killer_metrics(struct metric_set *m, const struct trace *t, enum killer_kind kind, bool have_trace);
/* Whether killer_metrics() knows KIND's own metrics (none is a fine answer
 * only for a kind that has none: test-killer-kinds). */
bool killer_metrics_has_own(enum killer_kind kind);
/* KIND's own lists into trial.json's object O (lmkd: "lmkd_kills", "lmkd_events"). */
void killer_json(json_t *o, const struct trace *t, enum killer_kind kind);
/* lmkd's own metrics: kills by tier and reason, reap times, PSI events. */
void lmkd_metrics(struct metric_set *m, const struct trace *t);
/* trial.json's "lmkd_kills" and "lmkd_events". */
json_t *lmkd_kills_json(const struct lmkd_reports *r);
json_t *lmkd_events_json(const struct lmkd_reports *r);

#endif
