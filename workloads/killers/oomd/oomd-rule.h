/*
 * systemd-oomd's memory-pressure rule on data alone (docs/FIDELITY-OOMD.md;
 * systemd src/oom/oomd-util.c oomd_pressure_above(),
 * oomd_select_by_pgscan_rate(), oomd-manager.c
 * monitor_memory_pressure_contexts_handler()):
 * - once a second the monitored cgroup's memory PSI full avg10 is compared
 *   with the limit; the time it went over is kept, and forgotten as soon as
 *   a poll finds it at or under the limit;
 * - over the limit for at least the duration, with reclaim in the cgroup
 *   (its pgscan grew) within the last 30 s, and not within 15 s of the last
 *   kill, it kills;
 * - the victim is one candidate (a leaf cgroup under the monitored one, or
 *   one with memory.oom.group = 1): the largest pgscan since the poll
 *   before, then the largest memory.current; none with both zero.
 */
#ifndef OOMLAB_OOMD_RULE_H
#define OOMLAB_OOMD_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* systemd src/oom/oomd-manager.h */
#define OOMD_POLL_MS              1000    /* MEM_PRESSURE_INTERVAL_USEC */
#define OOMD_RECLAIM_WINDOW_MS    30000   /* RECLAIM_DURATION_USEC */
#define OOMD_POST_KILL_DELAY_MS   15000   /* POST_ACTION_DELAY_USEC */

struct oomd_rule {
	double limit_percent;
	int64_t duration_ms;
};

struct oomd_state {
	int64_t over_since_ms;      /* when the pressure went over the limit; -1: it is not */
	int64_t last_reclaim_ms;    /* the last poll that saw the cgroup's pgscan grow; -1: none */
	int64_t last_kill_ms;       /* -1: none */
};

void oomd_state_init(struct oomd_state *s);

/* One poll at NOW_MS: the monitored cgroup's PSI full AVG10 and whether its
 * pgscan grew since the poll before. True when a kill is due; *OVER_MS then
 * says how long the pressure has been over the limit. */
bool oomd_poll(struct oomd_state *s, const struct oomd_rule *r, double avg10, bool reclaimed,
	       int64_t now_ms, int64_t *over_ms);
/* Called after a kill at NOW_MS: the 15 s delay starts. */
void oomd_killed(struct oomd_state *s, int64_t now_ms);

struct oomd_candidate {
	uint64_t pgscan_delta;      /* pgscan since the poll before */
	uint64_t memory_bytes;      /* memory.current */
};

/* The index of the candidate to kill among N, or -1 when none is worth it. */
int oomd_select(const struct oomd_candidate *c, size_t n);

#endif
