/*
 * Kernel configuration fragments: parse, merge (later settings win, as
 * scripts/kconfig/merge_config.sh does) and check that what was asked for
 * survived `make olddefconfig`.
 */
#ifndef LAB_KCONFIG_H
#define LAB_KCONFIG_H

#include <stddef.h>

#include "common/util.h"

struct kconfig_option {
	char *name;   /* "CONFIG_FOO" */
	char *value;  /* "y", "m", "64", "\"str\"", or NULL for "is not set" */
	char *origin; /* "file:line" where it was last set, for messages */
};

struct kconfig {
	struct kconfig_option *opts;
	size_t n, alloc;
};

#define KCONFIG_INIT { NULL, 0, 0 }

/*
 * Parses TEXT (a .config or a fragment). Accepts "CONFIG_X=v",
 * "# CONFIG_X is not set", comments and blank lines. On a malformed line
 * returns -1 with "FILE:LINE: reason" in err.
 */
int kconfig_parse(struct kconfig *kc, const char *text, const char *file, struct strbuf *err);
int kconfig_load(struct kconfig *kc, const char *path, struct strbuf *err);
const struct kconfig_option *kconfig_get(const struct kconfig *kc, const char *name);
void kconfig_set(struct kconfig *kc, const char *name, const char *value, const char *origin);
/* Applies every option of src onto dst; overridden options move to the end. */
void kconfig_merge(struct kconfig *dst, const struct kconfig *src);
/* The options as .config lines, in order. */
char *kconfig_format(const struct kconfig *kc);
/*
 * Counts the options of wanted whose value differs in actual (an option
 * wanted "not set" is satisfied by its absence). Each miss is appended to
 * report as "CONFIG_X: wanted y (file:line), got not set".
 */
size_t kconfig_check(const struct kconfig *wanted, const struct kconfig *actual, struct strbuf *report);
/* The same, naming each miss in NAMES: "CONFIG_X", or "CONFIG_X (is m)"
 * when it has another value. */
size_t kconfig_lacking(const struct kconfig *wanted, const struct kconfig *actual, struct strlist *names);
void kconfig_clear(struct kconfig *kc);

#endif
