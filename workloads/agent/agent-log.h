/* The agent's line on the console (agent-log.c). */
#ifndef OOMLAB_AGENT_LOG_H
#define OOMLAB_AGENT_LOG_H

/* "oomlab-agent: " and the message, on stderr: the serial console, which the
 * host keeps even when the ports are gone. */
void agent_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
