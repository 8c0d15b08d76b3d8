/* How the host reads a selftest line (selftest-line.h). */
#include "selftest-line.h"

#include "common/base/str-list.h"

size_t selftest_operand(const char *const *args)
{
	static const char *const with_value[] = { "--node", "--timeout", NULL };
	size_t k = 0;
	while (args[k] && args[k][0] == '-')
		k += str_in_list(args[k], with_value) && args[k + 1] ? 2 : 1;
	return k;
}
