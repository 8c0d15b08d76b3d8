/* The agent's process itself (agent-self.c): its clock, and its place out
 * of the OOM killer's reach, which its helpers take too. */
#ifndef OOMLAB_AGENT_SELF_H
#define OOMLAB_AGENT_SELF_H

/* Seconds since boot (CLOCK_BOOTTIME). */
double uptime_seconds(void);
/* oom_score_adj -1000 for the calling process (logged when refused). */
void protect_from_oom_killer(void);

#endif
