/* workload_metrics.c - workload metric lines from out.log (workload_metrics.h). */
#include "workload_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/proto/workload-line.h"
#include "common/util.h"

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

char *workload_metric_name(json_t *line)
{
	return workload_metric_name_in(line, NULL);
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

struct metric_lines {
	struct metric_set *out;
	size_t found;
	char *line_workload;   /* between a line's start and end markers, its program */
};

static void metric_line(json_t *obj, void *ctx)
{
	struct metric_lines *ml = ctx;
	const char *type = jsonl_type(obj);
	if (type && (!strcmp(type, LINE_START) || !strcmp(type, LINE_END))) {
		const char *w = json_string_value(json_object_get(obj, "workload"));
		free(ml->line_workload);
		ml->line_workload = !strcmp(type, LINE_START) && w ? xstrdup(w) : NULL;
		return;
	}
	char *name = workload_metric_name_in(obj, ml->line_workload);
	json_t *value = name ? json_object_get(obj, "value") : NULL;
	if (name && json_is_number(value)) {
		const char *unit = json_string_value(json_object_get(obj, "unit"));
		metric_set_add(ml->out, name, json_number_value(value), unit ? unit : "", "out.log");
		ml->found++;
	}
	free(name);
}

size_t workload_metrics_parse(const char *text, struct metric_set *out)
{
	struct metric_lines ml = { out, 0, NULL };
	jsonl_parse(text, strlen(text), metric_line, &ml);
	free(ml.line_workload);
	return ml.found;
}
