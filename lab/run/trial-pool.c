/* Trials in parallel: the start order, the round barriers and admission. */
#include "trial-pool.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

unsigned trial_jobs_default(unsigned cores, unsigned long long mem_available,
			    unsigned long long guest_memory)
{
	unsigned long long per = guest_memory + TRIAL_QEMU_OVERHEAD_BYTES;
	unsigned long long usable =
		mem_available > TRIAL_HOST_MARGIN_BYTES ? mem_available - TRIAL_HOST_MARGIN_BYTES : 0;
	unsigned long long by_memory = per ? usable / per : 1;
	unsigned jobs = cores ? cores : 1;
	if (mem_available && by_memory < jobs)
		jobs = (unsigned)by_memory;
	return jobs ? jobs : 1;
}

unsigned host_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

unsigned long long host_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kib = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib << 10;
}

bool trial_pool_admits(unsigned running, unsigned jobs, unsigned long long available,
		       unsigned long long need)
{
	if (running >= jobs)
		return false;
	/* With nothing running a trial always starts, so a run never waits forever. */
	return running == 0 || available >= need + TRIAL_HOST_MARGIN_BYTES;
}

static bool round_ended(const struct trial_pool *pool, const bool *ended, unsigned round)
{
	size_t first = (size_t)round * pool->per_round;
	for (size_t i = first; i < first + pool->per_round && i < pool->n_slots; i++)
		if (!ended[i])
			return false;
	return true;
}

/* A slot of round R may start once every round before it that is judged
 * (the first, or all of them in a run that looks) has been. */
static bool may_start_round(const struct trial_pool *pool, unsigned round, unsigned judged)
{
	if (round <= judged)
		return true;
	return !pool->judge_every_round && judged >= 1;
}

int trial_pool_run(const struct trial_pool *pool, const struct trial_pool_ops *ops)
{
	size_t per = pool->per_round ? pool->per_round : 1;
	unsigned rounds = (unsigned)((pool->n_slots + per - 1) / per);
	unsigned jobs = pool->jobs ? pool->jobs : 1;
	bool *ended = xcalloc(pool->n_slots ? pool->n_slots : 1, sizeof(*ended));
	for (size_t i = 0; i < pool->n_slots; i++)
		ended[i] = !pool->todo[i];
	unsigned running = 0, judged = 0;
	size_t next = 0;
	bool stopping = false;
	int rc = 0;

	for (;;) {
		while (!stopping && judged < rounds && round_ended(pool, ended, judged)) {
			if (!ops->round_done(ops->ctx, judged))
				stopping = true;
			judged++;
		}
		if (stopping && !running) {
			rc = 1;
			break;
		}
		if (judged == rounds && !running)
			break;
		while (!stopping && next < pool->n_slots && running < jobs) {
			if (!pool->todo[next]) {
				next++;
				continue;
			}
			if (!may_start_round(pool, (unsigned)(next / per), judged))
				break;
			unsigned long long avail =
				ops->mem_available ? ops->mem_available(ops->ctx) : ULLONG_MAX;
			if (!trial_pool_admits(running, jobs, avail, pool->trial_bytes))
				break;
			if (ops->start(ops->ctx, next) < 0) {
				rc = -1;
				goto out;
			}
			running++;
			next++;
		}
		if (!running)
			continue;
		size_t i = ops->wait_one(ops->ctx);
		if (i == (size_t)-1 || i >= pool->n_slots) {
			rc = -1;
			goto out;
		}
		ended[i] = true;
		running--;
	}
out:
	free(ended);
	return rc;
}
