/*
 * Remembered configurations. Configuring a kernel (make tinyconfig, the
 * merge, make olddefconfig) parses Kconfig three times, and each parse runs
 * the compiler for every cc-option test: 47 of the 109 s a one-file variant
 * took to build on a busy 2-core host, and the build's own syncconfig then
 * parsed it a fourth time because .config had been rewritten. What
 * configuring gives depends on the source's Kconfig files and what they
 * run, the options wanted, the platform and the toolchain; not on the rest
 * of the source. So the .config it gave is kept in the cache (one folder
 * for every workspace: the key holds the tree's inputs, so a git commit's
 * or a tree's first build finds stock's) under a key of exactly those
 * inputs, and a build whose key is known starts from
 * it: nothing parsed before the build, and .config left as it is (so no
 * syncconfig) when it already holds that text.
 */
#ifndef LAB_CONFIG_MEMO_H
#define LAB_CONFIG_MEMO_H

#include <stdbool.h>

#include "common/util.h"
#include "lab/kernel/kconfig.h"
#include "lab/kernel/platform.h"

/* Whether a file of a source tree (PATH relative to its top) is read by
 * configuring: a Kconfig file, a config fragment (configs/), the Kconfig
 * tools and what Kconfig's $(shell) runs (scripts/kconfig/, the files of
 * scripts/ itself), the top Makefile or an arch's. */
bool config_memo_path_matters(const char *path);

/* The key, hex, in KEY, of configuring the (patched) source TREE for
 * PLATFORM with the options WANTED (variant_config's): those, the
 * toolchain's versions and every file of TREE that config_memo_path_matters
 * names, path and content. So a variant's patch to code, another git commit
 * or an edited tree of the same Kconfig files share a key. 0, or -1 with
 * err. */
int config_memo_key(const struct platform *platform, const struct kconfig *wanted, const char *tree,
		    char key[65], struct strbuf *err);

/* The remembered configuration of KEY (<cache>/configs/KEY.config): a new
 * string, or NULL when there is none. */
char *config_memo_load(const char *key);

/* Remembers the configuration in file DOTCONFIG under KEY (written whole,
 * then renamed into place); a failure only costs the next build a full
 * configure. */
void config_memo_store(const char *key, const char *dotconfig);

#endif
