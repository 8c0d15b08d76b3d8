/* stats_adjust.c - Holm-Bonferroni adjustment for many tests at once. */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

struct indexed_p {
	double p;
	size_t index;
};

static int by_p(const void *x, const void *y)
{
	const struct indexed_p *a = x, *b = y;

	return (a->p > b->p) - (a->p < b->p);
}

/* Step-down: the i-th smallest of m p-values is multiplied by m - i (i from
 * 0), and the running maximum keeps the adjusted values in the same order
 * as the raw ones. */
void stats_holm_adjust(double *p, size_t n)
{
	struct indexed_p *sorted = malloc(n * sizeof(*sorted));
	size_t m = 0;
	double running_max = 0.0;

	if (!sorted) {	/* fail safe: no test may look significant */
		for (size_t i = 0; i < n; i++)
			if (!isnan(p[i]))
				p[i] = 1.0;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			sorted[m++] = (struct indexed_p){ p[i], i };
	qsort(sorted, m, sizeof(*sorted), by_p);
	for (size_t i = 0; i < m; i++) {
		double adjusted = fmin(1.0, (double)(m - i) * sorted[i].p);

		running_max = fmax(running_max, adjusted);
		p[sorted[i].index] = running_max;
	}
	free(sorted);
}
