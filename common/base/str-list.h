/* Whether a string is one of a NULL-terminated list of words: the one
 * lookup of every such list, host and guest (the shell's reserved words,
 * a key's allowed values, a workload's options that take a value).
 * Header only, system headers only, as every common/base file. */
#ifndef COMMON_BASE_STR_LIST_H
#define COMMON_BASE_STR_LIST_H

#include <stdbool.h>
#include <string.h>

static inline bool str_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

#endif
