/* report_figures.h - the figures of `lab report`, drawn by gnuplot (plot.h).
 *
 * Each figure is drawn from the run's ok trials (the ones the comparison
 * counts), one colour per group, or left out with a one-line reason when
 * this run has no data for it:
 *   oom-kills        the metric oom_kills: every trial as a point, and per
 *                    group the mean with a 95% percentile bootstrap interval
 *   stalls-<kind>    stall latency CDF per group, one figure per stall kind
 *                    (stall.h) that occurred, stalls pooled over the trials
 *   reaper           per OOM victim the time from mark_victim to the last of
 *                    finish/skip reaping and exit, with each step marked
 *   sendvec          binder-sendvec.sendvec_ns_per_rt by payload size: per
 *                    group the median with a 95% bootstrap interval
 *   throughput       binder-throughput.throughput_iterations_per_s per trial
 *   latency          binder-throughput latency percentiles per group
 *   buddyinfo        free blocks per order before the workload (after the
 *                    prepare step, and at boot), median and range of trials
 *   memory           MemAvailable over the trial from the agent's heartbeats
 *   apps-<group>     the apps workload's timeline in the group's first ok
 *                    trial that ran it (report_app_timeline.h); no figure
 *                    at all in a run without it
 */
#ifndef OOMLAB_REPORT_FIGURES_H
#define OOMLAB_REPORT_FIGURES_H

#include <stddef.h>

#include "analysis/run/run-data.h"

struct report_figure {
	char *id;
	char *title;
	char *svg;      /* inline SVG; NULL when left out */
	char *caption;
	char *absent;   /* why it was left out */
};

struct report_figures {
	struct report_figure *v;
	size_t n, alloc;
	size_t drawn, left_out;
};

void report_figures_build(const struct run_data *rd, struct report_figures *out);
void report_figures_free(struct report_figures *f);

/* Per-group centre and its 95% percentile bootstrap interval (seed 1, 2000
 * resamples); MEAN chooses the mean, else the median.  LO and HI are NAN
 * for fewer than 2 values. */
void report_interval(const double *x, size_t n, int mean, double *mid, double *lo, double *hi);

#endif
