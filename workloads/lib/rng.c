/* The workloads' seeded generator (rng.h). */
#include "rng.h"

uint64_t wl_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

unsigned wl_random_below(uint64_t *state, unsigned n)
{
	return (unsigned)(wl_random(state) % n);
}
