/* The one name rule (name-rule.h). */
#include "name-rule.h"

#include <stdlib.h>
#include <string.h>

static bool plain_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_.-+=:#", c));
}

static bool start_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

const char *name_rule_refusal(const char *name, enum name_kind kind)
{
	if (!name || !*name)
		return "an empty name";
	if (strlen(name) > NAME_RULE_MAX)
		return "a name longer than 200 bytes";
	if (strstr(name, ".."))
		return "a name holding \"..\"";
	/* each part (the whole name for NAME_PLAIN) starts safely */
	for (const char *p = name; *p; p++) {
		bool part_start = p == name || p[-1] == '/';
		if (*p == '/' && kind == NAME_PATH) {
			if (part_start || !p[1])
				return "an empty part between '/'";
			continue;
		}
		if (!plain_char(*p))
			return kind == NAME_PATH ? "a character outside [A-Za-z0-9_.-+=:#/]"
						 : "a character outside [A-Za-z0-9_.-+=:#]";
		if (part_start && !start_char(*p))
			return "a name (or part) starting with something else than a letter, digit or '_'";
	}
	return NULL;
}

char *name_rule_shown(const char *name)
{
	size_t len = name ? strlen(name) : 0, cut = len > 80 ? 80 : len;
	char *out = malloc(cut + 4);
	if (!out)
		abort();
	for (size_t i = 0; i < cut; i++) {
		unsigned char c = (unsigned char)name[i];
		out[i] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	strcpy(out + cut, len > cut ? "..." : "");
	return out;
}
