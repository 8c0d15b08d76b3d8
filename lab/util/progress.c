/* Progress of long work: redrawn on a terminal, a line now and then elsewhere. */
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

/* "412/2400 steps, 17%, ETA 11m" once some are done; "" before. */
static void describe_done(const struct progress *p, double now, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!p->total && p->done) {
		snprintf(buf, size, " (%lu steps)", p->done);
	} else if (p->total && p->done) {
		double per = (now - p->step_start) / (double)p->done;
		double left = per * (double)(p->total > p->done ? p->total - p->done : 0);
		char d[32];
		format_duration(d, sizeof(d), left);
		unsigned pct = (unsigned)(100.0 * (double)p->done / (double)p->total);
		snprintf(buf, size, " %lu/%lu steps, %u%%, ETA %s", p->done, p->total,
			 pct > 99 ? 99 : pct, d);
	}
}

/* Off a terminal (a log, CI, a pipe): a line now and then, so that a long
 * step is never silent for long. */
#define LOG_LINE_EVERY 60.0

/* The step, the time so far and what is done: redrawn in place on a
 * terminal, a line of its own elsewhere. */
static void show(struct progress *p)
{
	char elapsed[32], done[96];
	double now = now_monotonic();
	format_duration(elapsed, sizeof(elapsed), now - p->start);
	describe_done(p, now, done, sizeof(done));
	if (p->tty)
		fprintf(stderr, "\r\033[K%s: %s %s%s", p->label, p->step, elapsed, done);
	else
		fprintf(stderr, "lab: %s: %s, %s so far:%s\n", p->label, p->step, elapsed, done);
	fflush(stderr);
	p->last_draw = now;
}

void progress_step(struct progress *p, const char *step, unsigned long total)
{
	snprintf(p->step, sizeof(p->step), "%s", step);
	p->total = total;
	p->done = 0;
	p->step_start = p->last_draw = now_monotonic();
	if (p->tty)
		show(p);
	else if (!quiet)
		fprintf(stderr, "lab: %s: %s\n", p->label, step);
}

void progress_update(struct progress *p, unsigned long done)
{
	p->done = done;
	double since = now_monotonic() - p->last_draw;
	if (p->tty ? since > 0.25 : !quiet && since > LOG_LINE_EVERY)
		show(p);
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
