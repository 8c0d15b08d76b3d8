/*
 * A JSON document that is a file of its own (run.json, trial.json, a Slurm
 * run's slurm.json, an export's metrics.json or trace): written whole and
 * atomically, read back as an object, each with a one-line reason naming
 * the file when it cannot be.
 */
#ifndef OOMLAB_JSON_FILE_H
#define OOMLAB_JSON_FILE_H

#include <jansson.h>

#include "util.h"

/* Whether the document's text is followed by a newline in its file. */
enum json_file_end { JSON_FILE_NO_NEWLINE, JSON_FILE_NEWLINE };

/* DOC's text as a file of it holds it: laid out by jansson's dump FLAGS,
 * followed by END (malloc'd; NULL when jansson cannot dump it). */
char *json_file_text(const json_t *doc, size_t flags, enum json_file_end end);
/* Replaces PATH with DOC laid out by jansson's dump FLAGS and followed by
 * END, atomically (a reader sees the old file or the new one); 0, or -1
 * with "cannot write PATH: why" in ERR and errno kept. */
int json_file_write_as(const char *path, const json_t *doc, size_t flags, enum json_file_end end,
		       struct strbuf *err);
/* The lab's plain layout of a JSON file: indented by 2, no newline. */
#define JSON_FILE_PLAIN JSON_INDENT(2)
/* json_file_write_as with the plain layout. */
int json_file_write(const char *path, const json_t *doc, struct strbuf *err);
/* PATH's JSON object (a new reference), or NULL with "PATH: why" in ERR. */
json_t *json_file_load_object(const char *path, struct strbuf *err);

#endif
