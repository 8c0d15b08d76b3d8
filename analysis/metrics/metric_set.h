/* metric_set.h - the metrics of one trial: name, value, unit, source, and
 * the direction its report declared, if any.
 *
 * A name appears once (adding it again replaces the value, and the
 * direction with the new report's).  The JSON form is trial.json's
 * "metrics" array, sorted by name so that the same inputs always give the
 * same bytes:
 *     {"name": "oom_kills", "source": "kmsg", "unit": "count", "value": 1}
 *     {"name": "repro.pages", "value": 9, "unit": "", "source": "out.log", "better": "higher"}
 * "better" (metric_better_word) is there only for a metric whose report
 * declared a direction: a program's metric line that says "better"
 * (workload_metrics.h). The lab's own figures declare none; their
 * direction is the catalogue's (metric_catalog.c).
 * Values that are whole numbers are written as JSON integers, others as reals.
 */
#ifndef OOMLAB_METRIC_SET_H
#define OOMLAB_METRIC_SET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare/metric.h"

struct metric_value {
	char *name, *unit, *source;
	double value;
	enum metric_better declared;	/* BETTER_NEITHER: its report declared none */
};

/* The most distinct names a trial keeps: a guest that reports more (a
 * program printing a new name in a loop) has the rest dropped and counted,
 * so that its trial's record and every comparison over it stay small. */
#define METRIC_SET_MAX 10000

struct metric_set {
	struct metric_value *items;
	size_t n, alloc;
	/* an open-addressing index of items by name (slot: item + 1, 0 empty),
	 * a power of two of slots at least twice n */
	size_t *index, slots;
	size_t dropped;		/* new names past METRIC_SET_MAX */
};

#define METRIC_SET_INIT { NULL, 0, 0, NULL, 0, 0 }

/* NaN or infinite values are not added (there is no such figure). */
void metric_set_add(struct metric_set *s, const char *name, double value, const char *unit,
		    const char *source);
/* As metric_set_add, for a report that declared DECLARED (BETTER_NEITHER: none). */
void metric_set_add_declared(struct metric_set *s, const char *name, double value, const char *unit,
			     const char *source, enum metric_better declared);
const struct metric_value *metric_set_get(const struct metric_set *s, const char *name);
void metric_set_clear(struct metric_set *s);
json_t *metric_set_json(const struct metric_set *s);

#endif
