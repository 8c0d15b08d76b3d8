/*
 * Progress of long work. On a terminal: one line redrawn in place with the
 * step, elapsed time, and steps done out of the total with a percentage and
 * an ETA when the total is known. Elsewhere (logs, CI, a pipe): a line per
 * step start and end, and a line with the same figures every minute.
 */
#ifndef LAB_PROGRESS_H
#define LAB_PROGRESS_H

#include <stdbool.h>

struct progress {
	char label[96];
	char step[96];
	double start, step_start, last_draw;
	unsigned long total, done;
	bool tty;
};

void progress_begin(struct progress *p, const char *label);
/* A new step; total is 0 when unknown. */
void progress_step(struct progress *p, const char *step, unsigned long total);
void progress_update(struct progress *p, unsigned long done);
/* Ends the current line with a final message. */
void progress_end(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
