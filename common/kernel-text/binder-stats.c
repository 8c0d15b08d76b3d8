/* binder's global statistics (binder-stats.h). */
#include "binder-stats.h"

#include <stdio.h>
#include <string.h>

/* One line of the global section: 1 a count (in *OUT), 0 anything else,
 * -1 the first per-process block ("proc 123"). */
static int parse_line(const char *copy, struct binder_stats_line *out)
{
	char colon;
	memset(out, 0, sizeof(*out));
	if (!strncmp(copy, "proc ", 5) && copy[5] >= '0' && copy[5] <= '9')
		return -1;
	if (copy[0] != ' ' &&
	    sscanf(copy, "%31[a-z_]: active %llu total %llu", out->name, &out->active, &out->total) == 3) {
		out->object = true;
		return 1;
	}
	if ((!strncmp(copy, "BC_", 3) || !strncmp(copy, "BR_", 3)) &&
	    sscanf(copy, "%47[A-Z_0-9]%c %llu", out->name, &colon, &out->count) == 3 && colon == ':')
		return 1;
	return 0;
}

int binder_stats_each(const char *text, binder_stats_fn fn, void *ctx)
{
	const char *start = strstr(text, "binder stats:\n");
	if (!start)
		return -1;
	int objects = 0;
	for (const char *line = strchr(start, '\n') + 1; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char copy[256];
		if (len >= sizeof(copy))
			len = sizeof(copy) - 1;
		memcpy(copy, line, len);
		copy[len] = '\0';
		struct binder_stats_line parsed;
		int kind = parse_line(copy, &parsed);
		if (kind < 0)
			break;
		if (kind > 0) {
			objects += parsed.object;
			if (fn)
				fn(&parsed, ctx);
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return objects;
}
