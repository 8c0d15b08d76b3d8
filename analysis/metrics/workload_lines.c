/* workload_lines.c - the workload lines of out.log (workload_lines.h). */
#include "workload_lines.h"

#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/proto/workload-line.h"
#include "common/util.h"
#include "lab_metric_add.h"
#include "workload_metrics.h"

static size_t skip_blanks(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
		i++;
	return i;
}

static bool metric_out_of_schema(json_t *record, const char *line_workload)
{
	char *name = workload_metric_name_in(record, line_workload);
	json_t *value = json_object_get(record, "value");
	enum metric_better better;
	bool bad = !name || !(json_is_number(value) || json_is_null(value)) ||
		   !workload_metric_better(record, &better) ||
		   workload_metric_refused(record, line_workload);
	free(name);
	return bad;
}

/* Whether LINE, parsed as RECORD (NULL: no JSON object), is a bad line. */
static bool bad_record(const char *line, size_t len, json_t *record, const char *line_workload)
{
	size_t skip = skip_blanks(line, len);
	if (skip == len || line[skip] != '{')
		return false;
	const char *type = jsonl_type(record);
	return !record || (type && !strcmp(type, "metric") && metric_out_of_schema(record, line_workload));
}

bool workload_line_is_bad(const char *line, size_t len)
{
	json_t *record = jsonl_record(line, len);
	bool bad = bad_record(line, len, record, NULL);
	json_decref(record);
	return bad;
}

/* TEXT (LEN bytes) without trailing blanks, cut to WORKLOAD_LINE_TEXT_MAX bytes. */
static char *cut_text(const char *text, size_t len)
{
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r'))
		len--;
	return xstrndup(text, len < WORKLOAD_LINE_TEXT_MAX ? len : WORKLOAD_LINE_TEXT_MAX);
}

/* TEXT as a JSON string: a program's bytes need not be UTF-8 (or were cut
 * inside a character); such bytes become '?'. */
static json_t *text_json(const char *text)
{
	json_t *s = json_string(text);
	if (s)
		return s;
	char *ascii = xstrdup(text);
	for (char *p = ascii; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	s = json_string(ascii);
	free(ascii);
	return s;
}

static struct workload_line *line_started(struct workload_lines *out, json_t *marker)
{
	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	struct workload_line *l = &out->v[out->n++];
	memset(l, 0, sizeof(*l));
	l->line = (long)json_integer_value(json_object_get(marker, LINE_NUMBER));
	ktap_explainer_init(&l->ktap);
	const char *w = json_string_value(json_object_get(marker, "workload"));
	l->workload = xstrdup(w ? w : "");
	return l;
}

static void line_ended(struct workload_line *l, json_t *marker)
{
	l->ended = true;
	l->exit_status = (int)json_integer_value(json_object_get(marker, LINE_EXIT_STATUS));
	l->signal = (int)json_integer_value(json_object_get(marker, LINE_SIGNAL));
}

/* One line of out.log, while line *OPEN (NULL: none) is open; its metric
 * into METRICS. A line the guest's end cut short (not COMPLETE) is judged
 * for nothing else. Returns whether it was a metric. */
static bool take(struct workload_lines *out, struct workload_line **open, const char *line, size_t len,
		 bool complete, struct metric_set *metrics)
{
	size_t skip = skip_blanks(line, len);
	json_t *record = jsonl_record(line, len);
	const char *type = jsonl_type(record);
	bool metric = record && workload_metric_add(record, *open ? (*open)->workload : NULL, metrics);
	if (metric || !complete) {
		/* a metric line: a figure, neither text nor bad */
	} else if (type && !strcmp(type, LINE_START)) {
		*open = line_started(out, record);
	} else if (type && !strcmp(type, LINE_END)) {
		long n = (long)json_integer_value(json_object_get(record, LINE_NUMBER));
		if (*open && (*open)->line == n)
			line_ended(*open, record);
		*open = NULL;
	} else if (*open && !record && skip < len && line[skip] != '{') {
		if (!(*open)->first_text)
			(*open)->first_text = cut_text(line + skip, len - skip);
		ktap_explainer_feed(&(*open)->ktap, line, len);
	} else if (*open && bad_record(line, len, record, (*open)->workload)) {
		struct workload_line *l = *open;
		l->bad_lines++;
		if (l->n_examples < WORKLOAD_LINE_EXAMPLES)
			l->examples[l->n_examples++] = cut_text(line + skip, len - skip);
	}
	json_decref(record);
	return metric;
}

size_t workload_lines_parse(const char *text, size_t len, struct workload_lines *out,
			    struct metric_set *metrics)
{
	memset(out, 0, sizeof(*out));
	struct workload_line *open = NULL;
	size_t found = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - (text + pos)) : len - pos;
		found += take(out, &open, text + pos, line_len, nl != NULL, metrics);
		pos += line_len + 1;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct workload_line *l = &out->v[i];
		const char *why = ktap_explaining_line(&l->ktap);
		l->explaining_text = why ? cut_text(why, strlen(why)) : l->first_text ? xstrdup(l->first_text) : NULL;
	}
	return found;
}

void workload_lines_metrics(const struct workload_lines *w, struct metric_set *m)
{
	for (size_t i = 0; i < w->n; i++) {
		const struct workload_line *l = &w->v[i];
		char *name = xasprintf("%s." LINE_METRIC_BAD_LINES, l->workload);
		const struct metric_value *before = metric_set_get(m, name);
		double sum = (double)l->bad_lines + (before ? before->value : 0.0);
		lab_metric_addf(m, LAB_LINE_BAD_LINES, sum, "out.log", "%s", name);
		free(name);
	}
}

json_t *workload_lines_json(const struct workload_lines *w)
{
	json_t *a = json_array();
	for (size_t i = 0; i < w->n; i++) {
		const struct workload_line *l = &w->v[i];
		json_t *examples = json_array();
		for (size_t k = 0; k < l->n_examples; k++)
			json_array_append_new(examples, text_json(l->examples[k]));
		json_t *o = json_object();
		json_object_set_new(o, "line", json_integer(l->line));
		json_object_set_new(o, "workload", json_string(l->workload));
		json_object_set_new(o, "ended", json_boolean(l->ended));
		json_object_set_new(o, LINE_EXIT_STATUS, l->ended ? json_integer(l->exit_status) : json_null());
		json_object_set_new(o, LINE_SIGNAL, l->ended ? json_integer(l->signal) : json_null());
		json_object_set_new(o, LINE_FIRST_TEXT, l->first_text ? text_json(l->first_text) : json_null());
		json_object_set_new(o, LINE_EXPLAINING_TEXT,
				    l->explaining_text ? text_json(l->explaining_text) : json_null());
		json_object_set_new(o, "bad_lines", json_integer((json_int_t)l->bad_lines));
		json_object_set_new(o, "bad_line_examples", examples);
		json_array_append_new(a, o);
	}
	return a;
}

static char *json_text_dup(json_t *o, const char *key)
{
	const char *text = json_string_value(json_object_get(o, key));
	return text ? xstrdup(text) : NULL;
}

void workload_lines_from_json(json_t *array, struct workload_lines *out)
{
	size_t i;
	json_t *o;
	memset(out, 0, sizeof(*out));
	json_array_foreach(array, i, o) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct workload_line *l = &out->v[out->n++];
		memset(l, 0, sizeof(*l));
		l->line = (long)json_integer_value(json_object_get(o, LINE_NUMBER));
		l->workload = xstrdup(json_string_value(json_object_get(o, "workload")) ?: "");
		l->ended = json_is_true(json_object_get(o, "ended"));
		l->exit_status = (int)json_integer_value(json_object_get(o, LINE_EXIT_STATUS));
		l->signal = (int)json_integer_value(json_object_get(o, LINE_SIGNAL));
		l->first_text = json_text_dup(o, LINE_FIRST_TEXT);
		/* a trial.json from before explaining_text: its first text explains */
		l->explaining_text = json_text_dup(o, LINE_EXPLAINING_TEXT);
		if (!l->explaining_text && l->first_text)
			l->explaining_text = xstrdup(l->first_text);
		l->bad_lines = (size_t)json_integer_value(json_object_get(o, "bad_lines"));
	}
}

const struct workload_line *workload_lines_find(const struct workload_lines *w, long line)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].line == line)
			return &w->v[i];
	return NULL;
}

bool workload_line_exited_nonzero(const struct workload_line *l)
{
	return l->ended && l->signal == 0 && l->exit_status != 0;
}

void workload_lines_clear(struct workload_lines *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].workload);
		free(w->v[i].first_text);
		free(w->v[i].explaining_text);
		for (size_t k = 0; k < w->v[i].n_examples; k++)
			free(w->v[i].examples[k]);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}
