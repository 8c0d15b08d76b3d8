/* Run ids (run-id.h). */
#include "run-id.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#include "common/util.h"

char *run_id_new(const char *experiment, time_t when, unsigned shard_k, unsigned shard_n)
{
	char stamp[32];
	uint8_t r[3] = { 0 };
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&when));
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		/* no entropy to be had: the clock's nanoseconds will do */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r[0] = (uint8_t)ts.tv_nsec;
		r[1] = (uint8_t)(ts.tv_nsec >> 8);
		r[2] = (uint8_t)(ts.tv_nsec >> 16);
	}
	char suffix[8];
	snprintf(suffix, sizeof(suffix), "%02x%02x%02x", r[0], r[1], r[2]);
	if (shard_n > 1)
		return xasprintf("%s-%s-%s-shard%u-of-%u", experiment, stamp, suffix, shard_k, shard_n);
	return xasprintf("%s-%s-%s", experiment, stamp, suffix);
}
