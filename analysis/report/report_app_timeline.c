/* report_app_timeline.c - the apps workload's timeline figure (report_app_timeline.h). */
#include "report_app_timeline.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/parse/app_timeline.h"
#include "common/jsonl.h"
#include "common/kernel-text/psi.h"
#include "common/proto/app-events.h"
#include "common/proto/app-tiers.h"
#include "common/proto/protocol.h"

static const char *const tier_colour[APP_TIER_COUNT] = {
	[APP_TIER_FOREGROUND] = "#d62728", [APP_TIER_VISIBLE] = "#ff7f0e",
	[APP_TIER_PERCEPTIBLE] = "#bcbd22", [APP_TIER_SERVICE] = "#2ca02c",
	[APP_TIER_HOME] = "#8c564b", [APP_TIER_PREVIOUS] = "#e377c2",
	[APP_TIER_SERVICE_B] = "#98df8a", [APP_TIER_CACHED] = "#1f77b4",
};

/* PSI some and full, % of the time between two heartbeats, as "s some full" lines. */
struct psi_state {
	struct strbuf *d;
	uint64_t from_ns;
	struct psi_rate rate;
};

static void psi_sample(json_t *o, void *ctx)
{
	struct psi_state *ps = ctx;
	const char *type = jsonl_type(o);
	json_t *t = json_object_get(o, "t_mono_ns"), *some = json_object_get(o, HB_PSI_SOME_TOTAL_US);
	json_t *full = json_object_get(o, HB_PSI_FULL_TOTAL_US);
	if (!type || strcmp(type, CTL_HEARTBEAT) || !json_is_number(t) || json_number_value(t) < 0)
		return;
	uint64_t tn = (uint64_t)json_number_value(t);
	double some_pct, full_pct;
	psi_rate_step(&ps->rate, tn, json_is_number(some), (uint64_t)json_number_value(some),
		      json_is_number(full), (uint64_t)json_number_value(full), &some_pct, &full_pct);
	if (some_pct >= 0 && full_pct >= 0 && tn >= ps->from_ns)
		strbuf_addf(ps->d, "%.3f %.2f %.2f\n", (double)(tn - ps->from_ns) / 1e9, some_pct, full_pct);
}

/* The guest's low-memory killer's kills of apps ("app-NN") from trial.json's
 * lmkd_kills, at the killer's CLOCK_MONOTONIC (t_mono_ns; the printk stamp,
 * usec, in a trial from before it), as "s app" lines; how many. */
static size_t lmkd_kills(const json_t *trial, uint64_t from_ns, struct strbuf *d)
{
	json_t *kills = trial ? json_object_get(trial, "lmkd_kills") : NULL;
	size_t i, n = 0;
	json_t *k;
	json_array_foreach(kills, i, k) {
		const char *comm = json_string_value(json_object_get(k, "comm"));
		json_t *mono = json_object_get(k, "t_mono_ns"), *usec = json_object_get(k, "usec");
		unsigned app;
		if (!comm || sscanf(comm, APP_COMM_PREFIX "%u", &app) != 1)
			continue;
		double t_ns;
		if (json_is_number(mono))
			t_ns = json_number_value(mono);
		else if (json_is_number(usec))
			t_ns = json_number_value(usec) * 1e3;
		else
			continue;
		strbuf_addf(d, "%.3f %u\n", (t_ns - (double)from_ns) / 1e9, app);
		n++;
	}
	return n;
}

static double secs(uint64_t t, uint64_t from)
{
	return ((double)t - (double)from) / 1e9;
}

int app_timeline_script(struct plot *p, const char *dir, const json_t *trial, struct strbuf *script,
			struct strbuf *caption)
{
	struct app_timeline tl;
	char *path = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_OUT]);
	int rc = app_timeline_read(path, &tl);
	free(path);
	if (rc < 0)
		return -1;
	uint64_t t0 = tl.start_ns;
	struct strbuf bars[APP_TIER_COUNT + 1], deaths = STRBUF_INIT, colds = STRBUF_INIT;
	struct strbuf kills = STRBUF_INIT, psi = STRBUF_INIT, plots = STRBUF_INIT;
	for (int t = 0; t <= APP_TIER_COUNT; t++)
		bars[t] = (struct strbuf)STRBUF_INIT;
	/* a bar per span: centre, row, half its length, half its height */
	for (size_t i = 0; i < tl.n_spans; i++) {
		const struct app_span *sp = &tl.spans[i];
		double b = secs(sp->begin_ns, t0), e = secs(sp->end_ns, t0);
		int row = sp->alive && sp->tier >= 0 && sp->tier < APP_TIER_COUNT ? sp->tier
										  : APP_TIER_COUNT;
		strbuf_addf(&bars[row], "%.4f %d %.4f %.2f\n", (b + e) / 2, sp->app, (e - b) / 2,
			    sp->alive ? 0.35 : 0.08);
	}
	size_t signalled = 0, cold = 0;
	for (size_t i = 0; i < tl.n_deaths; i++) {
		strbuf_addf(&deaths, "%.4f %d\n", secs(tl.deaths[i].t_ns, t0), tl.deaths[i].app);
		signalled += tl.deaths[i].signal != 0;
	}
	for (size_t i = 0; i < tl.n_launches; i++)
		if (tl.launches[i].cold) {
			strbuf_addf(&colds, "%.4f %d\n", secs(tl.launches[i].t_ns, t0), tl.launches[i].app);
			cold++;
		}
	size_t n_kills = lmkd_kills(trial, t0, &kills);
	struct psi_state ps = { .d = &psi, .from_ns = t0 };
	char *ctl = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_CTL]);
	jsonl_read_file(ctl, psi_sample, &ps);
	free(ctl);

	for (int t = 0; t <= APP_TIER_COUNT; t++) {
		if (!bars[t].len)
			continue;
		strbuf_addf(&plots, "%s'%s' using 1:2:3:4 with boxxyerror fs solid 0.85 noborder lc rgb '%s' "
			    "title '%s'", plots.len ? ", \\\n  " : "", plot_data(p, bars[t].buf),
			    t < APP_TIER_COUNT ? tier_colour[t] : "#999999",
			    t < APP_TIER_COUNT ? app_tier_name((enum app_tier)t) : "dead");
	}
	if (colds.len)
		strbuf_addf(&plots, ", \\\n  '%s' using 1:2 with points pt 9 ps 0.8 lc rgb '#000000' "
			    "title 'cold start'", plot_data(p, colds.buf));
	if (deaths.len)
		strbuf_addf(&plots, ", \\\n  '%s' using 1:2 with points pt 2 ps 1.4 lw 2 lc rgb '#000000' "
			    "title 'death'", plot_data(p, deaths.buf));
	if (kills.len)
		strbuf_addf(&plots, ", \\\n  '%s' using 1:2 with points pt 12 ps 1.8 lw 2 lc rgb '#9467bd' "
			    "title 'lmkd kill'", plot_data(p, kills.buf));
	if (psi.len) {
		const char *f = plot_data(p, psi.buf);
		strbuf_addf(&plots, ", \\\n  '%s' using 1:2 axes x1y2 with lines lw 1.2 lc rgb '#555555' "
			    "title 'PSI some %%', \\\n  '%s' using 1:3 axes x1y2 with lines lw 1.2 dt 2 "
			    "lc rgb '#000000' title 'PSI full %%'", f, f);
	}
	strbuf_addstr(script, "set grid xtics lc rgb '#dddddd'\nset border lc rgb '#555555'\n"
			      "set key outside right top box lc rgb '#cccccc'\n"
			      "set xlabel 'seconds from the first step of the apps (guest CLOCK_MONOTONIC)'\n"
			      "set ylabel 'app'\n");
	strbuf_addf(script, "set yrange [-0.7:%u.7] reverse\nset ytics 1 nomirror\n", tl.napps ? tl.napps - 1 : 0);
	if (psi.len)
		strbuf_addstr(script, "set y2label 'PSI memory (% of time)'\nset y2range [0:100]\n"
				      "set y2tics 0, 25\n");
	strbuf_addf(script, "plot %s\n", plots.buf);
	strbuf_addf(caption, "%u apps over %.1f s: %zu cold starts, %zu deaths (%zu by a signal), "
		    "%zu kills by the guest's low-memory killer%s; PSI from the agent's heartbeats%s.",
		    tl.napps, secs(tl.end_ns, t0), cold, tl.n_deaths, signalled, n_kills,
		    trial && json_object_get(trial, "lmkd_kills") ? "" : " (none recorded: kernel killer)",
		    psi.len ? "" : " (none in ctl.jsonl)");
	for (int t = 0; t <= APP_TIER_COUNT; t++)
		strbuf_release(&bars[t]);
	strbuf_release(&deaths);
	strbuf_release(&colds);
	strbuf_release(&kills);
	strbuf_release(&psi);
	strbuf_release(&plots);
	app_timeline_release(&tl);
	return 0;
}
