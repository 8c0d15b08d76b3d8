/* binder-throughput: not written yet. */
#include <stdio.h>

#include "workload.h"

const char binder_throughput_usage[] = "Usage: binder-throughput (not implemented yet)\n";

int binder_throughput_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: not implemented yet\n", argv[0]);
	return 1;
}
