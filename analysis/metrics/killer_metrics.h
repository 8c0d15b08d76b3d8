/*
 * killer_metrics.h - kills by killer and by tier (trial_metrics.h lists the
 * names): the kernel's OOM kills by the oom_score_adj tier of each victim
 * (common/proto/app-tiers.h), and, in a trial whose guest ran the
 * low-memory killer (the control line CTL_KILLER), that killer's kills from
 * its kernel log lines (by tier and by Android lmkd's kill reason) and from
 * the trace's SIGKILLs, its reap times, its
 * PSI events, and trial.json's "lmkd_kills" and "lmkd_events" lists.
 */
#ifndef OOMLAB_KILLER_METRICS_H
#define OOMLAB_KILLER_METRICS_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/trace/trace.h"
#include "metric_set.h"

/* oom_kills.tier=T for every tier, from the kernel's kill reports. */
void oom_kills_by_tier(struct metric_set *m, const struct oom_reports *r);
/* The lmkd_* metrics; the trace's count only when HAVE_TRACE. */
void lmkd_metrics(struct metric_set *m, const struct trace *t, bool have_trace);
/* trial.json's "lmkd_kills" and "lmkd_events". */
json_t *lmkd_kills_json(const struct lmkd_reports *r);
json_t *lmkd_events_json(const struct lmkd_reports *r);

#endif
