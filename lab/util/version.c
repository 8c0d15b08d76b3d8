/* The lab's version (version.h). */
#include "version.h"

#include "lab-version.h"

const char *lab_version(void)
{
	return LAB_VERSION;
}
