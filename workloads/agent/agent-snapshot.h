/* Snapshots of the guest's memory state, and the stall window's edges (agent-snapshot.c). */
#ifndef OOMLAB_AGENT_SNAPSHOT_H
#define OOMLAB_AGENT_SNAPSHOT_H

void send_snapshots(const char *when);
/* An edge of the stall window: WINDOW_EDGE_START or WINDOW_EDGE_END. */
struct job;
void send_window(const char *edge, const struct job *job);

#endif
