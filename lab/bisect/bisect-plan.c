/* The arithmetic of lab bisect (bisect-plan.h). */
#include "bisect-plan.h"

#include <math.h>
#include <stdlib.h>

#include "common/util.h"

unsigned bisect_max_steps(size_t candidates, unsigned skips)
{
	unsigned halvings = 0;
	/* ceil(log2 n): the halvings that bring n candidates down to one */
	while (candidates > 1 && ((size_t)1 << halvings) < candidates)
		halvings++;
	return candidates > 1 ? halvings + skips : 0;
}

double bisect_step_alpha(double alpha, unsigned max_steps)
{
	return max_steps ? alpha / (double)max_steps : alpha;
}

void bisect_range_init(struct bisect_range *r, size_t n)
{
	r->n = n;
	r->marks = xcalloc(n ? n : 1, sizeof(*r->marks));
	r->last_good = -1;
	r->first_bad = (long)n - 1;
	if (n)
		r->marks[n - 1] = BISECT_BAD;
}

void bisect_range_free(struct bisect_range *r)
{
	free(r->marks);
	r->marks = NULL;
}

void bisect_range_mark(struct bisect_range *r, size_t i, enum bisect_mark mark)
{
	r->marks[i] = mark;
	if (mark == BISECT_GOOD && (long)i > r->last_good)
		r->last_good = (long)i;
	if (mark == BISECT_BAD && (long)i < r->first_bad)
		r->first_bad = (long)i;
}

enum bisect_state bisect_range_next(const struct bisect_range *r, size_t *next)
{
	long lo = r->last_good, hi = r->first_bad, best = -1, best_cost = 0;
	for (long i = lo + 1; i < hi; i++) {
		if (r->marks[i] != BISECT_UNTESTED)
			continue;
		/* the candidates left after the answer that leaves more */
		long cost = i - lo > hi - i ? i - lo : hi - i;
		if (best < 0 || cost < best_cost) {
			best = i;
			best_cost = cost;
		}
	}
	if (best >= 0) {
		*next = (size_t)best;
		return BISECT_NEXT;
	}
	return hi - lo == 1 ? BISECT_FOUND : BISECT_ONLY_SKIPPED;
}

enum bisect_call bisect_step_call(double p_good, int dir_good, double p_bad, int dir_bad,
				  int bad_dir, double level)
{
	bool like_bad = bad_dir && p_good < level && dir_good == bad_dir;
	bool like_good = bad_dir && p_bad < level && dir_bad == -bad_dir;
	if (like_bad && like_good)
		return BISECT_CALL_BOTH;
	return like_bad ? BISECT_CALL_BAD : like_good ? BISECT_CALL_GOOD : BISECT_CALL_NONE;
}

const char *bisect_call_name(enum bisect_call call)
{
	switch (call) {
	case BISECT_CALL_GOOD: return "good";
	case BISECT_CALL_BAD:  return "bad";
	case BISECT_CALL_BOTH: return "neither (differs from both)";
	case BISECT_CALL_NONE: break;
	}
	return "undecided";
}
