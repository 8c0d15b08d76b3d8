/* `key = value` files: the lines, the comments and the errors. */
#include "kvfile.h"
#include "common/paths.h"
#include "common/proto/name-rule.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char kvfile_unknown_key[] = "unknown key";

/* The '=' between key and value: the first one with a blank before it, so
 * that a key may hold '=' itself (metric names such as
 * binder-sendvec.sendvec_ns_per_rt.size=4); else the first one. */
static char *separator(char *line)
{
	for (char *eq = strchr(line, '='); eq; eq = strchr(eq + 1, '='))
		if (eq > line && (eq[-1] == ' ' || eq[-1] == '\t'))
			return eq;
	return strchr(line, '=');
}

/* How many names a mistyped key is offered. */
#define SUGGESTED 3

/* "FILE:LINE: unknown key 'KEY'", with the names of KEYS nearest it. */
static void unknown_key(struct strbuf *err, const char *file, int line, const struct key_table *keys,
			const char *key)
{
	struct strbuf near = STRBUF_INIT;
	strbuf_addf(err, "%s:%d: unknown key '%s'", file, line, key);
	if (key_table_suggest(&near, keys, key, SUGGESTED))
		strbuf_addf(err, " (did you mean %s?)", near.buf);
	strbuf_release(&near);
}

int kvfile_parse(const char *file, const char *text, const struct kvfile_options *opts,
		 const struct key_table *keys, void *ctx, struct strbuf *err)
{
	struct strlist seen = STRLIST_INIT;
	struct strbuf scratch = STRBUF_INIT;
	char *copy = xstrdup(text);
	int lineno = 0, rc = 0;
	for (char *line = copy, *next; line && rc == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (opts->inline_comments && strchr(line, '#'))
			*strchr(line, '#') = '\0';
		char *t = trim(line);
		if (!*t || *t == '#')
			continue;
		char *eq = separator(t);
		if (!eq) {
			strbuf_addf(err, "%s:%d: expected 'key = value', got '%s'", file, lineno, t);
			rc = -1;
			break;
		}
		*eq = '\0';
		char *key = trim(t), *value = trim(eq + 1);
		const struct key_def *row = key_table_find(keys, key);
		const char *why = NULL;
		if (!*value) {
			strbuf_addf(err, "%s:%d: %s has no value", file, lineno, key);
			rc = -1;
		} else if (!(row && row->info.repeats) && strlist_has(&seen, key)) {
			strbuf_addf(err, "%s:%d: %s is set twice", file, lineno, key);
			rc = -1;
		} else if (!row || (why = key_table_set(row, ctx, key, value, lineno, &scratch)) == kvfile_unknown_key) {
			unknown_key(err, file, lineno, keys, key);
			rc = -1;
		} else if (why) {
			strbuf_addf(err, "%s:%d: %s = %s: %s %s", file, lineno, key, value, key, why);
			rc = -1;
		}
		strlist_push(&seen, key);
	}
	free(copy);
	strlist_clear(&seen);
	strbuf_release(&scratch);
	return rc;
}

/* The .conf names of folder DIR (may be absent) onto NAMES, each once. */
static void add_names(const char *dir, struct strlist *names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!ends_with(de->d_name, ".conf") || de->d_name[0] == '.')
			continue;
		char *name = xstrndup(de->d_name, strlen(de->d_name) - 5);
		if (strlist_has(names, name))
			free(name);
		else
			strlist_push_owned(names, name);
	}
	if (d)
		closedir(d);
}

void kvfile_names(const char *subdir, struct strlist *names)
{
	char *rel = xasprintf("configs/%s", subdir);
	char *dir = repo_path(rel), *mine = user_config_path(subdir);
	add_names(dir, names);
	if (mine)
		add_names(mine, names);
	free(mine);
	free(dir);
	free(rel);
	strlist_sort(names);
}

/*
 * The lab's file first, then the user's. A name in both is refused, not
 * resolved: which one a run used would otherwise depend on whose HOME it ran
 * under, and the shipped file a result names would silently not be the one
 * it ran (the same rule as a variant in two folders, kernel-catalog.c).
 */
int kvfile_read_named(const char *subdir, const char *kind, const char *name, char **file, char **text,
		      struct strbuf *err)
{
	char *mine_dir = user_config_path(subdir);
	char *mine = mine_dir ? xasprintf("%s/%s.conf", mine_dir, name) : NULL;
	free(mine_dir);
	*file = xasprintf("%s/configs/%s/%s.conf", repo_root(), subdir, name);
	*text = read_file(*file, NULL);
	int lab_errno = errno;
	if (*text && mine && path_exists(mine)) {
		strbuf_addf(err, "%s '%s' is both the lab's (%s) and yours (%s): rename yours", kind, name,
			    *file, mine);
		if (!strcmp(subdir, "experiments"))
			strbuf_addf(err, ", or give its path (-x %s)", mine);
		free(*text);
		*text = NULL;
		free(mine);
		return -1;
	}
	if (*text) {
		free(mine);
		return 0;
	}
	if (mine) {
		*text = read_file(mine, NULL);
		if (*text) {
			free(*file);
			*file = mine;
			return 0;
		}
	}
	struct strlist names = STRLIST_INIT;
	kvfile_names(subdir, &names);
	strbuf_addf(err, "no %s '%s' (%s: %s", kind, name, *file, strerror(lab_errno));
	if (mine)
		strbuf_addf(err, "; %s: %s", mine, strerror(errno));
	strbuf_addf(err, "); %ss:", kind);
	for (size_t i = 0; i < names.n; i++)
		strbuf_addf(err, " %s", names.items[i]);
	strlist_clear(&names);
	free(mine);
	return -1;
}

int kvfile_name_check(const char *name, const char *kind, const char *file, struct strbuf *err)
{
	const char *why = name_rule_refusal(name, NAME_PLAIN);
	if (!why)
		return 0;
	char *shown_file = name_rule_shown(file), *shown = name_rule_shown(name);
	strbuf_addf(err, "%s: %s name '%s': %s (names are [A-Za-z0-9_.-+=:#], starting with a "
		    "letter, digit or '_')", shown_file, kind, shown, why);
	free(shown_file);
	free(shown);
	return -1;
}
