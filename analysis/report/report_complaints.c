/* report_complaints.c - the distinct kernel complaints of a run (report_complaints.h). */
#include "report_complaints.h"

#include <stdlib.h>
#include <string.h>

#include "report_html.h"

/* Shown per complaint: the top of its stack. */
#define STACK_LINES 6

struct seen {
	const char *signature;          /* points into a trial.json */
	json_t *first;                  /* the first report of it, for its text */
	size_t count;                   /* reports, over every trial */
	size_t in_trials;               /* trials with at least one */
	struct strlist *trials;         /* per group: the trial indexes ("003") */
};

struct seen_set {
	struct seen *v;
	size_t n, alloc, groups;
};

static struct seen *seen_for(struct seen_set *s, const char *signature, json_t *report)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].signature, signature))
			return &s->v[i];
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	struct seen *e = &s->v[s->n++];
	*e = (struct seen){ .signature = signature, .first = report,
			    .trials = xcalloc(s->groups ? s->groups : 1, sizeof(*e->trials)) };
	return e;
}

static size_t group_index(const struct run_data *rd, const char *label)
{
	for (size_t g = 0; g < rd->labels.n; g++)
		if (!strcmp(rd->labels.items[g], label))
			return g;
	return 0;
}

static size_t group_trials(const struct run_data *rd, const char *label)
{
	size_t n = 0;
	for (size_t i = 0; i < rd->n; i++)
		n += !strcmp(rd->trials[i].label, label);
	return n;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* Most widespread first: the trials it came up in, then its reports. */
static int by_spread(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	if (x->in_trials != y->in_trials)
		return (x->in_trials < y->in_trials) - (x->in_trials > y->in_trials);
	if (x->count != y->count)
		return (x->count < y->count) - (x->count > y->count);
	return strcmp(x->signature, y->signature);
}

static char *trials_text(const struct run_data *rd, const struct seen *e)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t g = 0; g < rd->labels.n; g++) {
		const struct strlist *t = &e->trials[g];
		if (!t->n)
			continue;
		strbuf_addf(&sb, "%s%s: %zu of %zu (", sb.len ? "\n" : "", rd->labels.items[g], t->n,
			    group_trials(rd, rd->labels.items[g]));
		for (size_t i = 0; i < t->n; i++)
			strbuf_addf(&sb, "%s%s", i ? " " : "", t->items[i]);
		strbuf_addstr(&sb, ")");
	}
	return strbuf_detach(&sb);
}

static char *stack_text(json_t *report)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *frames = json_object_get(report, "frames"), *f;
	size_t i;
	json_array_foreach(frames, i, f) {
		if (i == STACK_LINES)
			break;
		strbuf_addf(&sb, "%s%s", i ? "\n" : "", json_string_value(f));
	}
	return strbuf_detach(&sb);
}

size_t report_complaints_write(FILE *out, const struct run_data *rd)
{
	struct seen_set s = { .groups = rd->labels.n };
	size_t recorded = 0;
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		json_t *list = json_object_get(t->trial, "kernel_complaints"), *report;
		size_t k;
		if (!json_is_array(list))
			continue;
		recorded++;
		json_array_foreach(list, k, report) {
			struct seen *e = seen_for(&s, str(report, "signature"), report);
			struct strlist *trials = &e->trials[group_index(rd, t->label)];
			char *index = xasprintf("%03u", t->index);
			if (!strlist_has(trials, index)) {
				strlist_push(trials, index);
				e->in_trials++;
			}
			free(index);
			e->count++;
		}
	}
	if (!recorded) {
		html_para(out, "absent", "No trial recorded the kernel's complaints (trial.json has no "
			  "kernel_complaints: lab results --recompute RUN reads them from the logs).");
		free(s.v);
		return 0;
	}
	if (!s.n) {
		char *msg = xasprintf("The kernel complained in none of the %zu trials: no WARNING, BUG, "
				      "lockdep, KASAN, KFENCE or SLUB report, lockup, stall, hung task "
				      "or allocation failure in kmsg.log or console.log.", recorded);
		html_para(out, "note", msg);
		free(msg);
		free(s.v);
		return 0;
	}
	qsort(s.v, s.n, sizeof(*s.v), by_spread);
	static const char *const head[] = { "kind", "complaint", "function", "reports", "trials",
					    "top of the stack", "first report" };
	const size_t cols = sizeof(head) / sizeof(head[0]);
	char **cells = xcalloc(s.n * cols, sizeof(*cells));
	for (size_t i = 0; i < s.n; i++) {
		struct seen *e = &s.v[i];
		char **row = &cells[i * cols];
		const char *message = str(e->first, "message");
		row[0] = xstrdup(str(e->first, "kind"));
		row[1] = *message ? xasprintf("%s\n%s", str(e->first, "summary"), message)
				  : xstrdup(str(e->first, "summary"));
		row[2] = xstrdup(str(e->first, "function"));
		row[3] = xasprintf("%zu", e->count);
		row[4] = trials_text(rd, e);
		row[5] = stack_text(e->first);
		row[6] = xstrdup(str(e->first, "title"));
	}
	char *intro = xasprintf("%zu distinct complaint%s in %zu trials (kernel_warnings counts them; "
				"kernel_warnings.kind=KIND per kind). Trials are given by group and "
				"index; the stack is the first report's, past the checker's own frames.",
				s.n, s.n == 1 ? "" : "s", recorded);
	html_para(out, "note", intro);
	free(intro);
	html_table(out, "complaints", head, cols, (const char *const *)cells, s.n);
	for (size_t i = 0; i < s.n * cols; i++)
		free(cells[i]);
	free(cells);
	size_t distinct = s.n;
	for (size_t i = 0; i < s.n; i++) {
		for (size_t g = 0; g < s.groups; g++)
			strlist_clear(&s.v[i].trials[g]);
		free(s.v[i].trials);
	}
	free(s.v);
	return distinct;
}
