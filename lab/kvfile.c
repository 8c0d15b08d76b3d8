/* `key = value` files: the lines, the comments and the errors. */
#include "kvfile.h"
#include "common/paths.h"

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

void kvfile_names(const char *subdir, struct strlist *names)
{
	char *rel = xasprintf("configs/%s", subdir);
	char *dir = repo_path(rel);
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (ends_with(de->d_name, ".conf") && de->d_name[0] != '.')
			strlist_push_owned(names, xstrndup(de->d_name, strlen(de->d_name) - 5));
	if (d)
		closedir(d);
	free(dir);
	free(rel);
	strlist_sort(names);
}

int kvfile_read_named(const char *subdir, const char *kind, const char *name, char **file, char **text,
		      struct strbuf *err)
{
	*file = xasprintf("%s/configs/%s/%s.conf", repo_root(), subdir, name);
	*text = read_file(*file, NULL);
	if (*text)
		return 0;
	struct strlist names = STRLIST_INIT;
	kvfile_names(subdir, &names);
	strbuf_addf(err, "no %s '%s' (%s: %s); %ss:", kind, name, *file, strerror(errno), kind);
	for (size_t i = 0; i < names.n; i++)
		strbuf_addf(err, " %s", names.items[i]);
	strlist_clear(&names);
	return -1;
}
