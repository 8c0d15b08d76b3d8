/* fragment: not written yet. */
#include <stdio.h>

#include "workload.h"

const char fragment_usage[] = "Usage: fragment (not implemented yet)\n";

int fragment_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: not implemented yet\n", argv[0]);
	return 1;
}
