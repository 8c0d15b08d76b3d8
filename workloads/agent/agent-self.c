/* The agent's process itself: its clock and its oom_score_adj (agent-self.h). */
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "agent-log.h"
#include "agent-self.h"

double uptime_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void protect_from_oom_killer(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "-1000", 5) < 0)
			agent_log("cannot protect pid %d from the OOM killer", (int)getpid());
		close(fd);
	}
}
