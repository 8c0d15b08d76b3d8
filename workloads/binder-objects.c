/* binder-objects: not written yet. */
#include <stdio.h>

#include "workload.h"

const char binder_objects_usage[] = "Usage: binder-objects (not implemented yet)\n";

int binder_objects_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: not implemented yet\n", argv[0]);
	return 1;
}
