/* The agent's channels (common/proto/protocol.h) as virtio-serial ports (agent-ports.c). */
#ifndef OOMLAB_AGENT_PORTS_H
#define OOMLAB_AGENT_PORTS_H

#include <stddef.h>

#include "common/proto/protocol.h"

#define PORT_WRITE_MAX 4096
/* How long PID 1 waits for its ports to appear before falling back to the console. */
#define PORTS_WAIT_SECONDS 10.0
void ports_open(void);
/* Writes to a port in page-sized pieces (see agent-ports.c for why). */
void port_write(int fd, const char *data, size_t len);
/*
 * A pipe whose reader copies everything to the port in page-sized pieces,
 * for writers that write large chunks (perf, the command). Returns the
 * write end; relay_finish() waits for the copy once every writer closed it.
 */
int relay_start(enum channel port);
void relay_finish(enum channel port);
int port_fd(enum channel port);
const char *port_name(enum channel port);
/* Sends a file's current contents as one record on the files port. */
void send_file(const char *record_name, const char *path);
void send_buffer(const char *record_name, const char *data, size_t len);

#endif
