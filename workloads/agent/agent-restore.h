/* The agent's restore point (common/proto/protocol.h; agent-restore.c). */
#ifndef OOMLAB_AGENT_RESTORE_H
#define OOMLAB_AGENT_RESTORE_H

/* Says the restore point on the control channel, then waits for the
 * restore's line in its page (protocol.h): the seed goes into the kernel's random pool, which is
 * reseeded, and the seed and trial id into the environment. 0, or -1 (said
 * on the control channel) when there was no line to take. */
int restore_point_wait(void);

#endif
