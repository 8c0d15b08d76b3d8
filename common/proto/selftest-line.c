/* How the host reads a selftest line (selftest-line.h). */
#include "selftest-line.h"

#include <string.h>

bool selftest_option_takes_value(const char *word)
{
	static const char *const with_value[] = { "--node", "--timeout", NULL };
	for (const char *const *o = with_value; *o; o++)
		if (!strcmp(word, *o))
			return true;
	return false;
}
