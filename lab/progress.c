/* Progress of long work: redrawn on a terminal, a line per step elsewhere. */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

void progress_begin(struct progress *p, const char *label)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->start = p->step_start = now_monotonic();
	p->tty = isatty(2) && !quiet && !getenv("CI");
}

static void draw(struct progress *p)
{
	char elapsed[32], eta[64] = "";
	double now = now_monotonic();
	format_duration(elapsed, sizeof(elapsed), now - p->start);
	if (!p->total && p->done) {
		snprintf(eta, sizeof(eta), " (%lu steps)", p->done);
	} else if (p->total && p->done) {
		double per = (now - p->step_start) / (double)p->done;
		double left = per * (double)(p->total > p->done ? p->total - p->done : 0);
		char d[32];
		format_duration(d, sizeof(d), left);
		unsigned pct = (unsigned)(100.0 * (double)p->done / (double)p->total);
		snprintf(eta, sizeof(eta), " %u%% ETA %s", pct > 99 ? 99 : pct, d);
	}
	fprintf(stderr, "\r\033[K%s: %s %s%s", p->label, p->step, elapsed, eta);
	fflush(stderr);
	p->last_draw = now;
}

void progress_step(struct progress *p, const char *step, unsigned long total)
{
	snprintf(p->step, sizeof(p->step), "%s", step);
	p->total = total;
	p->done = 0;
	p->step_start = now_monotonic();
	if (p->tty)
		draw(p);
	else if (!quiet)
		fprintf(stderr, "lab: %s: %s\n", p->label, step);
}

void progress_update(struct progress *p, unsigned long done)
{
	p->done = done;
	if (p->tty && now_monotonic() - p->last_draw > 0.25)
		draw(p);
}

void progress_end(struct progress *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->tty)
		fprintf(stderr, "\r\033[K");
	if (!quiet)
		fprintf(stderr, "lab: %s: %s\n", p->label, msg);
}
