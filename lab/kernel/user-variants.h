/* The user's own folder of variants, beside the lab's kernels/variants/. */
#ifndef LAB_USER_VARIANTS_H
#define LAB_USER_VARIANTS_H

#include "common/util.h"

/*
 * Pushes $XDG_CONFIG_HOME/oomlab/variants/ (~/.config/oomlab/variants/,
 * common/paths.h) onto FOLDERS when it exists; returns how many it pushed
 * (0 or 1). A variant name in two folders is an error (kernel-catalog.c),
 * whichever they are.
 */
size_t user_variant_folders(struct strlist *folders);

#endif
