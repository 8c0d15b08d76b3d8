/* binder_stats.c - binder's global statistics parser (binder_stats.h). */
#include "binder_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

int binder_stats_parse(const char *text, struct binder_stats *out)
{
	const char *start = strstr(text, "binder stats:\n");
	if (!start)
		return -1;
	int found = 0;
	for (const char *line = strchr(start, '\n') + 1; *line;) {
		const char *nl = strchr(line, '\n');
		char *copy = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
		struct binder_obj_count o;
		struct binder_cmd_count c;
		char colon;
		int stop = 0;
		memset(&o, 0, sizeof(o));
		memset(&c, 0, sizeof(c));
		if (starts_with(copy, "proc ") && copy[5] >= '0' && copy[5] <= '9') {
			stop = 1;       /* the per-process blocks */
		} else if (copy[0] != ' ' &&
			   sscanf(copy, "%31[a-z_]: active %llu total %llu", o.type, &o.active,
				  &o.total) == 3) {
			if (out->n_objs == out->alloc_objs) {
				out->alloc_objs = out->alloc_objs ? 2 * out->alloc_objs : 8;
				out->objs = xrealloc(out->objs, out->alloc_objs * sizeof(*out->objs));
			}
			out->objs[out->n_objs++] = o;
			found++;
		} else if ((starts_with(copy, "BC_") || starts_with(copy, "BR_")) &&
			   sscanf(copy, "%47[A-Z_0-9]%c %llu", c.name, &colon, &c.count) == 3 &&
			   colon == ':') {
			if (out->n_cmds == out->alloc_cmds) {
				out->alloc_cmds = out->alloc_cmds ? 2 * out->alloc_cmds : 32;
				out->cmds = xrealloc(out->cmds, out->alloc_cmds * sizeof(*out->cmds));
			}
			out->cmds[out->n_cmds++] = c;
		}
		free(copy);
		if (stop || !nl)
			break;
		line = nl + 1;
	}
	return found;
}

void binder_stats_clear(struct binder_stats *s)
{
	free(s->objs);
	free(s->cmds);
	memset(s, 0, sizeof(*s));
}

const struct binder_obj_count *binder_stats_obj(const struct binder_stats *s, const char *type)
{
	for (size_t i = 0; i < s->n_objs; i++)
		if (!strcmp(s->objs[i].type, type))
			return &s->objs[i];
	return NULL;
}

bool binder_stats_cmd(const struct binder_stats *s, const char *name, unsigned long long *count)
{
	for (size_t i = 0; i < s->n_cmds; i++)
		if (!strcmp(s->cmds[i].name, name)) {
			*count = s->cmds[i].count;
			return true;
		}
	return false;
}
