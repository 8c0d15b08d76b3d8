/* Keeps a helper's file pages resident (agent-pin.c). */
#ifndef OOMLAB_AGENT_PIN_H
#define OOMLAB_AGENT_PIN_H

#include <stdint.h>
#include <sys/types.h>

/* Mlocks the file pages process PID has resident; the bytes locked */
uint64_t pin_file_pages_of(pid_t pid);

#endif
