/*
 * The arithmetic of lab bisect, without I/O: the error budget, which
 * commit a step tests, how a step's two tests decide, and what the
 * bisection can name at its end (docs/STATISTICS.md, "Bisection").
 *
 * The candidates are the commits after good up to and including bad, in
 * order (oldest first): the first bad commit is one of them, and the last
 * one (bad) is known bad. A step marks one commit good, bad or skipped, as
 * `git bisect good|bad|skip` do; a skipped commit stays in the range.
 */
#ifndef LAB_BISECT_PLAN_H
#define LAB_BISECT_PLAN_H

#include <stdbool.h>
#include <stddef.h>

/* The error budget: K, the most steps a bisection of N candidates can take
 * (ceil(log2 N) halvings plus SKIPS skipped steps), and the level of each
 * step's tests, ALPHA / K (the union bound: the bisection names a wrong
 * commit only if some step calls wrong). N = 1 needs no step: K = 0 and
 * the level is ALPHA. */
unsigned bisect_max_steps(size_t candidates, unsigned skips);
double bisect_step_alpha(double alpha, unsigned max_steps);

enum bisect_mark { BISECT_UNTESTED, BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

struct bisect_range {
	size_t n;		/* candidates */
	enum bisect_mark *marks;	/* one per candidate; the last is BISECT_BAD */
	long last_good;		/* index of the last good candidate; -1: the good ref */
	long first_bad;		/* index of the first bad one */
};

/* N candidates, none tested, the last one bad. */
void bisect_range_init(struct bisect_range *r, size_t n);
void bisect_range_free(struct bisect_range *r);
/* Marks candidate I (last_good < I < first_bad); good or bad narrow the range. */
void bisect_range_mark(struct bisect_range *r, size_t i, enum bisect_mark mark);

/* What the range says now. */
enum bisect_state {
	BISECT_NEXT,		/* *NEXT is the candidate to test */
	BISECT_FOUND,		/* first_bad is the first bad commit */
	BISECT_ONLY_SKIPPED,	/* the first bad is first_bad or one of the skipped before it */
};
/* The next candidate: the untested one between last good and first bad
 * that halves the range best (nearest its middle; of two as near, the
 * older). */
enum bisect_state bisect_range_next(const struct bisect_range *r, size_t *next);

/* One step's decision from its two tests at this look: the midpoint
 * against good's trials (P_GOOD, DIR_GOOD: the sign of m - good) and
 * against bad's (P_BAD, DIR_BAD: the sign of m - bad); BAD_DIR is the sign
 * of bad - good from the endpoint check; LEVEL the look's boundary. */
enum bisect_call {
	BISECT_CALL_NONE,	/* neither test rejects: look again */
	BISECT_CALL_GOOD,	/* m differs from bad, towards good */
	BISECT_CALL_BAD,	/* m differs from good, the way bad does */
	BISECT_CALL_BOTH,	/* both reject: m is neither; inconclusive */
};
enum bisect_call bisect_step_call(double p_good, int dir_good, double p_bad, int dir_bad,
				  int bad_dir, double level);
const char *bisect_call_name(enum bisect_call call);

#endif
