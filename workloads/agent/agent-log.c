/* The agent's line on the console (agent-log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-log.h"

void agent_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(line, sizeof(line), "oomlab-agent: ");
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	strncat(line, "\n", sizeof(line) - strlen(line) - 1);
	/* The console is the serial port: the host keeps it even if ports are gone. */
	if (write(2, line, strlen(line)) < 0)
		return;
}
