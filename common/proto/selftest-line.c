/* How the host reads a selftest line (selftest-line.h). */
#include "selftest-line.h"

#include "common/base/str-list.h"

const char *const selftest_value_options[] = { "--node", "--timeout", NULL };

size_t selftest_operand(const char *const *args)
{
	size_t k = 0;
	while (args[k] && args[k][0] == '-')
		k += str_in_list(args[k], selftest_value_options) && args[k + 1] ? 2 : 1;
	return k;
}
