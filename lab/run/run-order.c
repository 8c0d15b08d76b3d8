/* The order of a run's trials: interleaved rounds, shuffled with a seed. */
#include "run-order.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>

void run_order_make(const struct strlist *labels, unsigned trials, unsigned long seed,
		    struct run_slot **slots, size_t *n)
{
	size_t groups = labels->n;
	*n = groups * trials;
	*slots = xcalloc(*n ? *n : 1, sizeof(**slots));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	size_t *perm = xcalloc(groups ? groups : 1, sizeof(*perm));
	for (unsigned t = 0; t < trials; t++) {
		for (size_t g = 0; g < groups; g++)
			perm[g] = g;
		gsl_ran_shuffle(rng, perm, groups, sizeof(*perm));
		for (size_t g = 0; g < groups; g++) {
			struct run_slot *s = &(*slots)[t * groups + g];
			s->label = xstrdup(labels->items[perm[g]]);
			s->index = t;
		}
	}
	free(perm);
	gsl_rng_free(rng);
}

int run_slot_in_shard(size_t pos, unsigned k, unsigned n)
{
	return n <= 1 || pos % n == (size_t)(k - 1);
}

int parse_shard(const char *s, unsigned *k, unsigned *n)
{
	unsigned a, b;
	char extra;
	if (sscanf(s, "%u/%u%c", &a, &b, &extra) != 2 || a < 1 || b < 1 || a > b)
		return -1;
	*k = a;
	*n = b;
	return 0;
}

void run_order_free(struct run_slot *slots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(slots[i].label);
	free(slots);
}
