/* metric_set.c - a trial's metrics (metric_set.h). */
#include "metric_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void metric_set_add(struct metric_set *s, const char *name, double value, const char *unit,
		    const char *source)
{
	metric_set_add_declared(s, name, value, unit, source, BETTER_NEITHER);
}

/* FNV-1a: names are short; any spread will do */
static size_t name_hash(const char *name)
{
	size_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

/* NAME's slot in the index: its item's, or the empty one it would take. */
static size_t *slot_of(const struct metric_set *s, const char *name)
{
	size_t mask = s->slots - 1;
	for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask)
		if (!s->index[i] || !strcmp(s->items[s->index[i] - 1].name, name))
			return &s->index[i];
}

static void grow_index(struct metric_set *s)
{
	free(s->index);
	s->slots = s->slots ? 2 * s->slots : 128;
	s->index = xcalloc(s->slots, sizeof(*s->index));
	for (size_t i = 0; i < s->n; i++)
		*slot_of(s, s->items[i].name) = i + 1;
}

void metric_set_add_declared(struct metric_set *s, const char *name, double value, const char *unit,
			     const char *source, enum metric_better declared)
{
	if (!isfinite(value))
		return;
	if (2 * (s->n + 1) > s->slots)
		grow_index(s);
	size_t *slot = slot_of(s, name);
	if (*slot) {
		struct metric_value *m = &s->items[*slot - 1];
		free(m->unit);
		free(m->source);
		m->unit = xstrdup(unit ? unit : "");
		m->source = xstrdup(source ? source : "");
		m->value = value;
		m->declared = declared;
		return;
	}
	if (s->n == METRIC_SET_MAX) {
		s->dropped++;
		return;
	}
	ALLOC_GROW(s->items, s->n + 1, s->alloc);
	s->items[s->n++] = (struct metric_value){ xstrdup(name), xstrdup(unit ? unit : ""),
						  xstrdup(source ? source : ""), value, declared };
	*slot = s->n;
}

const struct metric_value *metric_set_get(const struct metric_set *s, const char *name)
{
	if (!s->slots)
		return NULL;
	size_t slot = *slot_of(s, name);
	return slot ? &s->items[slot - 1] : NULL;
}

void metric_set_clear(struct metric_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->items[i].name);
		free(s->items[i].unit);
		free(s->items[i].source);
	}
	free(s->items);
	free(s->index);
	memset(s, 0, sizeof(*s));
}

static int by_name(const void *a, const void *b)
{
	const struct metric_value *const *x = a, *const *y = b;
	return strcmp((*x)->name, (*y)->name);
}

json_t *metric_set_json(const struct metric_set *s)
{
	const struct metric_value **sorted = xcalloc(s->n ? s->n : 1, sizeof(*sorted));
	for (size_t i = 0; i < s->n; i++)
		sorted[i] = &s->items[i];
	qsort(sorted, s->n, sizeof(*sorted), by_name);
	json_t *arr = json_array();
	for (size_t i = 0; i < s->n; i++) {
		const struct metric_value *m = sorted[i];
		json_t *o = json_object();
		double v = m->value;
		json_object_set_new(o, "name", json_string(m->name));
		json_object_set_new(o, "value", v == floor(v) && fabs(v) < 9.0e15
							? json_integer((json_int_t)v)
							: json_real(v));
		json_object_set_new(o, "unit", json_string(m->unit));
		json_object_set_new(o, "source", json_string(m->source));
		if (m->declared != BETTER_NEITHER)
			json_object_set_new(o, "better", json_string(metric_better_word(m->declared)));
		json_array_append_new(arr, o);
	}
	free(sorted);
	return arr;
}
