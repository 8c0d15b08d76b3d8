/* The control channel's records (agent-ctl.c; common/proto/protocol.h). */
#ifndef OOMLAB_AGENT_CTL_H
#define OOMLAB_AGENT_CTL_H

#include <stdint.h>

/* Starts a control-channel record: its type, uptime and t_mono_ns (protocol.h). */
struct jl;
void ctl_begin(struct jl *j, const char *type);
void ctl_event(const char *type, const char *key, const char *value);
/* The hello event: the guest's machine and page size (common/proto/protocol.h). */
void ctl_hello(void);
/* CTL_WINDOW: an edge of the stall window, read at read_ns; at the start
 * also the fragmentation (protocol.h). */
struct window_state {
	const char *edge;
	uint64_t read_begin_ns, read_ns;	/* just before and just after the reads */
	int target_order;
	int64_t free_blocks_ge;		/* -1: unknown */
	long target_max_blocks;		/* -1: no target */
};
void ctl_window(const struct window_state *w);

#endif
