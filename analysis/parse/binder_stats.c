/* binder's global statistics as lists (binder_stats.h). */
#include "binder_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static void add_line(const struct binder_stats_line *line, void *ctx)
{
	struct binder_stats *out = ctx;
	if (line->object) {
		ALLOC_GROW(out->objs, out->n_objs + 1, out->alloc_objs);
		struct binder_obj_count *o = &out->objs[out->n_objs++];
		snprintf(o->type, sizeof(o->type), "%s", line->name);
		o->active = line->active;
		o->total = line->total;
	} else {
		ALLOC_GROW(out->cmds, out->n_cmds + 1, out->alloc_cmds);
		struct binder_cmd_count *c = &out->cmds[out->n_cmds++];
		snprintf(c->name, sizeof(c->name), "%s", line->name);
		c->count = line->count;
	}
}

int binder_stats_parse(const char *text, struct binder_stats *out)
{
	return binder_stats_each(text, add_line, out);
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
