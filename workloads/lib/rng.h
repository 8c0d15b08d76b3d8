/* A small seeded generator for the workloads (splitmix64): its whole state
 * is one word, so what it draws depends on the seed alone and a test can
 * call it as the workload does. */
#ifndef OOMLAB_RNG_H
#define OOMLAB_RNG_H

#include <stdint.h>

/* The next 64 random bits; advances *STATE. */
uint64_t wl_random(uint64_t *state);
/* A draw from 0..N-1 (N > 0). */
unsigned wl_random_below(uint64_t *state, unsigned n);

#endif
