/* killer_lines.c - a kind's kill lines (killer_lines.h). */
#include "killer_lines.h"

#include <stddef.h>

#include "common/kernel-text/lmkd-lines.h"
#include "common/kernel-text/oomd-lines.h"

static bool lmkd_kill(const char *text)
{
	struct lmkd_kill_line l;
	return lmkd_parse_kill(text, &l);
}

static bool oomd_kill(const char *text)
{
	struct oomd_kill_line l;
	return oomd_parse_kill(text, &l);
}

/* One per userspace row of killer_kinds; test-killer-kinds holds it to them. */
static bool (*const kill_line[KILLER_KIND_COUNT])(const char *text) = {
	[KILLER_KIND_LMKD] = lmkd_kill,
	[KILLER_KIND_OOMD] = oomd_kill,
};

bool killer_lines_known(enum killer_kind kind)
{
	return (unsigned)kind < KILLER_KIND_COUNT && kill_line[kind];
}

bool killer_kill_line(enum killer_kind kind, const char *text)
{
	return killer_lines_known(kind) && kill_line[kind](text);
}
