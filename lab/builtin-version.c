/* lab version (and lab --version): the lab's version (version.h). */
#include <stdio.h>

#include "builtin.h"
#include "version.h"

int cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		die_usage("version: takes no arguments (the lab's version: git describe of its source)");
	printf("lab %s\n", lab_version());
	return 0;
}
