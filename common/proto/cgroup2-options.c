/* cgroup2's mount options (cgroup2-options.h). */
#include "cgroup2-options.h"

#include <stdio.h>
#include <string.h>

#define CGROUP2_OPTION_LIST(X) X(nsdelegate) X(favordynmods) X(memory_localevents) \
	X(memory_recursiveprot) X(memory_hugetlb_accounting) X(pids_localevents)
#define AS_NAME(o) #o,
#define AS_TEXT(o) #o " | "

const char *const cgroup2_option_names[] = { CGROUP2_OPTION_LIST(AS_NAME) NULL };
/* "nsdelegate | ... | pids_localevents | none" */
const char cgroup2_options_known[] = CGROUP2_OPTION_LIST(AS_TEXT) CGROUP2_OPTIONS_NONE;

static bool known(const char *name, size_t len)
{
	for (const char *const *o = cgroup2_option_names; *o; o++)
		if (strlen(*o) == len && !strncmp(*o, name, len))
			return true;
	return false;
}

const char *cgroup2_options_check(const char *value, char *bad, size_t badsz)
{
	if (!strcmp(value, CGROUP2_OPTIONS_NONE))
		return NULL;
	for (const char *p = value;;) {
		size_t len = strcspn(p, ",");
		bool twice = false;
		for (const char *q = value; q < p; q += strcspn(q, ",") + 1)
			twice |= strcspn(q, ",") == len && !strncmp(q, p, len);
		if (!len || !known(p, len) || twice) {
			snprintf(bad, badsz, "%.*s", (int)len, p);
			return bad;
		}
		if (!p[len])
			return NULL;
		p += len + 1;
	}
}

const char *cgroup2_options_mount_data(const char *value)
{
	return strcmp(value, CGROUP2_OPTIONS_NONE) ? value : "";
}
