/* systemd-oomd's memory-pressure rule (oomd-rule.h). */
#include "oomd-rule.h"

void oomd_state_init(struct oomd_state *s)
{
	s->over_since_ms = -1;
	s->last_reclaim_ms = -1;
	s->last_kill_ms = -1;
}

bool oomd_poll(struct oomd_state *s, const struct oomd_rule *r, double avg10, bool reclaimed,
	       int64_t now_ms, int64_t *over_ms)
{
	if (reclaimed)
		s->last_reclaim_ms = now_ms;
	/* oomd_pressure_above(): strictly above; at or under forgets the start */
	if (!(avg10 > r->limit_percent)) {
		s->over_since_ms = -1;
		return false;
	}
	if (s->over_since_ms < 0)
		s->over_since_ms = now_ms;
	*over_ms = now_ms - s->over_since_ms;
	if (*over_ms < r->duration_ms)
		return false;
	if (s->last_kill_ms >= 0 && now_ms - s->last_kill_ms < OOMD_POST_KILL_DELAY_MS)
		return false;
	/* no reclaim lately: a kill would not relieve the pressure */
	return s->last_reclaim_ms >= 0 && now_ms - s->last_reclaim_ms <= OOMD_RECLAIM_WINDOW_MS;
}

void oomd_killed(struct oomd_state *s, int64_t now_ms)
{
	s->last_kill_ms = now_ms;
}

int oomd_select(const struct oomd_candidate *c, size_t n)
{
	int best = -1;
	for (size_t i = 0; i < n; i++) {
		if (!c[i].pgscan_delta && !c[i].memory_bytes)
			continue;
		if (best < 0 || c[i].pgscan_delta > c[best].pgscan_delta ||
		    (c[i].pgscan_delta == c[best].pgscan_delta && c[i].memory_bytes > c[best].memory_bytes))
			best = (int)i;
	}
	return best;
}
