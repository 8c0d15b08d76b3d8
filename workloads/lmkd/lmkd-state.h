/* The killer's state (lmkd.h), which its loop (lmkd.c), its kills
 * (lmkd-kill.c) and its log (lmkd-log.c) share. */
#ifndef OOMLAB_LMKD_STATE_H
#define OOMLAB_LMKD_STATE_H

#include <stdint.h>

#include "common/proto/lmkd-config.h"
#include "lmkd-adj-book.h"
#include "lmkd-policy.h"
#include "lmkd-psi.h"

struct lmkd {
	struct lmkd_config cfg;
	struct lmkd_tunables tun;
	struct lmkd_memory mem;             /* what lmkd remembers between cycles */
	int some_fd, full_fd;               /* the triggers: held open, or they go */
	int kmsg_fd;
	struct lmkd_samples some, full;     /* PSI stall totals, sampled for the event lines */
	int64_t last_event_ms[2];           /* some, full */
	int64_t last_sample_ms;
	struct lmkd_adj_book book;          /* since when each process has held its adj */
	int victim_pidfd;                   /* the last kill's, until its death or the timeout; -1 */
	int last_victim;                    /* never chosen again (lmkd drops its record) */
	long page_kb;
};

#endif
