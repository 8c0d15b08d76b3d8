/* A JSON document that is a file of its own (json-file.h). */
#include "json-file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int json_file_write(const char *path, json_t *doc, struct strbuf *err)
{
	char *text = json_dumps(doc, JSON_INDENT(2));
	int rc = text ? write_file_atomic(path, text, strlen(text)) : -1;
	if (rc < 0)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	free(text);
	return rc;
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
