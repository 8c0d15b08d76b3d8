/* report_figures.c - the report's figures (report_figures.h). */
#include "report_figures.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/proto/protocol.h"
#include "analysis/trace/oom_victims.h"
#include "plot.h"
#include "report_app_timeline.h"
#include "common/proto/app-events.h"
#include "report_trace.h"
#include "analysis/stats/stats.h"

#define BOOT_ITERATIONS 2000
#define MAX_VICTIM_ROWS 40

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#e377c2",
};
#define N_COLOURS (sizeof(palette) / sizeof(palette[0]))

struct ctx {
	const struct run_data *rd;
	struct report_figures *out;
	struct plot plot;
	bool plot_ok;
	char *plot_error;
	struct trial_trace *traces;     /* per trial of rd, for ok trials */
};

static const char *colour(size_t g)
{
	return palette[g % N_COLOURS];
}

static unsigned colour_int(size_t g)
{
	return (unsigned)strtoul(colour(g) + 1, NULL, 16);
}

static bool trial_ok(const struct run_trial *t)
{
	return !strcmp(t->outcome, "ok");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void report_interval(const double *x, size_t n, int mean, double *mid, double *lo, double *hi)
{
	enum stats_centre c = mean ? STATS_MEAN : STATS_MEDIAN;
	*mid = n ? stats_centre(x, n, c) : NAN;
	*lo = *hi = NAN;
	if (n < 2)
		return;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 1);
	double *boot = xcalloc(BOOT_ITERATIONS, sizeof(*boot));
	double *tmp = xcalloc(n, sizeof(*tmp));
	for (size_t b = 0; b < BOOT_ITERATIONS; b++) {
		for (size_t i = 0; i < n; i++)
			tmp[i] = x[gsl_rng_uniform_int(r, n)];
		boot[b] = stats_centre(tmp, n, c);
	}
	qsort(boot, BOOT_ITERATIONS, sizeof(*boot), cmp_double);
	*lo = stats_quantile(boot, BOOT_ITERATIONS, 0.025);
	*hi = stats_quantile(boot, BOOT_ITERATIONS, 0.975);
	free(tmp);
	free(boot);
	gsl_rng_free(r);
}

/* ---- the list of figures ---- */

static struct report_figure *add_figure(struct ctx *c, const char *id, const char *title)
{
	struct report_figures *f = c->out;
	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	struct report_figure *fig = &f->v[f->n++];
	memset(fig, 0, sizeof(*fig));
	fig->id = xstrdup(id);
	fig->title = xstrdup(title);
	return fig;
}

static void left_out(struct ctx *c, const char *id, const char *title, const char *why)
{
	struct report_figure *fig = add_figure(c, id, title);
	fig->absent = xstrdup(why);
	c->out->left_out++;
}

/* Renders SCRIPT into a new figure, or leaves it out with gnuplot's reason. */
static void draw(struct ctx *c, const char *id, const char *title, const char *script,
		 int height, char *caption)
{
	if (!c->plot_ok) {
		left_out(c, id, title, c->plot_error);
		free(caption);
		return;
	}
	struct strbuf svg = STRBUF_INIT, err = STRBUF_INIT;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "f%zu", c->out->n + 1);
	if (plot_render_size(&c->plot, script, PLOT_WIDTH, height, prefix, &svg, &err) < 0) {
		left_out(c, id, title, err.buf);
		strbuf_release(&svg);
		strbuf_release(&err);
		free(caption);
		return;
	}
	struct report_figure *fig = add_figure(c, id, title);
	fig->svg = strbuf_detach(&svg);
	fig->caption = caption;
	c->out->drawn++;
	strbuf_release(&err);
}

static void common_head(struct strbuf *s, const char *xlabel, const char *ylabel)
{
	strbuf_addstr(s, "set grid lc rgb '#dddddd'\nset border lc rgb '#555555'\n"
			 "set key outside right top box lc rgb '#cccccc'\n");
	strbuf_addstr(s, "set xlabel ");
	plot_quote(s, xlabel);
	strbuf_addstr(s, "\nset ylabel ");
	plot_quote(s, ylabel);
	strbuf_addstr(s, "\n");
}

static void num(struct strbuf *s, double x)
{
	if (isfinite(x))
		strbuf_addf(s, "%.9g", x);
	else
		strbuf_addstr(s, "NaN");
}

/* xtics with the group labels at 0..G-1 */
static void group_xtics(struct strbuf *s, const struct run_data *rd)
{
	strbuf_addstr(s, "set xtics (");
	for (size_t g = 0; g < rd->labels.n; g++) {
		if (g)
			strbuf_addstr(s, ", ");
		plot_quote(s, rd->labels.items[g]);
		strbuf_addf(s, " %zu", g);
	}
	strbuf_addf(s, ")\nset xrange [-0.6:%g]\n", (double)rd->labels.n - 0.4);
}

/* ---- per-trial metric with a per-group interval ---- */

static bool has_metric(const struct run_data *rd, const char *metric)
{
	for (size_t g = 0; g < rd->labels.n; g++) {
		size_t n, n_other;
		double *v = run_data_values(rd, metric, rd->labels.items[g], &n, &n_other, NULL);
		free(v);
		if (n)
			return true;
	}
	return false;
}

static void fig_per_trial(struct ctx *c, const char *id, const char *title, const char *metric,
			  const char *ylabel, int mean, const char *what)
{
	const struct run_data *rd = c->rd;
	if (!has_metric(rd, metric)) {
		char *why = xasprintf("no trial of this run has the metric %s", metric);
		left_out(c, id, title, why);
		free(why);
		return;
	}
	struct strbuf pts = STRBUF_INIT, ci = STRBUF_INIT, s = STRBUF_INIT, cap = STRBUF_INIT;
	bool negative = false;
	const char *unit = NULL;
	for (size_t g = 0; g < rd->labels.n; g++) {
		size_t n, n_other;
		const char *u = NULL;
		double *v = run_data_values(rd, metric, rd->labels.items[g], &n, &n_other, &u);
		if (!unit)
			unit = u;
		for (size_t i = 0; i < n; i++) {
			double jitter = n > 1 ? -0.18 + 0.16 * (double)i / (double)(n - 1) : -0.1;
			strbuf_addf(&pts, "%.4f ", (double)g + jitter);
			num(&pts, v[i]);
			strbuf_addf(&pts, " %u\n", colour_int(g));
			negative |= v[i] < 0;
		}
		double mid, lo, hi;
		report_interval(v, n, mean, &mid, &lo, &hi);
		if (n) {
			strbuf_addf(&ci, "%.4f ", (double)g + 0.15);
			num(&ci, mid);
			strbuf_addstr(&ci, " ");
			num(&ci, isfinite(lo) ? lo : mid);
			strbuf_addstr(&ci, " ");
			num(&ci, isfinite(hi) ? hi : mid);
			strbuf_addstr(&ci, "\n");
		}
		strbuf_addf(&cap, "%s%s: %zu trial%s", g ? "; " : "", rd->labels.items[g], n,
			    n == 1 ? "" : "s");
		if (n)
			strbuf_addf(&cap, ", %s %.4g [%.4g, %.4g]", mean ? "mean" : "median", mid,
				    isfinite(lo) ? lo : mid, isfinite(hi) ? hi : mid);
		free(v);
	}
	char *yl = unit && *unit ? xasprintf("%s (%s)", ylabel, unit) : xstrdup(ylabel);
	common_head(&s, "group", yl);
	free(yl);
	group_xtics(&s, rd);
	if (!negative)
		strbuf_addstr(&s, "set yrange [0:*]\nset offsets 0,0,graph 0.08,0\n");
	const char *dp = plot_data(&c->plot, pts.buf);
	strbuf_addf(&s, "plot '%s' using 1:2:3 with points pt 7 ps 1.4 lc rgb variable notitle, \\\n"
			"  NaN with points pt 7 ps 1.4 lc rgb '#888888' title 'one trial', \\\n", dp);
	const char *dc = plot_data(&c->plot, ci.buf);
	strbuf_addf(&s, "  '%s' using 1:2:3:4 with yerrorbars pt 5 ps 1.2 lw 2 lc rgb '#222222' "
			"title '%s, 95%% interval'\n", dc, mean ? "mean" : "median");
	char *caption = xasprintf("%s. Points: one ok trial each; black: the group's %s with a 95%% "
				  "percentile bootstrap interval (2000 resamples, seed 1). %s.",
				  what, mean ? "mean" : "median", cap.buf);
	draw(c, id, title, s.buf, PLOT_HEIGHT, caption);
	strbuf_release(&pts);
	strbuf_release(&ci);
	strbuf_release(&s);
	strbuf_release(&cap);
}

/* ---- stall CDFs ---- */

static void fig_stalls(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	size_t with_perf = 0, total = 0;
	for (size_t i = 0; i < rd->n; i++)
		if (trial_ok(&rd->trials[i])) {
			with_perf += c->traces[i].have_perf;
			for (int k = 0; k < STALL_KINDS; k++)
				total += c->traces[i].n_stall[k];
		}
	if (!with_perf) {
		left_out(c, "stalls", "Stall latency distributions",
			 "no ok trial of this run has a perf trace (perf.script)");
		return;
	}
	if (!total) {
		char *why = xasprintf("no direct reclaim, memcg reclaim or direct compaction stall "
				      "completed in the traces of the %zu ok trial%s with perf data",
				      with_perf, with_perf == 1 ? "" : "s");
		left_out(c, "stalls", "Stall latency distributions", why);
		free(why);
		return;
	}
	for (int k = 0; k < STALL_KINDS; k++) {
		size_t kind_total = 0;
		for (size_t i = 0; i < rd->n; i++)
			if (trial_ok(&rd->trials[i]))
				kind_total += c->traces[i].n_stall[k];
		if (!kind_total)
			continue;   /* the kinds that happened get a figure; the caption of the first says so */
		struct strbuf s = STRBUF_INIT, plots = STRBUF_INIT, cap = STRBUF_INIT;
		double min_ms = INFINITY;
		for (size_t g = 0; g < rd->labels.n; g++) {
			size_t n = 0, trials = 0;
			uint64_t open = 0;
			for (size_t i = 0; i < rd->n; i++)
				if (!strcmp(rd->trials[i].label, rd->labels.items[g]) &&
				    trial_ok(&rd->trials[i])) {
					n += c->traces[i].n_stall[k];
					open += c->traces[i].open_stalls[k];
					trials++;
				}
			strbuf_addf(&cap, "%s%s: %zu stall%s in %zu trial%s", g ? "; " : "",
				    rd->labels.items[g], n, n == 1 ? "" : "s", trials,
				    trials == 1 ? "" : "s");
			if (open)
				strbuf_addf(&cap, " (+%llu still open when the trace ended, not drawn)",
					    (unsigned long long)open);
			if (!n)
				continue;
			double *all = xcalloc(n, sizeof(*all));
			size_t m = 0;
			for (size_t i = 0; i < rd->n; i++)
				if (!strcmp(rd->trials[i].label, rd->labels.items[g]) &&
				    trial_ok(&rd->trials[i]))
					for (size_t j = 0; j < c->traces[i].n_stall[k]; j++)
						all[m++] = c->traces[i].stall_ms[k][j];
			qsort(all, n, sizeof(*all), cmp_double);
			double p50 = stats_quantile(all, n, 0.5), p99 = stats_quantile(all, n, 0.99);
			strbuf_addf(&cap, ", p50 %.3g ms, p99 %.3g ms, max %.3g ms", p50, p99, all[n - 1]);
			struct strbuf d = STRBUF_INIT;
			double floor_ms = all[0] > 0 ? all[0] : 1e-6;
			if (floor_ms < min_ms)
				min_ms = floor_ms;
			strbuf_addf(&d, "%.9g 0\n", floor_ms);
			for (size_t j = 0; j < n; j++)
				strbuf_addf(&d, "%.9g %.9g\n", all[j] > 0 ? all[j] : 1e-6,
					    (double)(j + 1) / (double)n);
			const char *file = plot_data(&c->plot, d.buf);
			strbuf_addf(&plots, "%s'%s' using 1:2 with steps lw 2 lc rgb '%s' title ",
				    plots.len ? ", \\\n  " : "", file, colour(g));
			char *t = xasprintf("%s (n=%zu)", rd->labels.items[g], n);
			plot_quote(&plots, t);
			free(t);
			strbuf_release(&d);
			free(all);
		}
		common_head(&s, "stall duration (ms, log scale)", "fraction of stalls <= x");
		strbuf_addstr(&s, "set logscale x 10\nset yrange [0:1.02]\nset format x '%g'\n");
		strbuf_addf(&s, "plot %s\n", plots.buf);
		char *id = xasprintf("stalls-%s", stall_kind_name(k));
		char *title = xasprintf("Stall latency CDF: %s", stall_kind_name(k));
		char *caption = xasprintf("Every completed %s stall of the ok trials (begin/end "
					  "tracepoints paired per thread), pooled per group. %s.",
					  stall_kind_name(k), cap.buf);
		draw(c, id, title, s.buf, PLOT_HEIGHT, caption);
		free(id);
		free(title);
		strbuf_release(&s);
		strbuf_release(&plots);
		strbuf_release(&cap);
	}
}

/* ---- the reaper timeline ---- */

static double ms_after(int64_t t, int64_t from)
{
	return t == OOM_NO_TIME ? NAN : (double)(t - from) / 1e6;
}

static void fig_reaper(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	const char *title = "OOM reaper timeline per victim";
	struct strbuf bars = STRBUF_INIT, ytics = STRBUF_INIT;
	struct strbuf step[5];
	memset(step, 0, sizeof(step));
	size_t rows = 0, total = 0, reaped = 0;
	for (size_t g = 0; g < rd->labels.n; g++)
		for (size_t i = 0; i < rd->n; i++) {
			const struct run_trial *t = &rd->trials[i];
			if (strcmp(t->label, rd->labels.items[g]) || !trial_ok(t))
				continue;
			for (size_t v = 0; v < c->traces[i].n_victims; v++) {
				const struct oom_victim *vi = &c->traces[i].victims[v];
				if (vi->mark_victim_ns == OOM_NO_TIME)
					continue;
				total++;
				reaped += vi->finish_reaping_ns != OOM_NO_TIME;
				if (rows == MAX_VICTIM_ROWS)
					continue;
				double y = (double)rows;
				int64_t end = vi->mark_victim_ns;
				const int64_t ends[] = { vi->finish_reaping_ns, vi->skip_reaping_ns, vi->exit_ns };
				for (size_t e = 0; e < 3; e++)
					if (ends[e] != OOM_NO_TIME && ends[e] > end)
						end = ends[e];
				strbuf_addf(&bars, "%g 0 %.6f %u\n", y, ms_after(end, vi->mark_victim_ns),
					    colour_int(g));
				const int64_t steps[5] = { vi->wake_reaper_ns, vi->start_reaping_ns, vi->finish_reaping_ns,
							   vi->skip_reaping_ns, vi->exit_ns };
				for (int k = 0; k < 5; k++)
					if (steps[k] != OOM_NO_TIME)
						strbuf_addf(&step[k], "%.6f %g\n",
							    ms_after(steps[k], vi->mark_victim_ns), y);
				strbuf_addf(&ytics, "%s'%s/%03u pid %d' %g", rows ? ", " : "",
					    rd->labels.items[g], t->index, vi->pid, y);
				rows++;
			}
		}
	if (!rows) {
		left_out(c, "reaper", title,
			 "no ok trial of this run has an OOM victim with a mark_victim event in its "
			 "trace");
		strbuf_release(&bars);
		strbuf_release(&ytics);
		return;
	}
	static const char *const names[5] = { "wake_reaper", "start_task_reaping",
					       "finish_task_reaping", "skip_task_reaping", "exit" };
	static const int pts[5] = { 9, 7, 5, 2, 13 };
	static const char *const cols[5] = { "#555555", "#000000", "#000000", "#aa0000", "#7a4cc2" };
	struct strbuf s = STRBUF_INIT;
	common_head(&s, "ms after mark_victim", "");
	strbuf_addf(&s, "set yrange [%g:-0.7]\nset ytics (%s)\nset grid xtics\nunset ylabel\n"
			"set xrange [0:*]\nset offsets 0,graph 0.05,0,0\n",
		    (double)rows - 0.3, ytics.buf);
	const char *bf = plot_data(&c->plot, bars.buf);
	strbuf_addf(&s, "plot '%s' using 2:1:3:(0):4 with vectors nohead lw 7 lc rgb variable notitle",
		    bf);
	for (size_t g = 0; g < rd->labels.n; g++) {
		strbuf_addf(&s, ", \\\n  NaN with lines lw 7 lc rgb '%s' title ", colour(g));
		plot_quote(&s, rd->labels.items[g]);
	}
	for (int k = 0; k < 5; k++) {
		if (!step[k].len)
			continue;
		const char *f = plot_data(&c->plot, step[k].buf);
		strbuf_addf(&s, ", \\\n  '%s' using 1:2 with points pt %d ps 1.5 lc rgb '%s' title '%s'",
			    f, pts[k], cols[k], names[k]);
	}
	strbuf_addstr(&s, "\n");
	int height = 140 + 26 * (int)rows;
	if (height < 260)
		height = 260;
	char drawn[64] = "";
	if (total > rows)
		snprintf(drawn, sizeof(drawn), "; the first %zu are drawn", rows);
	char *caption = xasprintf(
		"Each bar runs from the victim's oom:mark_victim to the last of finish/skip reaping "
		"and its exit (sched_process_exit of its last thread); markers show the reaper's "
		"steps. %zu victim%s with a mark_victim in the ok trials, %zu reaped by the OOM "
		"reaper%s.",
		total, total == 1 ? "" : "s", reaped, drawn);
	draw(c, "reaper", title, s.buf, height, caption);
	strbuf_release(&s);
	strbuf_release(&bars);
	strbuf_release(&ytics);
	for (int k = 0; k < 5; k++)
		strbuf_release(&step[k]);
}

/* ---- sendVec: time per round trip by payload size ---- */

#define SENDVEC_PREFIX "binder-sendvec.sendvec_ns_per_rt."

/* "mode=sg.size=4096" -> size 4096, mode "sg" ("" without one) */
static bool sendvec_labels(const char *labels, double *size, char *mode, size_t mode_size)
{
	bool have_size = false;
	mode[0] = '\0';
	char *copy = xstrdup(labels), *save = NULL;
	for (char *kv = strtok_r(copy, ".", &save); kv; kv = strtok_r(NULL, ".", &save)) {
		if (starts_with(kv, "size="))
			have_size = parse_double(kv + 5, size) && *size > 0;
		else if (starts_with(kv, "mode="))
			snprintf(mode, mode_size, "%s", kv + 5);
	}
	free(copy);
	return have_size;
}

struct series_point {
	double x;
	char *metric;
};

static int by_x(const void *a, const void *b)
{
	const struct series_point *p = a, *q = b;
	return p->x < q->x ? -1 : p->x > q->x;
}

static void fig_sendvec(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	const char *title = "binder sendVec: time per round trip by payload size";
	struct strlist names = STRLIST_INIT, modes = STRLIST_INIT;
	run_data_metric_names(rd, &names);
	struct series_point *pts = xcalloc(names.n, sizeof(*pts));
	char **pt_mode = xcalloc(names.n, sizeof(*pt_mode));
	size_t n_pts = 0;
	for (size_t i = 0; i < names.n; i++) {
		char mode[32];
		double size;
		if (!starts_with(names.items[i], SENDVEC_PREFIX) ||
		    !sendvec_labels(names.items[i] + strlen(SENDVEC_PREFIX), &size, mode, sizeof(mode)))
			continue;
		pts[n_pts].x = size;
		pts[n_pts].metric = names.items[i];
		pt_mode[n_pts] = xstrdup(mode);
		if (!strlist_has(&modes, mode))
			strlist_push(&modes, mode);
		n_pts++;
	}
	if (!n_pts) {
		left_out(c, "sendvec", title,
			 "no trial of this run has binder-sendvec sendvec_ns_per_rt metrics");
		goto out;
	}
	struct strbuf s = STRBUF_INIT, plots = STRBUF_INIT;
	size_t n_series = rd->labels.n * modes.n, series = 0;
	for (size_t m = 0; m < modes.n; m++)
		for (size_t g = 0; g < rd->labels.n; g++, series++) {
			struct strbuf d = STRBUF_INIT;
			struct series_point *sel = xcalloc(n_pts, sizeof(*sel));
			size_t n_sel = 0;
			for (size_t i = 0; i < n_pts; i++)
				if (!strcmp(pt_mode[i], modes.items[m]))
					sel[n_sel++] = pts[i];
			qsort(sel, n_sel, sizeof(*sel), by_x);
			/* series side by side: a small shift on the log axis */
			double shift = pow(2.0, 0.08 * ((double)series - (double)(n_series - 1) / 2.0));
			for (size_t i = 0; i < n_sel; i++) {
				size_t n, n_other;
				double *v = run_data_values(rd, sel[i].metric, rd->labels.items[g], &n,
							    &n_other, NULL);
				for (size_t j = 0; j < n; j++)
					v[j] /= 1000.0;         /* ns -> us */
				double mid, lo, hi;
				report_interval(v, n, 0, &mid, &lo, &hi);
				if (n && mid > 0) {
					strbuf_addf(&d, "%.6g ", sel[i].x * shift);
					num(&d, mid);
					strbuf_addstr(&d, " ");
					num(&d, isfinite(lo) && lo > 0 ? lo : mid);
					strbuf_addstr(&d, " ");
					num(&d, isfinite(hi) ? hi : mid);
					strbuf_addstr(&d, "\n");
				}
				free(v);
			}
			free(sel);
			if (d.len) {
				const char *f = plot_data(&c->plot, d.buf);
				strbuf_addf(&plots, "%s'%s' using 1:2:3:4 with yerrorlines lw 2 pt %d "
						    "ps 1 lc rgb '%s' %s title ",
					    plots.len ? ", \\\n  " : "", f, m ? 6 : 7, colour(g),
					    m ? "dt 2" : "dt 1");
				char *t = *modes.items[m]
						  ? xasprintf("%s (%s)", rd->labels.items[g], modes.items[m])
						  : xstrdup(rd->labels.items[g]);
				plot_quote(&plots, t);
				free(t);
			}
			strbuf_release(&d);
		}
	if (!plots.len) {
		left_out(c, "sendvec", title,
			 "the sendvec_ns_per_rt metrics have no positive value in an ok trial");
	} else {
		common_head(&s, "payload (bytes, log scale)", "us per round trip (log scale)");
		strbuf_addstr(&s, "set logscale x 2\nset logscale y 10\nset format x '%.0f'\n"
				  "set format y '%g'\n"
				  "set xtics rotate by -45\n");
		strbuf_addf(&s, "plot %s\n", plots.buf);
		draw(c, "sendvec", title, s.buf, PLOT_HEIGHT + 40,
		     xasprintf("binder-sendvec's wall-clock time per round trip of a synchronous "
			       "echo (Android's BM_sendVec_binder), per payload size: the median over "
			       "the ok trials with a 95%% percentile bootstrap interval; the series are "
			       "shifted a little sideways so that they do not hide each other. %zu "
			       "sizes.", n_pts / (modes.n ? modes.n : 1)));
	}
	strbuf_release(&s);
	strbuf_release(&plots);
out:
	for (size_t i = 0; i < n_pts; i++)
		free(pt_mode[i]);
	free(pt_mode);
	free(pts);
	strlist_clear(&names);
	strlist_clear(&modes);
}

/* ---- binder-throughput latency percentiles ---- */

static void fig_latency(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	const char *title = "binder-throughput: latency percentiles";
	static const char *const which[] = { "best", "p50", "avg", "p90", "p95", "p99", "worst" };
	const size_t n_which = sizeof(which) / sizeof(which[0]);
	char metric[96];
	struct strbuf tics = STRBUF_INIT, s = STRBUF_INIT, plots = STRBUF_INIT;
	const char *present[sizeof(which) / sizeof(which[0])];
	size_t n_present = 0;
	for (size_t w = 0; w < n_which; w++) {
		snprintf(metric, sizeof(metric), "binder-throughput.throughput_latency_%s_ns", which[w]);
		if (has_metric(rd, metric)) {
			strbuf_addf(&tics, "%s'%s' %zu", n_present ? ", " : "", which[w], n_present);
			present[n_present++] = which[w];
		}
	}
	if (!n_present) {
		left_out(c, "latency", title,
			 "no trial of this run has binder-throughput latency metrics");
		goto out;
	}
	size_t G = rd->labels.n;
	for (size_t g = 0; g < G; g++) {
		struct strbuf d = STRBUF_INIT;
		double off = G > 1 ? -0.2 + 0.4 * (double)g / (double)(G - 1) : 0;
		for (size_t w = 0; w < n_present; w++) {
			snprintf(metric, sizeof(metric), "binder-throughput.throughput_latency_%s_ns",
				 present[w]);
			size_t n, n_other;
			double *v = run_data_values(rd, metric, rd->labels.items[g], &n, &n_other, NULL);
			for (size_t i = 0; i < n; i++)
				v[i] /= 1000.0;         /* ns -> us */
			double mid, lo, hi;
			report_interval(v, n, 0, &mid, &lo, &hi);
			if (n && mid > 0) {
				strbuf_addf(&d, "%.3f ", (double)w + off);
				num(&d, mid);
				strbuf_addstr(&d, " ");
				num(&d, isfinite(lo) && lo > 0 ? lo : mid);
				strbuf_addstr(&d, " ");
				num(&d, isfinite(hi) ? hi : mid);
				strbuf_addstr(&d, "\n");
			}
			free(v);
		}
		if (d.len) {
			const char *f = plot_data(&c->plot, d.buf);
			strbuf_addf(&plots, "%s'%s' using 1:2:3:4 with yerrorbars pt 7 ps 1.3 lw 2 "
					    "lc rgb '%s' title ",
				    plots.len ? ", \\\n  " : "", f, colour(g));
			plot_quote(&plots, rd->labels.items[g]);
		}
		strbuf_release(&d);
	}
	if (!plots.len) {
		left_out(c, "latency", title, "the latency metrics have no positive value");
		goto out;
	}
	common_head(&s, "statistic of one trial's transaction latencies", "latency (us, log scale)");
	strbuf_addf(&s, "set xtics (%s)\nset xrange [-0.6:%g]\nset logscale y 10\n", tics.buf,
		    (double)n_present - 0.4);
	strbuf_addf(&s, "plot %s\n", plots.buf);
	draw(c, "latency", title, s.buf, PLOT_HEIGHT,
	     xstrdup("Each trial reports its transactions' best, median (p50), mean, p90, p95, p99 "
		     "and worst latency; drawn is the median of those over the ok trials with a 95% "
		     "percentile bootstrap interval."));
out:
	strbuf_release(&tics);
	strbuf_release(&s);
	strbuf_release(&plots);
}

/* ---- buddyinfo before the workload ---- */

static void fig_buddyinfo(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	const char *title = "Free memory blocks per order before the workload (buddyinfo)";
	struct strbuf s = STRBUF_INIT, plots = STRBUF_INIT, cap = STRBUF_INIT;
	int max_orders = 0;
	for (int src = 0; src < 2; src++)
		for (size_t g = 0; g < rd->labels.n; g++) {
			double vals[REPORT_BUDDY_ORDERS][64];
			size_t n = 0;
			for (size_t i = 0; i < rd->n && n < 64; i++) {
				const struct run_trial *t = &rd->trials[i];
				if (strcmp(t->label, rd->labels.items[g]) || !trial_ok(t))
					continue;
				const struct report_buddy *b = src == 0 ? &c->traces[i].prepared
									: &c->traces[i].boot;
				if (!b->have)
					continue;
				for (int o = 0; o < REPORT_BUDDY_ORDERS; o++)
					vals[o][n] = o < b->orders ? b->free[o] : NAN;
				if (b->orders > max_orders)
					max_orders = b->orders;
				n++;
			}
			if (!n)
				continue;
			struct strbuf d = STRBUF_INIT;
			for (int o = 0; o < REPORT_BUDDY_ORDERS; o++) {
				double col[64];
				size_t m = 0;
				for (size_t i = 0; i < n; i++)
					if (isfinite(vals[o][i]))
						col[m++] = vals[o][i];
				if (!m)
					continue;
				qsort(col, m, sizeof(*col), cmp_double);
				double med = stats_median(col, m);
				/* 0 cannot be drawn on a log axis: it sits on the floor, 0.5 */
				strbuf_addf(&d, "%d %.6g %.6g %.6g\n", o, med > 0 ? med : 0.5,
					    col[0] > 0 ? col[0] : 0.5, col[m - 1] > 0 ? col[m - 1] : 0.5);
			}
			const char *f = plot_data(&c->plot, d.buf);
			strbuf_addf(&plots, "%s'%s' using ($1%+.2f):2:3:4 with yerrorlines lw 2 pt %d ps 1.1 "
					    "lc rgb '%s' dt %d title ",
				    plots.len ? ", \\\n  " : "", f, src ? 0.08 : -0.08, src ? 6 : 7,
				    colour(g), src ? 2 : 1);
			char *t = xasprintf("%s, %s (%zu trial%s)", rd->labels.items[g],
					    src ? "at boot" : "after prepare", n, n == 1 ? "" : "s");
			plot_quote(&plots, t);
			free(t);
			strbuf_release(&d);
			strbuf_addf(&cap, "%s%s %s: %zu", cap.len ? "; " : "", rd->labels.items[g],
				    src ? "at boot" : "after prepare", n);
		}
	if (!plots.len) {
		left_out(c, "buddyinfo", title,
			 "no ok trial has files/before/buddyinfo or a fragment buddyinfo event");
		goto out;
	}
	common_head(&s, "order (block of 2^order pages)", "free blocks (log scale)");
	strbuf_addf(&s, "set logscale y 10\nset yrange [0.4:*]\nset xrange [-0.5:%g]\nset xtics 1\n",
		    (double)max_orders - 0.5);
	strbuf_addf(&s, "plot %s\n", plots.buf);
	draw(c, "buddyinfo", title, s.buf, PLOT_HEIGHT,
	     xasprintf("Free blocks per order summed over the zones, median over the ok trials with "
		       "the range of the trials. Solid: after the prepare step, just before the "
		       "workload (fragment's buddyinfo events); dashed: at boot, before the prepare "
		       "step (files/before/buddyinfo). A count of 0 is drawn on the floor of the "
		       "log axis (0.5). Trials: %s.",
		       cap.buf));
out:
	strbuf_release(&s);
	strbuf_release(&plots);
	strbuf_release(&cap);
}

/* ---- memory over the trial, from the heartbeats ---- */

/* A heartbeat's available memory as a "seconds MiB" line of D. */
static void memory_sample(json_t *o, void *d)
{
	const char *type = jsonl_type(o);
	json_t *tm = json_object_get(o, "t_mono_ns"), *av = json_object_get(o, HB_MEM_AVAILABLE_KB);
	if (type && !strcmp(type, CTL_HEARTBEAT) && json_is_number(tm) && json_is_number(av))
		strbuf_addf(d, "%.3f %.1f\n", json_number_value(tm) / 1e9,
			    json_number_value(av) / 1024.0);
}

static void fig_memory(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	const char *title = "Available memory during the trial (agent heartbeats)";
	struct strbuf s = STRBUF_INIT, plots = STRBUF_INIT;
	bool legend[64] = { false };
	size_t drawn = 0;
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		if (!trial_ok(t))
			continue;
		char *path = xasprintf("%s/%s", t->dir, channel_file_name[CHANNEL_CTL]);
		struct strbuf d = STRBUF_INIT;
		long read = jsonl_read_file(path, memory_sample, &d);
		free(path);
		if (read < 0)
			continue;
		if (d.len) {
			size_t g = 0;
			for (; g < rd->labels.n && strcmp(rd->labels.items[g], t->label); g++)
				;
			const char *f = plot_data(&c->plot, d.buf);
			strbuf_addf(&plots, "%s'%s' using 1:2 with lines lw 1.5 lc rgb '%s' ",
				    plots.len ? ", \\\n  " : "", f, colour(g));
			if (g < 64 && !legend[g]) {
				legend[g] = true;
				strbuf_addstr(&plots, "title ");
				plot_quote(&plots, rd->labels.items[g]);
			} else {
				strbuf_addstr(&plots, "notitle");
			}
			drawn++;
		}
		strbuf_release(&d);
	}
	if (!drawn) {
		left_out(c, "memory", title,
			 "no ok trial has heartbeats with memory samples in ctl.jsonl (trials shorter "
			 "than a heartbeat, or an older agent)");
		goto out;
	}
	common_head(&s, "guest uptime (s, CLOCK_MONOTONIC)", "MemAvailable (MiB)");
	strbuf_addf(&s, "plot %s\n", plots.buf);
	draw(c, "memory", title, s.buf, PLOT_HEIGHT,
	     xasprintf("MemAvailable from the agent's heartbeat every second, one line per ok trial "
		       "(%zu drawn), coloured by group.", drawn));
out:
	strbuf_release(&s);
	strbuf_release(&plots);
}

/* ---- the apps workload's timeline, one trial of each group ---- */

static void fig_apps(struct ctx *c)
{
	const struct run_data *rd = c->rd;
	/* without gnuplot the other figures say why they are missing; a run
	 * without the apps workload has no such figure to miss */
	if (!c->plot_ok)
		return;
	for (size_t g = 0; g < rd->labels.n; g++) {
		/* the group's first ok trial with app events: out.log is read only
		 * where trial.json says the apps workload ran */
		for (size_t i = 0; i < rd->n; i++) {
			const struct run_trial *t = &rd->trials[i];
			if (!trial_ok(t) || strcmp(t->label, rd->labels.items[g]) ||
			    !run_trial_has_metric(t, APPS_WORKLOAD ".switches"))
				continue;
			struct strbuf s = STRBUF_INIT, cap = STRBUF_INIT;
			if (app_timeline_script(&c->plot, t->dir, t->trial, &s, &cap) == 0) {
				char *id = xasprintf("apps-%s", rd->labels.items[g]);
				char *title = xasprintf("Apps over trial %u of %s: states, deaths, PSI", t->index,
							rd->labels.items[g]);
				draw(c, id, title, s.buf, PLOT_HEIGHT,
				     xasprintf("The first ok trial of %s with the apps workload: %s", rd->labels.items[g],
					       cap.buf));
				free(id);
				free(title);
				strbuf_release(&s);
				strbuf_release(&cap);
				break;
			}
			strbuf_release(&s);
			strbuf_release(&cap);
		}
	}
}

/* ---- all of them ---- */

void report_figures_build(const struct run_data *rd, struct report_figures *out)
{
	memset(out, 0, sizeof(*out));
	struct ctx c = { .rd = rd, .out = out };
	struct strbuf err = STRBUF_INIT;
	if (!plot_available()) {
		c.plot_error = xstrdup("gnuplot is not installed (Debian package gnuplot-nox)");
	} else if (plot_open(&c.plot, &err) < 0) {
		c.plot_error = strbuf_detach(&err);
	} else {
		c.plot_ok = true;
	}
	strbuf_release(&err);
	c.traces = xcalloc(rd->n ? rd->n : 1, sizeof(*c.traces));
	for (size_t i = 0; i < rd->n; i++)
		if (trial_ok(&rd->trials[i]))
			trial_trace_load(rd->trials[i].dir, &c.traces[i]);

	fig_per_trial(&c, "oom-kills", "OOM kills per variant", "oom_kills", "OOM kills", 1,
		      "OOM kills per trial (the metric oom_kills)");
	fig_stalls(&c);
	fig_reaper(&c);
	fig_sendvec(&c);
	fig_per_trial(&c, "throughput", "binder-throughput: transactions per second",
		      "binder-throughput.throughput_iterations_per_s", "transactions per second", 0,
		      "binder-throughput's transactions per second of wall time, per trial");
	fig_latency(&c);
	fig_buddyinfo(&c);
	fig_memory(&c);
	fig_apps(&c);

	for (size_t i = 0; i < rd->n; i++)
		trial_trace_release(&c.traces[i]);
	free(c.traces);
	if (c.plot_ok)
		plot_close(&c.plot);
	free(c.plot_error);
}

void report_figures_free(struct report_figures *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].id);
		free(f->v[i].title);
		free(f->v[i].svg);
		free(f->v[i].caption);
		free(f->v[i].absent);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}
