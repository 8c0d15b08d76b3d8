/* samples.h - where the unit tests find tests/samples/ (real captured trial
 * data, see tests/samples/README.md), and small helpers to read it.
 *
 * The test binaries live in build/tests/; the samples are found from the
 * binary's own path (../../tests/samples), or from $OOMLAB_SAMPLES.
 */
#ifndef OOMLAB_TEST_SAMPLES_H
#define OOMLAB_TEST_SAMPLES_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

static inline char *sample_path(const char *rel)
{
	const char *env = getenv("OOMLAB_SAMPLES");
	if (env && *env)
		return xasprintf("%s/%s", env, rel);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return xasprintf("tests/samples/%s", rel);
	exe[n] = '\0';
	/* <repo>/build/tests/test-x -> <repo> */
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
	}
	return xasprintf("%s/tests/samples/%s", exe, rel);
}

/* The whole sample file (NUL-terminated), or a failed test. */
static inline char *sample_read(const char *rel)
{
	char *path = sample_path(rel);
	char *text = read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "cannot read sample %s\n", path);
		abort();
	}
	free(path);
	return text;
}

/* A copy of the first line of sample REL that contains NEEDLE (after SKIP
 * earlier matches), without its newline; NULL when there is none. */
static inline char *sample_line(const char *rel, const char *needle, int skip)
{
	char *text = sample_read(rel);
	char *found = NULL;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *copy = xstrndup(line, len);
		if (strstr(copy, needle) && skip-- == 0) {
			found = copy;
			break;
		}
		free(copy);
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return found;
}

#endif
