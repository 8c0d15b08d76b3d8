/* The killer's log (lmkd-log.c). */
#ifndef OOMLAB_LMKD_LOG_H
#define OOMLAB_LMKD_LOG_H

#include "lmkd-state.h"

/* One line (common/kernel-text/lmkd-lines.h) to /dev/kmsg, else stderr. */
void lmkd_log(const struct lmkd *k, const char *text);

#endif
