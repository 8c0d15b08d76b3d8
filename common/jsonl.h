/*
 * JSON lines: the agent's control channel (ctl.jsonl) and the workloads'
 * lines in out.log (docs/FORMATS.md). Every reader uses one rule: a line is
 * a record when, past leading blanks (space, tab, CR), it holds exactly one
 * JSON object, blanks around it allowed. Any other line (a program's plain
 * output, a line cut short by a guest that died) is skipped.
 */
#ifndef OOMLAB_COMMON_JSONL_H
#define OOMLAB_COMMON_JSONL_H

#include <jansson.h>
#include <stddef.h>

/* Called with each record; the record is released after the call. */
typedef void (*jsonl_fn)(json_t *record, void *ctx);

/* The record LINE (LEN bytes, without its newline) holds, or NULL (a new reference). */
json_t *jsonl_record(const char *line, size_t len);
/* Calls FN for every record of TEXT (LEN bytes) in order; returns how many there were. */
size_t jsonl_parse(const char *text, size_t len, jsonl_fn fn, void *ctx);
/* The same over the file PATH; -1 with errno when it cannot be read. */
long jsonl_read_file(const char *path, jsonl_fn fn, void *ctx);
/* A record's "type", or NULL. */
const char *jsonl_type(json_t *record);

#endif
