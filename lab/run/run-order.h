/*
 * The order of a run's trials: round after round, each round holding every
 * group once in a shuffled order, so variants are interleaved and neither
 * warms up nor suffers from a drifting host alone. The shuffle is seeded;
 * the same seed gives the same order, which is what lets shards agree.
 */
#ifndef LAB_RUN_ORDER_H
#define LAB_RUN_ORDER_H

#include <stddef.h>

#include "common/util.h"

struct run_slot {
	char *label;
	unsigned index;   /* trial index within the group */
};

/* Fills *slots with trials * labels->n slots. */
void run_order_make(const struct strlist *labels, unsigned trials, unsigned long seed,
		    struct run_slot **slots, size_t *n);
/* True when slot position pos belongs to shard k of n (1-based k). */
int run_slot_in_shard(size_t pos, unsigned k, unsigned n);
/* Parses "K/N" with 1 <= K <= N. */
int parse_shard(const char *s, unsigned *k, unsigned *n);
void run_order_free(struct run_slot *slots, size_t n);

#endif
