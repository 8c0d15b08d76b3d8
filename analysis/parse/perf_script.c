/* perf_script.c - the perf script text parser (perf_script.h). */
#include "perf_script.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct token {
	char *start;
	size_t len;
};

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* "1234.567890123:" -> ns. The fraction is scaled to nanoseconds whatever its
 * length (perf prints 9 digits with --ns, 6 without). */
static bool parse_time(const struct token *t, uint64_t *ns)
{
	const char *dot = memchr(t->start, '.', t->len);
	if (t->len < 4 || t->start[t->len - 1] != ':' || !dot)
		return false;
	size_t int_len = (size_t)(dot - t->start);
	size_t frac_len = t->len - int_len - 2;
	if (!all_digits(t->start, int_len) || !all_digits(dot + 1, frac_len) || frac_len > 9)
		return false;
	uint64_t sec = 0, frac = 0;
	for (size_t i = 0; i < int_len; i++)
		sec = sec * 10 + (uint64_t)(t->start[i] - '0');
	for (size_t i = 0; i < 9; i++)
		frac = frac * 10 + (i < frac_len ? (uint64_t)(dot[1 + i] - '0') : 0);
	*ns = sec * 1000000000ull + frac;
	return true;
}

/* "[001]" */
static bool parse_cpu(const struct token *t, int *cpu)
{
	if (t->len < 3 || t->start[0] != '[' || t->start[t->len - 1] != ']' ||
	    !all_digits(t->start + 1, t->len - 2))
		return false;
	*cpu = atoi(t->start + 1);
	return true;
}

/* "123/125"; perf prints -1 for records without a task. */
static bool parse_pid_tid(const struct token *t, int *pid, int *tid)
{
	const char *slash = memchr(t->start, '/', t->len);
	if (!slash)
		return false;
	const char *a = t->start, *b = slash + 1;
	size_t na = (size_t)(slash - a), nb = t->len - na - 1;
	if (na && *a == '-') {
		a++;
		na--;
	}
	if (nb && *b == '-') {
		b++;
		nb--;
	}
	if (!all_digits(a, na) || !all_digits(b, nb))
		return false;
	*pid = atoi(t->start);
	*tid = atoi(slash + 1);
	return true;
}

/* Splits the tracepoint text into fields, in place. */
static void split_fields(char *text, struct perf_sample *s)
{
	char *p = text;
	struct perf_field *last = NULL;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		char *tok = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		char *end = p;
		if (*p)
			*p++ = '\0';
		if (end > tok && end[-1] == ',')
			*--end = '\0';
		char *sep = strchr(tok, '=');
		char *colon = strchr(tok, ':');
		/* key:value only when the key looks like a name ("file-rss:12kB"), so
		 * that a value such as "0x1:0x2" is not split. */
		if (!sep && colon && colon > tok) {
			bool name = true;
			for (char *c = tok; c < colon; c++)
				if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
					name = false;
			if (name)
				sep = colon;
		}
		if (sep && sep > tok) {
			*sep = '\0';
			if (s->n_fields < PERF_FIELDS_MAX) {
				last = &s->fields[s->n_fields++];
				last->key = tok;
				last->value = sep + 1;
			} else {
				s->fields_truncated = true;
				last = NULL;
			}
		} else if (last) {
			/* A value with a blank in it (a comm such as "Binder thread"):
			 * rejoin it with the token before. */
			char *prev_end = (char *)last->value + strlen(last->value);
			*prev_end = ' ';
			if (end > tok && tok != prev_end + 1)
				memmove(prev_end + 1, tok, (size_t)(end - tok) + 1);
		}
	}
}

static size_t tokenize(char *line, struct token *toks, size_t max)
{
	size_t n = 0;
	char *p = line;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		toks[n].start = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		toks[n].len = (size_t)(p - toks[n].start);
		n++;
	}
	return n;
}

static bool parse_lost(const char *rest, uint64_t *lost)
{
	const char *rec = strstr(rest, "PERF_RECORD_LOST");
	if (!rec)
		return false;
	const char *l = strstr(rec, " lost ");
	*lost = l ? strtoull(l + 6, NULL, 10) : 0;
	return true;
}

enum perf_line_kind perf_script_parse_line(char *line, struct perf_sample *out, uint64_t *lost)
{
	line[strcspn(line, "\r\n")] = '\0';
	memset(out, 0, sizeof(*out));
	if (!line[strspn(line, " \t")])
		return PERF_LINE_BLANK;

	/* The time stamp is within the first few tokens (comm may have blanks). */
	struct token toks[24];
	size_t n = tokenize(line, toks, 24);
	size_t ti = 0;
	bool found = false;
	for (ti = 2; ti < n; ti++) {
		if (parse_time(&toks[ti], &out->t_ns) && parse_cpu(&toks[ti - 1], &out->cpu) &&
		    parse_pid_tid(&toks[ti - 2], &out->pid, &out->tid)) {
			found = true;
			break;
		}
	}
	if (!found) {
		if (lost && parse_lost(line, lost))
			return PERF_LINE_LOST;
		return PERF_LINE_UNPARSED;
	}
	char *after_time = toks[ti].start + toks[ti].len;
	if (lost && parse_lost(after_time, lost))
		return PERF_LINE_LOST;
	if (ti + 1 >= n)
		return PERF_LINE_UNPARSED;
	struct token ev = toks[ti + 1];
	if (ev.len < 2 || ev.start[ev.len - 1] != ':' || !memchr(ev.start, ':', ev.len - 1))
		return PERF_LINE_UNPARSED;

	/* comm: everything before the pid/tid token, without the padding. */
	char *comm = line, *comm_end = toks[ti - 2].start;
	while (comm < comm_end && (*comm == ' ' || *comm == '\t'))
		comm++;
	while (comm_end > comm && (comm_end[-1] == ' ' || comm_end[-1] == '\t'))
		comm_end--;
	*comm_end = '\0';
	out->comm = comm;

	ev.start[ev.len - 1] = '\0';
	out->event = ev.start;
	char *trace = ev.start + ev.len;
	while (*trace == ' ' || *trace == '\t')
		trace++;
	out->trace = trace;
	split_fields(trace, out);
	return PERF_LINE_SAMPLE;
}

const char *perf_field(const struct perf_sample *s, const char *key)
{
	for (size_t i = 0; i < s->n_fields; i++)
		if (!strcmp(s->fields[i].key, key))
			return s->fields[i].value;
	return NULL;
}

bool perf_field_long(const struct perf_sample *s, const char *key, long long *v)
{
	const char *text = perf_field(s, key);
	if (!text || !*text)
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(text, &end, 0);
	/* A unit right after the number is allowed ("12kB"). */
	if (errno || end == text || (*end && !isalpha((unsigned char)*end)))
		return false;
	*v = x;
	return true;
}

static void account(char *line, perf_sample_fn fn, void *ctx, struct perf_script_stats *st)
{
	struct perf_sample s;
	uint64_t lost = 0;
	switch (perf_script_parse_line(line, &s, &lost)) {
	case PERF_LINE_SAMPLE:
		if (!st->samples || s.t_ns < st->first_ns)
			st->first_ns = s.t_ns;
		if (s.t_ns > st->last_ns)
			st->last_ns = s.t_ns;
		st->samples++;
		if (fn)
			fn(&s, ctx);
		break;
	case PERF_LINE_LOST:
		st->lost_records++;
		st->lost_events += lost;
		break;
	case PERF_LINE_UNPARSED:
		st->unparsed_lines++;
		break;
	case PERF_LINE_BLANK:
		break;
	}
}

int perf_script_read(const char *path, perf_sample_fn fn, void *ctx, struct perf_script_stats *st)
{
	memset(st, 0, sizeof(*st));
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) >= 0)
		account(line, fn, ctx, st);
	free(line);
	fclose(f);
	return 0;
}

void perf_script_parse_text(char *text, perf_sample_fn fn, void *ctx, struct perf_script_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		account(line, fn, ctx, st);
		line = nl ? nl + 1 : NULL;
	}
}
