/* Forwards the kernel log to the host (agent-kmsg.c). */
#ifndef OOMLAB_AGENT_KMSG_H
#define OOMLAB_AGENT_KMSG_H

void start_kmsg_forwarder(void);

#endif
