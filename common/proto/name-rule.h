/*
 * The one rule for names that come from outside and end up in paths, scripts,
 * tables and reports: experiment and profile names (and the run ids made of
 * them), run ids and group labels read back from a run.json, metric names and
 * units a guest reports, and selftest names (issue 37). Here, in common/proto,
 * so that the guest's programs and the host apply the same rule.
 *
 * A name is non-empty, at most NAME_RULE_MAX bytes, of the characters
 * [A-Za-z0-9] and "_.-+=:#" (plus '/' between parts for NAME_PATH), starts with
 * a letter, digit or '_' (never '-' or '.': no option, no hidden file, no
 * spreadsheet formula), and holds no "..". No blank, quote, '$', '`', ';', ',',
 * '%', '<', '>', '&' or control character gets through: a name is safe in a
 * shell word, a file name, a QEMU option, a CSV cell and Markdown as it is.
 */
#ifndef OOMLAB_NAME_RULE_H
#define OOMLAB_NAME_RULE_H

#include <stdbool.h>

#define NAME_RULE_MAX 200

enum name_kind {
	NAME_PLAIN,	/* one path component: experiments, profiles, run ids, labels, metrics */
	NAME_PATH,	/* SUITE/TEST: components joined by single '/', none empty */
};

/* Why NAME breaks the rule (a static phrase), or NULL when it follows it. */
const char *name_rule_refusal(const char *name, enum name_kind kind);

/* NAME as it may be shown in a one-line message (malloc'd): control and
 * non-ASCII bytes as '?', cut after 80 bytes with "...". */
char *name_rule_shown(const char *name);

static inline bool name_rule_ok(const char *name, enum name_kind kind)
{
	return name && !name_rule_refusal(name, kind);
}

#endif
