/* A JSON document that is a file of its own (json-file.h). */
#include "json-file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *json_file_text(const json_t *doc, size_t flags, enum json_file_end end)
{
	char *text = json_dumps(doc, flags);
	if (text && end == JSON_FILE_NEWLINE) {
		size_t len = strlen(text);
		text = xrealloc(text, len + 2);
		memcpy(text + len, "\n", 2);
	}
	return text;
}

int json_file_write_as(const char *path, const json_t *doc, size_t flags, enum json_file_end end,
		       struct strbuf *err)
{
	char *text = json_file_text(doc, flags, end);
	int rc = text ? write_file_atomic(path, text, strlen(text)) : -1;
	if (!text)
		errno = ENOMEM;
	if (rc < 0) {
		int saved = errno;   /* callers may name it again */
		strbuf_addf(err, "cannot write %s: %s", path, strerror(saved));
		errno = saved;
	}
	free(text);
	return rc;
}

int json_file_write(const char *path, const json_t *doc, struct strbuf *err)
{
	return json_file_write_as(path, doc, JSON_FILE_PLAIN, JSON_FILE_NO_NEWLINE, err);
}

json_t *json_file_load_object(const char *path, struct strbuf *err)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);
	if (json_is_object(doc))
		return doc;
	strbuf_addf(err, "%s: %s", path, doc ? "not a JSON object" : jerr.text);
	json_decref(doc);
	return NULL;
}
