/*
 * Progress of long work. On a terminal: one line redrawn in place with the
 * step, elapsed time and a percentage with an ETA when the total is known.
 * Elsewhere (logs, CI): only a line per step start and end.
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
