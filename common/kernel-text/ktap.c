/* The selftests' KTAP/TAP results, a line at a time (ktap.h). */
#include "ktap.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/alloc-grow.h"
void ktap_init(struct ktap_run *r)
{
	memset(r, 0, sizeof(*r));
	r->planned = -1;
}

void ktap_clear(struct ktap_run *r)
{
	free(r->cases);
	ktap_init(r);
}

const char *ktap_result_name(enum ktap_result result)
{
	return result == KTAP_PASS ? "pass" : result == KTAP_FAIL ? "fail" : "skip";
}

size_t ktap_missing(const struct ktap_run *r)
{
	return r->planned > 0 && (size_t)r->planned > r->n ? (size_t)r->planned - r->n : 0;
}

/* Copies [S, S+LEN) into DST without the blanks around it. */
static void copy_trimmed(char *dst, size_t cap, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	snprintf(dst, cap, "%.*s", (int)len, s);
}

static void make_name(char *dst, size_t cap, const char *text)
{
	size_t o = 0;
	for (const char *p = text; *p && o + 1 < cap; p++) {
		unsigned char c = (unsigned char)*p;
		if (isdigit(c)) {
			while (isdigit((unsigned char)p[1]))
				p++;
			dst[o++] = 'N';
		} else if (c == '.' && (!o || dst[o - 1] == '.')) {
			/* no leading '.' and no "..": a metric name follows the name rule */
		} else if (isalnum(c) || c == '_' || c == '-' || c == '.' || c == ':') {
			dst[o++] = (char)c;
		} else if (o && dst[o - 1] != '_') {
			dst[o++] = '_';
		}
	}
	while (o && (dst[o - 1] == '_' || dst[o - 1] == '.'))
		o--;
	dst[o] = '\0';
}

static bool name_taken(const struct ktap_run *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->cases[i].name, name))
			return true;
	return false;
}

static bool one_word(const char *s)
{
	return *s && !strpbrk(s, " \t");
}

/* "ok N[ -] [description][ # DIRECTIVE[ reason]]", after "ok"/"not ok". */
static void add_case(struct ktap_run *r, bool ok, const char *rest)
{
	char *end;
	unsigned long number = strtoul(rest, &end, 10);
	if (end == rest)
		return;
	while (*end == ' ' || *end == '\t')
		end++;
	if (end[0] == '-' && (end[1] == ' ' || !end[1]))
		end++;
	const char *hash = strchr(end, '#');
	char description[KTAP_REASON_MAX], directive[KTAP_REASON_MAX] = "";
	copy_trimmed(description, sizeof(description), end, hash ? (size_t)(hash - end) : strlen(end));
	if (hash)
		copy_trimmed(directive, sizeof(directive), hash + 1, strlen(hash + 1));

	/* a line printed twice (a forked child flushing a copy of the buffer) is one case */
	for (size_t i = 0; i < r->n; i++)
		if (r->cases[i].number == number && !strcmp(r->cases[i].description, description))
			return;
	struct ktap_case c = { .number = (unsigned)number, .result = ok ? KTAP_PASS : KTAP_FAIL };
	snprintf(c.description, sizeof(c.description), "%s", description);
	const char *why = "";
	if (!strncasecmp(directive, "SKIP", 4)) {
		c.result = KTAP_SKIP;
		why = directive + 4;
	} else if (!strncasecmp(directive, "XFAIL", 5)) {
		why = directive;  /* an expected failure passes, saying so */
	} else {
		why = directive;  /* "error ...", "TODO ...": the failure's words */
	}
	while (*why == ' ' || *why == ':')
		why++;
	/* kselftest's ksft_test_result_skip("%s\n", name) leaves the name as the reason */
	if (!*description && c.result == KTAP_SKIP && one_word(why)) {
		snprintf(description, sizeof(description), "%s", why);
		why = *r->last_diagnostic ? r->last_diagnostic : "no reason given";
	}
	snprintf(c.reason, sizeof(c.reason), "%s", why);
	make_name(c.name, sizeof(c.name), description);
	if (!*c.name)
		snprintf(c.name, sizeof(c.name), "case%u", c.number);
	if (name_taken(r, c.name)) {
		size_t len = strlen(c.name);
		snprintf(c.name + (len > sizeof(c.name) - 12 ? sizeof(c.name) - 12 : len), 12, "_%u",
			 c.number);
	}
	if (!ALLOC_GROW_TRY(r->cases, r->n + 1, r->cap))
		return;
	r->cases[r->n++] = c;
}

void ktap_feed(struct ktap_run *r, const char *line)
{
	char text[512];
	copy_trimmed(text, sizeof(text), line, strcspn(line, "\r\n"));
	/* a subtest's lines are indented: only the top level is this test's */
	if (line[0] == ' ' || line[0] == '\t')
		return;
	if (!strncmp(text, "ok ", 3)) {
		add_case(r, true, text + 3);
	} else if (!strncmp(text, "not ok ", 7)) {
		add_case(r, false, text + 7);
	} else if (!strncmp(text, "1..", 3)) {
		char *end;
		long planned = strtol(text + 3, &end, 10);
		if (end == text + 3)
			return;
		r->planned = planned;
		const char *hash = strchr(end, '#');
		if (planned == 0 && hash) {
			const char *why = hash + 1;
			while (*why == ' ')
				why++;
			if (!strncasecmp(why, "SKIP", 4)) {
				r->whole_skip = true;
				copy_trimmed(r->whole_reason, sizeof(r->whole_reason), why + 4,
					     strlen(why + 4));
			}
		}
	} else if (text[0] == '#') {
		copy_trimmed(r->last_diagnostic, sizeof(r->last_diagnostic), text + 1, strlen(text + 1));
	}
}

void ktap_explainer_init(struct ktap_explainer *e)
{
	memset(e, 0, sizeof(*e));
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* kselftest's and its harness's own counts: they say how many, not why. */
static bool a_count(const char *text)
{
	const char *d = text + 1;
	while (*d == ' ')
		d++;
	if (!*d || starts(d, "Totals:") || starts(d, "Planned tests != run tests"))
		return true;
	/* kselftest_harness.h: "# PASSED: 4 / 5 tests passed.", "# FAILED: 1 / 5 tests passed." */
	return (starts(d, "PASSED:") || starts(d, "FAILED:")) && strstr(d, "tests passed");
}

/* A line that makes the text KTAP or TAP: a version line or a plan. */
static bool opens_ktap(const char *text)
{
	return starts(text, "TAP version") || starts(text, "KTAP version") ||
	       (starts(text, "1..") && isdigit((unsigned char)text[3]));
}

void ktap_explainer_feed(struct ktap_explainer *e, const char *line, size_t len)
{
	/* most programs' text is no KTAP: such a line is looked at, not copied */
	if (!e->is_ktap) {
		while (len && (*line == ' ' || *line == '\t'))
			line++, len--;
		if (len < 4 || !(*line == 'T' || *line == 'K' || *line == '1'))
			return;
	}
	char text[512];
	copy_trimmed(text, sizeof(text), line, strnlen(line, len));
	if (opens_ktap(text))
		e->is_ktap = true;
	else if (!e->is_ktap)
		return;
	else if (starts(text, "Bail out!"))
		copy_trimmed(e->bail_out, sizeof(e->bail_out), text, strlen(text));
	else if (text[0] == '#' && !a_count(text))
		copy_trimmed(e->diagnostic, sizeof(e->diagnostic), text, strlen(text));
	else if (starts(text, "not ok "))
		copy_trimmed(e->not_ok, sizeof(e->not_ok), text, strlen(text));
}

const char *ktap_explaining_line(const struct ktap_explainer *e)
{
	if (!e->is_ktap)
		return NULL;
	if (*e->bail_out)
		return e->bail_out;
	if (*e->diagnostic)
		return e->diagnostic;
	return *e->not_ok ? e->not_ok : NULL;
}
