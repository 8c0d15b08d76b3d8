/* The guest's workloads as the lab sees them (workload-catalog.h). */
#include "workload-catalog.h"

#include <stdlib.h>
#include <string.h>

#include "common/cli/parse-options.h"
#include "common/proto/workload-describe.h"
#include "common/run-command.h"
#include "lab/machine/guest-image.h"

/* Splits LINE at its tabs into at most MAX fields; returns how many. */
static size_t split_tabs(char *line, char **fields, size_t max)
{
	size_t n = 0;
	fields[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			fields[n++] = p + 1;
		}
	return n;
}

static struct workload_option *new_option(struct workload_info *w)
{
	ALLOC_GROW(w->options, w->n_options + 1, w->alloc_options);
	struct workload_option *o = &w->options[w->n_options++];
	memset(o, 0, sizeof(*o));
	return o;
}

/* One record F (N fields) into C; "" when good, else what is wrong. */
static const char *take_record(struct workload_catalog *c, char **f, size_t n)
{
	if (!strcmp(f[0], DESCRIBE_WORKLOAD)) {
		if (n != 3)
			return "a workload record has a name and a summary";
		ALLOC_GROW(c->items, c->n + 1, c->alloc);
		struct workload_info *w = &c->items[c->n++];
		memset(w, 0, sizeof(*w));
		w->name = xstrdup(f[1]);
		w->summary = xstrdup(f[2]);
		return "";
	}
	if (!c->n)
		return "a record before the first workload";
	struct workload_info *w = &c->items[c->n - 1];
	if (!strcmp(f[0], DESCRIBE_USAGE) && n == 2) {
		strlist_push(&w->usage, f[1]);
	} else if (!strcmp(f[0], DESCRIBE_NOTES) && n == 2) {
		strlist_push(&w->notes, f[1]);
	} else if (!strcmp(f[0], DESCRIBE_METRIC) && n == 2) {
		strlist_push(&w->metrics, f[1]);
	} else if (!strcmp(f[0], OPTION_ROW) && n == 5) {
		struct workload_option *o = new_option(w);
		o->short_name = xstrdup(f[1]);
		o->long_name = xstrdup(f[2]);
		o->arg = xstrdup(f[3]);
		o->help = xstrdup(f[4]);
		o->group = xstrdup("");
	} else if (!strcmp(f[0], OPTION_ROW_GROUP) && n == 2) {
		struct workload_option *o = new_option(w);
		o->short_name = xstrdup("");
		o->long_name = xstrdup("");
		o->arg = xstrdup("");
		o->help = xstrdup("");
		o->group = xstrdup(f[1]);
	} else {
		return "not a record of oomlab-workload --describe";
	}
	return "";
}

int workload_catalog_parse(const char *text, struct workload_catalog *c, struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	char *copy = xstrdup(text);
	int line_no = 0, rc = 0;
	for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		line_no++;
		char *f[5];
		size_t n = split_tabs(line, f, 5);
		const char *why = take_record(c, f, n);
		if (*why) {
			strbuf_addf(err, "oomlab-workload --describe, line %d: %s", line_no, why);
			rc = -1;
		}
	}
	if (!rc && !c->n) {
		strbuf_addstr(err, "oomlab-workload --describe named no workload");
		rc = -1;
	}
	free(copy);
	if (rc)
		workload_catalog_clear(c);
	return rc;
}

int workload_catalog_load(const char *binary, struct workload_catalog *c, struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	char *ours = binary ? NULL : guest_workload_binary();
	const char *argv[] = { binary ? binary : ours, DESCRIBE_FLAG, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc = capture_command_or_say(argv, &out, err);
	free(ours);
	if (!rc)
		rc = workload_catalog_parse(out.buf, c, err);
	strbuf_release(&out);
	return rc;
}

void workload_catalog_clear(struct workload_catalog *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct workload_info *w = &c->items[i];
		free(w->name);
		free(w->summary);
		strlist_clear(&w->usage);
		strlist_clear(&w->notes);
		strlist_clear(&w->metrics);
		for (size_t k = 0; k < w->n_options; k++) {
			free(w->options[k].short_name);
			free(w->options[k].long_name);
			free(w->options[k].arg);
			free(w->options[k].help);
			free(w->options[k].group);
		}
		free(w->options);
	}
	free(c->items);
	memset(c, 0, sizeof(*c));
}

const char *workload_synopsis(const struct workload_info *w)
{
	static const char prefix[] = "Usage: ";
	if (w->usage.n && !strncmp(w->usage.items[0], prefix, strlen(prefix)))
		return w->usage.items[0] + strlen(prefix);
	return w->name;
}
