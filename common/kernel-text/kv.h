/*
 * kv.h - the kernel's "key value" text files: /proc/vmstat, memory.events
 * and memory.stat ("key value"), /proc/meminfo and /proc/PID/status
 * ("Key:   value kB"). One rule for a line, wherever it is read (the guest's
 * workloads and agent, the lab's metrics): its first word is the key (a
 * ':' ending it is not part of it), then blanks, then a decimal integer;
 * what follows the number (a unit) is ignored. Other lines are skipped.
 */
#ifndef OOMLAB_KV_H
#define OOMLAB_KV_H

#include <stdbool.h>
#include <stddef.h>

#define KV_KEY_MAX 127

struct kv_pair {
	char key[KV_KEY_MAX + 1];
	long long value;
};

/* Parses one line of LEN bytes (no newline); false if it is not a pair. */
bool kv_parse_line(const char *line, size_t len, struct kv_pair *out);
typedef void (*kv_fn)(const struct kv_pair *pair, void *ctx);
/* Calls FN for every pair of TEXT in order; returns how many there were. */
size_t kv_each(const char *text, kv_fn fn, void *ctx);
/* The value on KEY's first line; false when no line has KEY. */
bool kv_find(const char *text, const char *key, long long *value);

#endif
