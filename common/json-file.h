/*
 * A JSON document that is a file of its own (run.json, a Slurm run's
 * slurm.json): written whole and atomically, read back as an object, each
 * with a one-line reason naming the file when it cannot be.
 */
#ifndef OOMLAB_JSON_FILE_H
#define OOMLAB_JSON_FILE_H

#include <jansson.h>

#include "util.h"

/* Replaces PATH with DOC (indented by 2), atomically (a reader sees the old
 * file or the new one); 0, or -1 with "cannot write PATH: why" in ERR. */
int json_file_write(const char *path, json_t *doc, struct strbuf *err);
/* PATH's JSON object (a new reference), or NULL with "PATH: why" in ERR. */
json_t *json_file_load_object(const char *path, struct strbuf *err);

#endif
