/* Forwards the kernel log (/dev/kmsg records) to the host as it is written. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "agent-child.h"
#include "agent-kmsg.h"
#include "agent-ports.h"
#include "agent-self.h"

static void forward(void *arg)
{
	(void)arg;
	protect_from_oom_killer();
	int in = open("/dev/kmsg", O_RDONLY | O_CLOEXEC);
	int out = port_fd(CHANNEL_KMSG);
	if (in < 0)
		_exit(1);
	/* One read returns one record; a record already printed is never lost. */
	char record[8192];
	for (;;) {
		ssize_t n = read(in, record, sizeof(record));
		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: the next read resumes */
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);
		if (write(out, record, (size_t)n) < 0)
			_exit(1);
	}
}

void start_kmsg_forwarder(void)
{
	struct agent_child c;
	agent_child_init(&c, "oomlab-kmsg");
	c.fn = forward;
	agent_spawn(&c);
}
