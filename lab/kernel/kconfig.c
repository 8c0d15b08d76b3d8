/* Kernel configuration fragments: parse, merge and check. */
#include "kconfig.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool valid_symbol(const char *s, size_t len)
{
	if (len <= 7 || strncmp(s, "CONFIG_", 7))
		return false;
	for (size_t i = 7; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static int parse_line(struct kconfig *kc, char *line, const char *origin, struct strbuf *err)
{
	line = trim(line);
	if (!*line)
		return 0;
	if (*line == '#') {
		/* "# CONFIG_FOO is not set" is a setting; any other comment is not. */
		const char *suffix = " is not set";
		char *sym = trim(line + 1);
		if (!starts_with(sym, "CONFIG_") || !ends_with(sym, suffix))
			return 0;
		size_t len = strlen(sym) - strlen(suffix);
		if (!valid_symbol(sym, len)) {
			strbuf_addf(err, "%s: bad option name in '%s'", origin, line);
			return -1;
		}
		sym[len] = '\0';
		kconfig_set(kc, sym, NULL, origin);
		return 0;
	}
	char *eq = strchr(line, '=');
	if (!eq || !valid_symbol(line, (size_t)(eq - line))) {
		strbuf_addf(err, "%s: not a kernel config line: '%s'", origin, line);
		return -1;
	}
	*eq = '\0';
	char *value = trim(eq + 1);
	if (!*value) {
		strbuf_addf(err, "%s: %s has no value", origin, line);
		return -1;
	}
	if (*value == '"' && (strlen(value) < 2 || value[strlen(value) - 1] != '"')) {
		strbuf_addf(err, "%s: unterminated string for %s", origin, line);
		return -1;
	}
	kconfig_set(kc, line, value, origin);
	return 0;
}

int kconfig_parse(struct kconfig *kc, const char *text, const char *file, struct strbuf *err)
{
	char *copy = xstrdup(text), *save = NULL;
	int lineno = 0, rc = 0;
	/* strtok_r would skip empty lines and so miscount; split by hand. */
	for (char *line = copy; line && rc == 0; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		char origin[512];
		snprintf(origin, sizeof(origin), "%s:%d", file, lineno);
		rc = parse_line(kc, line, origin, err);
	}
	free(copy);
	return rc;
}

int kconfig_load(struct kconfig *kc, const char *path, struct strbuf *err)
{
	char *text = read_file(path, NULL);
	if (!text) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	int rc = kconfig_parse(kc, text, path, err);
	free(text);
	return rc;
}

static struct kconfig_option *find(const struct kconfig *kc, const char *name)
{
	for (size_t i = 0; i < kc->n; i++)
		if (!strcmp(kc->opts[i].name, name))
			return &kc->opts[i];
	return NULL;
}

const struct kconfig_option *kconfig_get(const struct kconfig *kc, const char *name)
{
	return find(kc, name);
}

void kconfig_set(struct kconfig *kc, const char *name, const char *value, const char *origin)
{
	struct kconfig_option *o = find(kc, name);
	if (!o) {
		ALLOC_GROW(kc->opts, kc->n + 1, kc->alloc);
		o = &kc->opts[kc->n++];
		o->name = xstrdup(name);
	} else {
		free(o->value);
		free(o->origin);
	}
	o->value = value ? xstrdup(value) : NULL;
	o->origin = xstrdup(origin ? origin : "");
}

static void remove_option(struct kconfig *kc, const char *name)
{
	struct kconfig_option *o = find(kc, name);
	if (!o)
		return;
	free(o->name);
	free(o->value);
	free(o->origin);
	size_t i = (size_t)(o - kc->opts);
	memmove(o, o + 1, (kc->n - i - 1) * sizeof(*o));
	kc->n--;
}

void kconfig_merge(struct kconfig *dst, const struct kconfig *src)
{
	/*
	 * An overridden option moves to the end, as merge_config.sh does: for a
	 * choice (CC_OPTIMIZE_FOR_SIZE against _PERFORMANCE) kconfig keeps the
	 * last "=y" it reads, so position is meaning.
	 */
	for (size_t i = 0; i < src->n; i++) {
		remove_option(dst, src->opts[i].name);
		kconfig_set(dst, src->opts[i].name, src->opts[i].value, src->opts[i].origin);
	}
}

char *kconfig_format(const struct kconfig *kc)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < kc->n; i++) {
		const struct kconfig_option *o = &kc->opts[i];
		if (o->value)
			strbuf_addf(&sb, "%s=%s\n", o->name, o->value);
		else
			strbuf_addf(&sb, "# %s is not set\n", o->name);
	}
	return strbuf_detach(&sb);
}

static bool same_setting(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b;
	return !strcmp(a, b);
}

/* Calls FN for every option of WANTED that ACTUAL does not have as wanted. */
static size_t each_miss(const struct kconfig *wanted, const struct kconfig *actual,
			void (*fn)(const struct kconfig_option *w, const char *got, void *ctx), void *ctx)
{
	size_t misses = 0;
	for (size_t i = 0; i < wanted->n; i++) {
		const struct kconfig_option *w = &wanted->opts[i];
		const struct kconfig_option *a = find(actual, w->name);
		const char *got = a ? a->value : NULL;
		if (same_setting(w->value, got))
			continue;
		misses++;
		fn(w, got, ctx);
	}
	return misses;
}

static void report_miss(const struct kconfig_option *w, const char *got, void *report)
{
	strbuf_addf(report, "%s: wanted %s (%s), got %s\n", w->name, w->value ? w->value : "not set",
		    w->origin, got ? got : "not set");
}

size_t kconfig_check(const struct kconfig *wanted, const struct kconfig *actual, struct strbuf *report)
{
	return each_miss(wanted, actual, report_miss, report);
}

static void name_miss(const struct kconfig_option *w, const char *got, void *names)
{
	strlist_push_owned(names, got ? xasprintf("%s (is %s)", w->name, got) : xstrdup(w->name));
}

size_t kconfig_lacking(const struct kconfig *wanted, const struct kconfig *actual, struct strlist *names)
{
	return each_miss(wanted, actual, name_miss, names);
}

void kconfig_clear(struct kconfig *kc)
{
	for (size_t i = 0; i < kc->n; i++) {
		free(kc->opts[i].name);
		free(kc->opts[i].value);
		free(kc->opts[i].origin);
	}
	free(kc->opts);
	kc->opts = NULL;
	kc->n = kc->alloc = 0;
}
