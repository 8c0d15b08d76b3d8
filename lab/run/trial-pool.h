/*
 * Trials in parallel: which of a run's slots start when, at most N at a
 * time. The order does not change with N: slots start in the run's order
 * (run-order.h), so the design, the trial numbers and the seeds are those of
 * a run at -j 1. Only the time at which a trial starts moves.
 *
 * A round (one slot per group) is judged as a whole: the first round by the
 * first-round check, and every round of a run that looks (--until-decided)
 * by the look. No slot of the next round starts before such a round is
 * judged, so a look sees whole rounds and nothing past them.
 *
 * Memory admission: a trial starts when fewer than N run and the host has
 * the memory for one more guest (its profile's memory plus what QEMU itself
 * takes), except that with nothing running one always starts: a host
 * short of memory runs its trials one at a time, as before.
 */
#ifndef LAB_TRIAL_POOL_H
#define LAB_TRIAL_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* What a trial costs the host beyond its guest's memory (QEMU's own code
 * cache and buffers), and what the lab keeps free for itself and the host. */
#define TRIAL_QEMU_OVERHEAD_BYTES (384ULL << 20)
#define TRIAL_HOST_MARGIN_BYTES (1ULL << 30)

/* How many trials the host holds at once: one per online core, as many as
 * its memory fits (each guest's memory plus QEMU's overhead, the margin
 * kept free), at least one. */
unsigned trial_jobs_default(unsigned cores, unsigned long long mem_available,
			    unsigned long long guest_memory);
/* The host's online cores and MemAvailable (bytes, 0 when unknown). */
unsigned host_cores(void);
unsigned long long host_mem_available(void);

struct trial_pool_ops {
	/* Starts slot I; 0, or -1 to stop the run (the reason said already). */
	int (*start)(void *ctx, size_t i);
	/* Waits until one started slot has ended; returns its index, or
	 * (size_t)-1 to stop the run. */
	size_t (*wait_one)(void *ctx);
	/* Round R (from 0) has ended, every slot of it; false stops the run
	 * there. Called for each round in order, even for a round of which
	 * nothing ran (all done before, or in other shards). */
	bool (*round_done)(void *ctx, unsigned round);
	/* The host's free memory now (bytes); NULL: not checked. */
	unsigned long long (*mem_available)(void *ctx);
	void *ctx;
};

struct trial_pool {
	size_t n_slots;
	size_t per_round;          /* slots in a round: the groups */
	const bool *todo;          /* slot I has to run (in the shard, unfinished) */
	unsigned jobs;             /* at most this many at once, >= 1 */
	bool judge_every_round;    /* a run that looks: every round is judged */
	unsigned long long trial_bytes; /* a trial's need for admission */
};

/* True when one more trial may start beside RUNNING ones. */
bool trial_pool_admits(unsigned running, unsigned jobs, unsigned long long available,
		       unsigned long long need);
/* Runs the slots. Returns 0 when every slot ran, 1 when round_done stopped
 * the run (nothing is left running then), -1 when start or wait_one did. */
int trial_pool_run(const struct trial_pool *pool, const struct trial_pool_ops *ops);

#endif
