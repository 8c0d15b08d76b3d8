/* binder-mmap: not written yet. */
#include <stdio.h>

#include "workload.h"

const char binder_mmap_usage[] = "Usage: binder-mmap (not implemented yet)\n";

int binder_mmap_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: not implemented yet\n", argv[0]);
	return 1;
}
