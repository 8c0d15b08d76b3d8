/*
 * psi.h - pressure stall information (/proc/pressure/memory, a cgroup's
 * memory.pressure):
 *
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=12345
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=6789      (total in us)
 */
#ifndef OOMLAB_PSI_H
#define OOMLAB_PSI_H

#include <stdbool.h>
#include <stdint.h>

struct psi {
	bool have_some, have_full;
	double some_avg10, some_avg60, some_avg300;
	double full_avg10, full_avg60, full_avg300;
	unsigned long long some_total_us, full_total_us;
};

/* false when neither a "some" nor a "full" line is there. */
bool psi_parse(const char *text, struct psi *out);

/*
 * The share of time stalled between two readings of the totals (the
 * agent's heartbeats): each reading's totals in us at T_NS, either absent.
 * psi_rate_step sets *SOME_PCT and *FULL_PCT to the percentage of the time
 * since the previous reading, or to -1 where the two cannot say (the first
 * reading, no time between them, a total absent or gone backwards).
 */
struct psi_rate {
	bool have_prev, prev_has_some, prev_has_full;
	uint64_t prev_t_ns, prev_some_us, prev_full_us;
};
void psi_rate_step(struct psi_rate *r, uint64_t t_ns, bool has_some, uint64_t some_us, bool has_full,
		   uint64_t full_us, double *some_pct, double *full_pct);

#endif
