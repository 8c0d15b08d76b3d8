/* metric_set.h - the metrics of one trial: name, value, unit, source.
 *
 * A name appears once (adding it again replaces the value).  The JSON form
 * is trial.json's "metrics" array, sorted by name so that the same inputs
 * always give the same bytes:
 *     {"name": "oom_kills", "source": "kmsg", "unit": "count", "value": 1}
 * Values that are whole numbers are written as JSON integers, others as reals.
 */
#ifndef OOMLAB_METRIC_SET_H
#define OOMLAB_METRIC_SET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct metric_value {
	char *name, *unit, *source;
	double value;
};

struct metric_set {
	struct metric_value *items;
	size_t n, alloc;
};

#define METRIC_SET_INIT { NULL, 0, 0 }

/* NaN or infinite values are not added (there is no such figure). */
void metric_set_add(struct metric_set *s, const char *name, double value, const char *unit,
		    const char *source);
const struct metric_value *metric_set_get(const struct metric_set *s, const char *name);
void metric_set_clear(struct metric_set *s);
json_t *metric_set_json(const struct metric_set *s);

#endif
