/* The control channel's records (agent-ctl.h), written to its port. */
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent-ctl.h"
#include "agent-ports.h"
#include "agent-self.h"
#include "workloads/lib/report.h"
#include "workloads/lib/sysinfo.h"

void ctl_begin(struct jl *j, const char *type)
{
	jl_begin(j);
	jl_str(j, "type", type);
	jl_dbl(j, "uptime", uptime_seconds());
	jl_u64(j, "t_mono_ns", mono_ns());
}

void ctl_event(const char *type, const char *key, const char *value)
{
	struct jl j;
	ctl_begin(&j, type);
	if (key)
		jl_str(&j, key, value);
	jl_emit(&j, port_fd(CHANNEL_CTL));
}

void ctl_hello(void)
{
	struct utsname u;
	struct jl j;
	ctl_begin(&j, CTL_HELLO);
	jl_str(&j, HELLO_MACHINE, uname(&u) == 0 ? u.machine : "");
	jl_u64(&j, HELLO_PAGE_SIZE, (uint64_t)sysconf(_SC_PAGESIZE));
	jl_emit(&j, port_fd(CHANNEL_CTL));
}

void ctl_window(const struct window_state *w)
{
	struct jl j;
	ctl_begin(&j, CTL_WINDOW);
	jl_str(&j, "edge", w->edge);
	jl_u64(&j, "read_begin_mono_ns", w->read_begin_ns);
	jl_u64(&j, "read_mono_ns", w->read_ns);
	if (!strcmp(w->edge, WINDOW_EDGE_START)) {
		jl_i64(&j, WINDOW_TARGET_ORDER, w->target_order);
		if (w->free_blocks_ge >= 0)
			jl_i64(&j, WINDOW_FREE_BLOCKS_GE, w->free_blocks_ge);
		if (w->target_max_blocks >= 0)
			jl_i64(&j, WINDOW_TARGET_MAX_BLOCKS, w->target_max_blocks);
	}
	jl_emit(&j, port_fd(CHANNEL_CTL));
}
