/*
 * Kernel variants: kernels/variants/<name>/ holds patches (*.patch, *.diff,
 * applied in name order with patch -p1), an optional config fragment
 * (`config`), an optional extra kernel command line (`cmdline`) and a
 * description (first line of `README`). Dropping a folder in is all it
 * takes to add one.
 */
#ifndef LAB_VARIANT_H
#define LAB_VARIANT_H

#include "kconfig.h"
#include "common/util.h"

struct variant {
	char *name;
	char *dir;
	char *description;
	struct strlist patches;  /* paths, in the order they are applied */
	char *config_path;       /* NULL when the variant has no fragment */
	char *cmdline;           /* "" when none */
	char hash[65];           /* set by variant_hash() */
};

struct variant_set {
	struct variant *items;
	size_t n;
};

/* Reads every variant below dir, sorted by name. */
int variants_discover(const char *dir, struct variant_set *set, struct strbuf *err);
struct variant *variant_find(const struct variant_set *set, const char *name);
/* base.config with the variant's fragment merged on top. */
int variant_config(const struct variant *v, const struct kconfig *base, struct kconfig *out,
		   struct strbuf *err);
/*
 * The cache key: source version, merged configuration (as options, so
 * comments do not count), each patch's name and bytes, the command line,
 * and the recipe version of the builder.
 */
int variant_hash(struct variant *v, const char *source_version, const struct kconfig *base,
		 struct strbuf *err);
void variants_clear(struct variant_set *set);

#endif
