/* A JSON document that is a file of its own (json-file.h). */
#include "json-file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int json_file_write_as(const char *path, const json_t *doc, size_t flags, enum json_file_end end,
		       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	char *dumped = json_dumps(doc, flags);
	int rc = -1;
	if (!dumped)
		errno = ENOMEM;
	else {
		strbuf_addstr(&text, dumped);
		if (end == JSON_FILE_NEWLINE)
			strbuf_add(&text, "\n", 1);
		rc = write_file_atomic(path, text.buf, text.len);
	}
	if (rc < 0) {
		int saved = errno;   /* callers may name it again */
		strbuf_addf(err, "cannot write %s: %s", path, strerror(saved));
		errno = saved;
	}
	free(dumped);
	strbuf_release(&text);
	return rc;
}

int json_file_write(const char *path, const json_t *doc, struct strbuf *err)
{
	return json_file_write_as(path, doc, JSON_INDENT(2), JSON_FILE_NO_NEWLINE, err);
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
