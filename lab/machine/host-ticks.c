/* The host counter's rate (host-ticks.h). */
#include "host-ticks.h"

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
static uint64_t ticks(void)
{
	return __rdtsc();
}
#elif defined(__aarch64__)
static uint64_t ticks(void)
{
	uint64_t v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#else
static uint64_t ticks(void)
{
	return 0;
}
#endif

static uint64_t raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

unsigned long host_tick_khz(void)
{
	static unsigned long khz;
	if (khz)
		return khz;
	uint64_t t0 = raw_ns(), c0 = ticks();
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	nanosleep(&nap, NULL);
	uint64_t t1 = raw_ns(), c1 = ticks();
	if (t1 > t0 && c1 > c0)
		khz = (unsigned long)((double)(c1 - c0) * 1e6 / (double)(t1 - t0) + 0.5);
	return khz;
}
