/* "key value" lines (kv.h). */
#include "kv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool kv_parse_line(const char *line, size_t len, struct kv_pair *out)
{
	size_t k = 0;
	while (k < len && !isspace((unsigned char)line[k]))
		k++;
	size_t key_len = k && line[k - 1] == ':' ? k - 1 : k;
	if (!key_len || key_len > KV_KEY_MAX)
		return false;
	size_t v = k;
	while (v < len && (line[v] == ' ' || line[v] == '\t'))
		v++;
	if (v == k || v == len)
		return false;
	/* the number, copied out: the line is not NUL-terminated */
	char num[32];
	size_t n = 0;
	if (line[v] == '-' || line[v] == '+')
		num[n++] = line[v++];
	while (v < len && isdigit((unsigned char)line[v]) && n < sizeof(num) - 1)
		num[n++] = line[v++];
	num[n] = '\0';
	if (!n || !isdigit((unsigned char)num[n - 1]) || (v < len && isdigit((unsigned char)line[v])))
		return false;
	if (v < len && !isspace((unsigned char)line[v]))
		return false;
	errno = 0;
	long long value = strtoll(num, NULL, 10);
	if (errno == ERANGE)
		return false;
	memcpy(out->key, line, key_len);
	out->key[key_len] = '\0';
	out->value = value;
	return true;
}

size_t kv_each(const char *text, kv_fn fn, void *ctx)
{
	size_t n = 0;
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		struct kv_pair pair;
		if (kv_parse_line(line, len, &pair)) {
			n++;
			if (fn)
				fn(&pair, ctx);
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

bool kv_find(const char *text, const char *key, long long *value)
{
	size_t key_len = strlen(key);
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		struct kv_pair pair;
		if (len > key_len && !strncmp(line, key, key_len) && kv_parse_line(line, len, &pair) &&
		    !strcmp(pair.key, key)) {
			*value = pair.value;
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}
