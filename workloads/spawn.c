/* spawn: not written yet. */
#include <stdio.h>

#include "workload.h"

const char spawn_usage[] = "Usage: spawn (not implemented yet)\n";

int spawn_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: not implemented yet\n", argv[0]);
	return 1;
}
