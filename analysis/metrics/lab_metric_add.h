/* lab_metric_add.h - the lab adds a figure it computes by its row's ID
 * (lab_metric_rows.h): the name and unit are the row's, so a figure cannot be
 * written under a name or unit of its own.
 *
 * A row whose name is a glob (a family: "oom_kills.tier=*", "slab_*_bytes",
 * the killers' rows) takes the whole name formatted, which must match the
 * glob. A name that does not fit its row, or a row without a unit, is a bug
 * in the lab: it dies, saying which.
 */
#ifndef OOMLAB_LAB_METRIC_ADD_H
#define OOMLAB_LAB_METRIC_ADD_H

#include "lab_metric_rows.h"
#include "metric_set.h"

/* The figure of row ID, whose name is exactly the row's. */
void lab_metric_add(struct metric_set *m, enum lab_metric id, double value, const char *source);
/* The figure of family ID whose glob has one '*': the name is the glob with
 * PART for the '*' ("oom_kills.tier=*" and "cached": oom_kills.tier=cached). */
void lab_metric_add_part(struct metric_set *m, enum lab_metric id, double value, const char *source,
			 const char *part);
/* The figure of family ID named by FMT, a name its row's glob matches. */
void lab_metric_addf(struct metric_set *m, enum lab_metric id, double value, const char *source,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
