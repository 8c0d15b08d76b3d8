/* oom-hog: not written yet. */
#include <stdio.h>

#include "workload.h"

const char oom_hog_usage[] = "Usage: oom-hog (not implemented yet)\n";

int oom_hog_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: not implemented yet\n", argv[0]);
	return 1;
}
