/* JSON lines (jsonl.h). */
#include "jsonl.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

json_t *jsonl_record(const char *line, size_t len)
{
	size_t skip = 0;
	while (skip < len && (line[skip] == ' ' || line[skip] == '\t' || line[skip] == '\r'))
		skip++;
	if (skip == len || line[skip] != '{')
		return NULL;
	json_t *o = json_loadb(line + skip, len - skip, 0, NULL);
	if (!json_is_object(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

size_t jsonl_parse(const char *text, size_t len, jsonl_fn fn, void *ctx)
{
	size_t n = 0;
	for (size_t pos = 0; pos < len;) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - line) : len - pos;
		json_t *o = jsonl_record(line, line_len);
		if (o) {
			n++;
			fn(o, ctx);
			json_decref(o);
		}
		pos += line_len + 1;
	}
	return n;
}

long jsonl_read_file(const char *path, jsonl_fn fn, void *ctx)
{
	size_t len;
	char *text = read_file(path, &len);
	if (!text)
		return -1;
	size_t n = jsonl_parse(text, len, fn, ctx);
	free(text);
	return (long)n;
}

const char *jsonl_type(json_t *record)
{
	return json_string_value(json_object_get(record, "type"));
}
