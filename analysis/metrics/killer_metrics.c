/* killer_metrics.c - kills by killer, by tier and by reason (killer_metrics.h). */
#include "killer_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "common/kernel-text/lmkd-lines.h"
#include "common/proto/app-tiers.h"
#include "common/util.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static void add_by_tier(struct metric_set *m, const char *metric, const size_t counts[APP_TIER_COUNT],
			const char *source)
{
	for (int t = 0; t < APP_TIER_COUNT; t++) {
		char *name = xasprintf("%s.tier=%s", metric, app_tier_name((enum app_tier)t));
		metric_set_add(m, name, (double)counts[t], "count", source);
		free(name);
	}
}

/* METRIC.reason=R for each of Android lmkd's kill reasons (lmkd-lines.h), 0 included. */
static void add_by_reason(struct metric_set *m, const char *metric, const size_t counts[LMKD_REASON_COUNT],
			  const char *source)
{
	for (int why = LMKD_NO_KILL + 1; why < LMKD_REASON_COUNT; why++) {
		char *name = xasprintf("%s.reason=%s", metric, lmkd_reason_name((enum lmkd_reason)why));
		metric_set_add(m, name, (double)counts[why], "count", source);
		free(name);
	}
}

void oom_kills_by_tier(struct metric_set *m, const struct oom_reports *r)
{
	size_t counts[APP_TIER_COUNT] = { 0 };
	for (size_t i = 0; i < r->n_kills; i++)
		counts[app_tier_of_adj(r->kills[i].oom_score_adj)]++;
	add_by_tier(m, "oom_kills", counts, "kmsg");
}

void lmkd_metrics(struct metric_set *m, const struct trace *t)
{
	const struct lmkd_reports *r = &t->lmkd;
	size_t counts[APP_TIER_COUNT] = { 0 }, by_reason[LMKD_REASON_COUNT] = { 0 };
	double *reap = xmalloc((r->n_kills + 1) * sizeof(*reap));
	size_t n_reap = 0;
	for (size_t i = 0; i < r->n_kills; i++) {
		/* by the adj the line gives: the tier's name is for people */
		counts[app_tier_of_adj(r->kills[i].line.oom_score_adj)]++;
		/* an older killer's reasons (psi-partial, ...) are none of lmkd's */
		int why = lmkd_reason_of_name(r->kills[i].line.reason);
		if (why > LMKD_NO_KILL)
			by_reason[why]++;
		if (r->kills[i].have_reap && r->kills[i].reap.reaped)
			reap[n_reap++] = (double)r->kills[i].reap.ms;
	}
	add_by_tier(m, "lmkd_kills", counts, "kmsg");
	add_by_reason(m, "lmkd_kills", by_reason, "kmsg");
	if (n_reap) {
		gsl_sort(reap, 1, n_reap);
		metric_set_add(m, "lmkd_reap_ms", gsl_stats_median_from_sorted_data(reap, 1, n_reap), "ms",
			       "kmsg");
		metric_set_add(m, "lmkd_reap_max_ms", reap[n_reap - 1], "ms", "kmsg");
	}
	size_t some = 0, full = 0;
	for (size_t i = 0; i < r->n_events; i++) {
		some += !strcmp(r->events[i].line.kind, "some");
		full += !strcmp(r->events[i].line.kind, "full");
	}
	metric_set_add(m, "lmkd_psi_events.kind=some", (double)some, "count", "kmsg");
	metric_set_add(m, "lmkd_psi_events.kind=full", (double)full, "count", "kmsg");
	free(reap);
}

json_t *lmkd_kills_json(const struct lmkd_reports *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_kills; i++) {
		const struct lmkd_kill *k = &r->kills[i];
		json_t *o = json_object();
		json_object_set_new(o, "usec", json_integer((json_int_t)k->usec));
		json_object_set_new(o, "t_mono_ns", json_integer((json_int_t)k->line.t_mono_ns));
		json_object_set_new(o, "t_sent_ns", k->line.t_sent_ns ? json_integer((json_int_t)k->line.t_sent_ns)
								      : json_null());
		json_object_set_new(o, "pid", json_integer(k->line.pid));
		json_object_set_new(o, "comm", json_string(k->line.comm));
		json_object_set_new(o, "oom_score_adj", json_integer(k->line.oom_score_adj));
		json_object_set_new(o, "tier", json_string(app_tier_name(app_tier_of_adj(k->line.oom_score_adj))));
		json_object_set_new(o, "reason", json_string(k->line.reason));
		json_object_set_new(o, "rss_kb", json_integer(k->line.rss_kb));
		json_object_set_new(o, "swap_kb", json_integer(k->line.swap_kb));
		json_object_set_new(o, "psi_some_avg10", json_real(k->line.psi_some));
		json_object_set_new(o, "psi_full_avg10", json_real(k->line.psi_full));
		/* what the decision compared (null: an older line that does not say) */
		const struct lmkd_kill_line *l = &k->line;
		json_object_set_new(o, "free_kb", l->have_mem ? json_integer(l->free_kb) : json_null());
		json_object_set_new(o, "wmark_min_kb", l->have_mem ? json_integer(l->wmark_min_kb) : json_null());
		json_object_set_new(o, "wmark_low_kb", l->have_mem ? json_integer(l->wmark_low_kb) : json_null());
		json_object_set_new(o, "wmark_high_kb", l->have_mem ? json_integer(l->wmark_high_kb) : json_null());
		json_object_set_new(o, "reaped", json_boolean(k->have_reap && k->reap.reaped));
		json_object_set_new(o, "reap_ms", k->have_reap ? json_integer(k->reap.ms) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

json_t *lmkd_events_json(const struct lmkd_reports *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_events; i++) {
		const struct lmkd_event *e = &r->events[i];
		json_t *o = json_object();
		json_object_set_new(o, "usec", json_integer((json_int_t)e->usec));
		json_object_set_new(o, "kind", json_string(e->line.kind));
		json_object_set_new(o, "stall_ms", json_integer(e->line.stall_ms));
		json_object_set_new(o, "window_ms", json_integer(e->line.window_ms));
		json_object_set_new(o, "threshold_ms", json_integer(e->line.threshold_ms));
		json_object_set_new(o, "after_crossing_ms",
				    e->line.after_crossing_ms >= 0 ? json_integer(e->line.after_crossing_ms)
								   : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static void lmkd_json(json_t *o, const struct trace *t)
{
	json_object_set_new(o, "lmkd_kills", lmkd_kills_json(&t->lmkd));
	json_object_set_new(o, "lmkd_events", lmkd_events_json(&t->lmkd));
}

/* What a kind adds to the common two metrics; test-killer-kinds says which
 * kinds have none (oomd's kill line is all it reports). */
static const struct {
	void (*metrics)(struct metric_set *m, const struct trace *t);
	void (*json)(json_t *o, const struct trace *t);
} own[KILLER_KIND_COUNT] = {
	[KILLER_KIND_LMKD] = { lmkd_metrics, lmkd_json },
};

/* KIND's metric PREFIX + SUFFIX ("_kills": lmkd_kills, oomd_kills). */
static void add_by_kind(struct metric_set *m, const char *suffix, enum killer_kind kind, double value,
			const char *source)
{
	char *name = xasprintf("%s%s", killer_kinds[kind].metric_prefix, suffix);
	metric_set_add(m, name, value, "count", source);
	free(name);
}

void killer_metrics(struct metric_set *m, const struct trace *t, enum killer_kind kind, bool have_trace)
{
	add_by_kind(m, "_kills", kind, (double)t->killer_kills[kind], "kmsg");
	if (have_trace)
		add_by_kind(m, "_kills_trace", kind, (double)t->sigkills.by_kind[kind], "trace");
	if (own[kind].metrics)
		own[kind].metrics(m, t);
}

bool killer_metrics_has_own(enum killer_kind kind)
{
	return own[kind].metrics != NULL;
}

void killer_json(json_t *o, const struct trace *t, enum killer_kind kind)
{
	if (own[kind].json)
		own[kind].json(o, t);
}
