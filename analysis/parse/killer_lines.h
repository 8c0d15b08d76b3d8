/* killer_lines.h - each userspace killer's kill lines in kmsg.log, by kind
 * (common/proto/killer-kinds.h): the one place the analysis ties a kind to
 * the parser of its lines (common/kernel-text/KIND-lines.h), so that its
 * kills are counted the same way for every kind (PREFIX_kills). */
#ifndef OOMLAB_KILLER_LINES_H
#define OOMLAB_KILLER_LINES_H

#include <stdbool.h>

#include "common/proto/killer-kinds.h"

/* Whether KIND has a kill-line parser here (the kernel's has none: its
 * reports are oom_report.h's). */
bool killer_lines_known(enum killer_kind kind);
/* Whether TEXT is one of KIND's kill lines. */
bool killer_kill_line(enum killer_kind kind, const char *text);

#endif
