/* killer_metrics.c - kills by killer, by tier and by reason (killer_metrics.h). */
#include "killer_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "common/kernel-text/lmkd-lines.h"
#include "common/proto/app-tiers.h"
#include "common/util.h"
#include "lab_metric_add.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* ROW's figure for each tier (its '*'), 0 included. */
static void add_by_tier(struct metric_set *m, enum lab_metric row, const size_t counts[APP_TIER_COUNT],
			const char *source)
{
	for (int t = 0; t < APP_TIER_COUNT; t++)
		lab_metric_add_part(m, row, (double)counts[t], source, app_tier_name((enum app_tier)t));
}

/* ROW's figure for each of Android lmkd's kill reasons (lmkd-lines.h), 0 included. */
static void add_by_reason(struct metric_set *m, enum lab_metric row, const size_t counts[LMKD_REASON_COUNT],
			  const char *source)
{
	for (int why = LMKD_NO_KILL + 1; why < LMKD_REASON_COUNT; why++)
		lab_metric_add_part(m, row, (double)counts[why], source,
				    lmkd_reason_name((enum lmkd_reason)why));
}

void oom_kills_by_tier(struct metric_set *m, const struct oom_reports *r)
{
	size_t counts[APP_TIER_COUNT] = { 0 };
	for (size_t i = 0; i < r->n_kills; i++)
		counts[app_tier_of_adj(r->kills[i].oom_score_adj)]++;
	add_by_tier(m, LAB_OOM_KILLS_TIER, counts, "kmsg");
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
	add_by_tier(m, LAB_LMKD_KILLS_TIER, counts, "kmsg");
	add_by_reason(m, LAB_LMKD_KILLS_REASON, by_reason, "kmsg");
	if (n_reap) {
		gsl_sort(reap, 1, n_reap);
		lab_metric_add(m, LAB_LMKD_REAP_MS, gsl_stats_median_from_sorted_data(reap, 1, n_reap),
			       "kmsg");
		lab_metric_add(m, LAB_LMKD_REAP_MAX_MS, reap[n_reap - 1], "kmsg");
	}
	size_t some = 0, full = 0;
	for (size_t i = 0; i < r->n_events; i++) {
		some += !strcmp(r->events[i].line.kind, "some");
		full += !strcmp(r->events[i].line.kind, "full");
	}
	lab_metric_add_part(m, LAB_LMKD_PSI_EVENTS_KIND, (double)some, "kmsg", "some");
	lab_metric_add_part(m, LAB_LMKD_PSI_EVENTS_KIND, (double)full, "kmsg", "full");
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

/* KIND's metric PREFIX + SUFFIX ("_kills": lmkd_kills, oomd_kills), one of
 * the killers' rows the catalogue makes from killer-kinds.h. */
static void add_by_kind(struct metric_set *m, const char *suffix, enum killer_kind kind, double value,
			const char *source)
{
	lab_metric_addf(m, LAB_KILLER_ROWS, value, source, "%s%s", killer_kinds[kind].metric_prefix,
			suffix);
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
