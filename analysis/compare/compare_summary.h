/* compare_summary.h - what a comparison table says in a line per variant.
 *
 * One line per variant (as compare_fmt_row_variant names it), its decided
 * rows by their rank (compare_order.h: the primary metric's first, then
 * the selftest cases it newly fails, then those it newly passes, each of
 * these two under a heading, then the rest), in the table's order within a
 * rank, each with what decides it, then how many are not. The primary's
 * rows are said whether decided or not, as the others are read after them:
 *   binder-kcalloc: worse on oom_kills (6/6 against 0/6, p-adj 0.040); 4 rows not decided
 *   mine+test: newly failing (1 case): worse on selftest.mm.T.C (0/6 against 6/6, p-adj 0.009); 2 rows not decided
 *   binder-kcalloc: equivalent on x (+0.16% inside the 2% margin, 0 outside its uncorrected 95% interval)
 *   binder-kcalloc: not detected on oom_kills (could miss +-86pp); 4 other rows not decided
 *   binder-kcalloc: no row decided (5 rows)
 */
#ifndef OOMLAB_COMPARE_SUMMARY_H
#define OOMLAB_COMPARE_SUMMARY_H

#include <stddef.h>

#include "compare_types.h"

/* Calls EMIT once per variant with its summary line (control characters
 * of names as '?'). */
void compare_summary(const struct compare_table *table,
		     void (*emit)(void *ctx, const char *line), void *ctx);

#endif
