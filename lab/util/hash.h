/* Content hashes (SHA-256 from libcrypto) for cache keys. */
#ifndef LAB_HASH_H
#define LAB_HASH_H

#include <stddef.h>

struct hasher;
struct strbuf;

struct hasher *hasher_new(void);
void hasher_add(struct hasher *h, const void *data, size_t len);
/* Adds a labelled field, length-prefixed so that fields cannot run together. */
void hasher_add_field(struct hasher *h, const char *label, const void *data, size_t len);
void hasher_add_str(struct hasher *h, const char *label, const char *s);
/* Adds the content of the file at PATH as field LABEL; -1 with why in ERR. */
int hasher_add_file(struct hasher *h, const char *label, const char *path, struct strbuf *err);
/* Writes 64 hex digits and a NUL into hex, and frees h. */
void hasher_finish(struct hasher *h, char hex[65]);
/* The SHA-256 of a file's content, read in pieces; -1 with errno. */
int hash_file_content(const char *path, char hex[65]);

#endif
