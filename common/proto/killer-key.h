/* One setting of a userspace killer (killer-kinds.h): a profile key, and
 * the spec key the agent reads. Its own header so that each killer's
 * settings (lmkd-config.h, oomd-config.h) and the kinds' table include it
 * without including each other. */
#ifndef OOMLAB_KILLER_KEY_H
#define OOMLAB_KILLER_KEY_H

/* The most keys one killer has. */
#define KILLER_KEYS_MAX 8

struct killer_key {
	const char *name;           /* "lmkd.psi_partial_stall_ms": begins with its row's key_prefix */
	const char *type;           /* what its value is, for lab keys: "ms", "percent", "0 or 1" */
	long fallback;              /* the default, the killer's own where it documents one */
	long min, max;              /* the values taken */
	const char *range_text;     /* what a bad value is told */
	const char *meaning;        /* one line, for lab keys */
};

#endif
