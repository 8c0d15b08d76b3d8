/* Reading a folder's names: the one listing the lab's folder walks share. */
#ifndef LAB_FOLDER_H
#define LAB_FOLDER_H

#include "util.h"

/* Leave out an entry .git too: a tree's repository is not its content. */
#define FOLDER_NO_GIT 1u

/* DIR's entries but "." and ".." (and ".git" with FOLDER_NO_GIT) appended to
 * NAMES, in byte order whatever the locale, so that a walk is the same on
 * every machine: 0, or -1 with errno set and NAMES as it was. */
int folder_list(const char *dir, unsigned flags, struct strlist *names);

#endif
