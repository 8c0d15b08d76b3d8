/* report_app_timeline.h - the report's timeline of the apps workload in one
 * trial: a row per app, its tier as coloured bars while it runs (grey while
 * it is dead), a cross at each death, a triangle at each cold start, a
 * diamond at each kill of the guest's low-memory killer (trial.json's
 * lmkd_kills, where the trial has them), and the machine's PSI memory some
 * and full (% of the time between two of the agent's heartbeats, ctl.jsonl)
 * on the right axis.
 */
#ifndef OOMLAB_REPORT_APP_TIMELINE_H
#define OOMLAB_REPORT_APP_TIMELINE_H

#include <jansson.h>

#include "common/util.h"
#include "plot.h"

/* The gnuplot script of trial folder DIR (its trial.json TRIAL may be NULL)
 * into SCRIPT, its data files in P, and the figure's facts into CAPTION: 0,
 * or -1 when the trial has no app event. */
int app_timeline_script(struct plot *p, const char *dir, const json_t *trial, struct strbuf *script,
			struct strbuf *caption);

#endif
