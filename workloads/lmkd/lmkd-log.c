/* The killer's log (lmkd-log.h): its lines to /dev/kmsg. */
#include <stdio.h>
#include <unistd.h>

#include "lmkd-log.h"

void lmkd_log(const struct lmkd *k, const char *text)
{
	char line[512];
	/* <6>: KERN_INFO, as lmkd's kill reports are informational */
	int n = snprintf(line, sizeof(line), "<6>%s\n", text);
	if (k->kmsg_fd < 0 || write(k->kmsg_fd, line, (size_t)n) < 0)
		fprintf(stderr, "%s\n", text);
}
