/* workload_metrics.c - workload metric lines from out.log (workload_metrics.h). */
#include "workload_metrics.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/proto/name-rule.h"
#include "common/util.h"
#include "metric_catalog.h"

static int by_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_scalar(struct strbuf *sb, json_t *v)
{
	if (json_is_string(v)) {
		strbuf_addstr(sb, json_string_value(v));
	} else {
		char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		strbuf_addstr(sb, text ? text : "");
		free(text);
	}
}

char *workload_metric_name_in(json_t *line, const char *line_workload)
{
	const char *type = json_string_value(json_object_get(line, "type"));
	json_t *given = json_object_get(line, "workload");
	const char *workload = given ? json_string_value(given) : line_workload;
	const char *name = json_string_value(json_object_get(line, "name"));
	if (!type || strcmp(type, "metric") || !workload || !name)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s.%s", workload, name);
	json_t *labels = json_object_get(line, "labels");
	if (json_is_object(labels) && json_object_size(labels)) {
		size_t n = json_object_size(labels), i = 0;
		const char **keys = xcalloc(n, sizeof(*keys));
		const char *key;
		json_t *value;
		json_object_foreach(labels, key, value)
			keys[i++] = key;
		qsort(keys, n, sizeof(*keys), by_key);
		for (i = 0; i < n; i++) {
			strbuf_addf(&sb, ".%s=", keys[i]);
			add_scalar(&sb, json_object_get(labels, keys[i]));
		}
		free(keys);
	}
	return strbuf_detach(&sb);
}

bool workload_metric_better(json_t *record, enum metric_better *better)
{
	json_t *word = json_object_get(record, "better");
	*better = BETTER_NEITHER;
	return !word || metric_better_parse(json_string_value(word), better);
}

/* S with each '.' as '/' (malloc'd): so that fnmatch's FNM_PATHNAME keeps a
 * glob's '*' inside one dotted part. */
static char *dots_as_slashes(const char *s)
{
	char *c = xstrdup(s);
	for (char *p = c; *p; p++)
		if (*p == '.')
			*p = '/';
	return c;
}

/* The catalogue's names and globs a workload may not report, in '/' form:
 * made once, as every metric line of every trial asks (static for the
 * process; the catalogue does not change). */
static struct strlist lab_owned_patterns = STRLIST_INIT;

bool workload_metric_lab_owned(const char *name)
{
	if (!lab_owned_patterns.n) {
		size_t n;
		const struct metric_def *rows = metric_catalog_rows(&n);
		for (size_t i = 0; i < n; i++)
			/* the line runner's own figures come through out.log too */
			if (!rows[i].source || strcmp(rows[i].source, METRIC_SOURCE_LINE_RUNNER))
				strlist_push_owned(&lab_owned_patterns, dots_as_slashes(rows[i].name));
	}
	char *dotted = dots_as_slashes(name);
	bool owned = false;
	for (size_t i = 0; i < lab_owned_patterns.n && !owned; i++)
		owned = fnmatch(lab_owned_patterns.items[i], dotted, FNM_PATHNAME) == 0;
	free(dotted);
	return owned;
}

bool workload_metric_refused(json_t *record, const char *line_workload)
{
	char *name = workload_metric_name_in(record, line_workload);
	if (!name)
		return false;
	json_t *unit = json_object_get(record, "unit");
	const char *u = json_string_value(unit);
	bool refused = !name_rule_ok(name, NAME_PLAIN) || workload_metric_lab_owned(name) ||
		       (unit && !json_is_null(unit) && !u) || (u && *u && !name_rule_ok(u, NAME_PATH));
	free(name);
	return refused;
}

bool workload_metric_add(json_t *record, const char *line_workload, struct metric_set *out)
{
	char *name = workload_metric_name_in(record, line_workload);
	json_t *value = name ? json_object_get(record, "value") : NULL;
	enum metric_better better;
	bool added = name && json_is_number(value) && workload_metric_better(record, &better) &&
		     !workload_metric_refused(record, line_workload);
	if (added) {
		const char *unit = json_string_value(json_object_get(record, "unit"));
		metric_set_add_declared(out, name, json_number_value(value), unit ? unit : "", "out.log",
					better);
	}
	free(name);
	return added;
}
