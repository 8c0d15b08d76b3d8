/* `key = value` files: the lines, the comments and the errors. */
#include "kvfile.h"

#include <stdlib.h>
#include <string.h>

const char kvfile_unknown_key[] = "unknown key";

static bool repeatable(const struct kvfile_options *opts, const char *key)
{
	for (const char *const *r = opts->repeatable; r && *r; r++)
		if (!strcmp(*r, key))
			return true;
	return false;
}

int kvfile_parse(const char *file, const char *text, const struct kvfile_options *opts, kvfile_setter set,
	     void *ctx, struct strbuf *err)
{
	struct strlist seen = STRLIST_INIT;
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
		char *eq = strchr(t, '=');
		if (!eq) {
			strbuf_addf(err, "%s:%d: expected 'key = value', got '%s'", file, lineno, t);
			rc = -1;
			break;
		}
		*eq = '\0';
		char *key = trim(t), *value = trim(eq + 1);
		const char *why = NULL;
		if (!*value) {
			strbuf_addf(err, "%s:%d: %s has no value", file, lineno, key);
			rc = -1;
		} else if (!repeatable(opts, key) && strlist_has(&seen, key)) {
			strbuf_addf(err, "%s:%d: %s is set twice", file, lineno, key);
			rc = -1;
		} else if ((why = set(ctx, key, value)) == kvfile_unknown_key) {
			strbuf_addf(err, "%s:%d: unknown key '%s'", file, lineno, key);
			rc = -1;
		} else if (why) {
			strbuf_addf(err, "%s:%d: %s = %s: %s %s", file, lineno, key, value, key, why);
			rc = -1;
		}
		strlist_push(&seen, key);
	}
	free(copy);
	strlist_clear(&seen);
	return rc;
}
