/* kmsg.c - /dev/kmsg record parser (kmsg.h). */
#include "kmsg.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	if (!isdigit((unsigned char)*s))
		return false;
	uint64_t x = 0;
	while (isdigit((unsigned char)*s))
		x = x * 10 + (uint64_t)(*s++ - '0');
	*v = x;
	*p = s;
	return true;
}

bool kmsg_parse_record(char *line, struct kmsg_record *out)
{
	line[strcspn(line, "\r\n")] = '\0';
	const char *semi = strchr(line, ';');
	const char *p = line;
	uint64_t prio, seq, usec;
	if (!semi || !parse_u64(&p, &prio) || *p++ != ',' || !parse_u64(&p, &seq) ||
	    *p++ != ',' || !parse_u64(&p, &usec) || p > semi || (*p != ',' && *p != ';'))
		return false;
	out->level = (int)(prio & 7);
	out->facility = (int)(prio >> 3);
	out->seq = seq;
	out->usec = usec;
	out->text = semi + 1;
	return true;
}

static void account(char *line, kmsg_record_fn fn, void *ctx, struct kmsg_stats *st,
		    bool *have_seq, uint64_t *last_seq)
{
	struct kmsg_record r;
	if (line[0] == ' ' || line[0] == '\0' || line[0] == '\n')
		return;
	if (!kmsg_parse_record(line, &r)) {
		st->bad_lines++;
		return;
	}
	if (*have_seq && r.seq > *last_seq + 1)
		st->seq_gaps += r.seq - *last_seq - 1;
	*have_seq = true;
	*last_seq = r.seq;
	st->records++;
	if (fn)
		fn(&r, ctx);
}

int kmsg_read(const char *path, kmsg_record_fn fn, void *ctx, struct kmsg_stats *st)
{
	memset(st, 0, sizeof(*st));
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	bool have_seq = false;
	uint64_t last_seq = 0;
	while (getline(&line, &cap, f) >= 0)
		account(line, fn, ctx, st, &have_seq, &last_seq);
	free(line);
	fclose(f);
	return 0;
}

void kmsg_parse_text(char *text, kmsg_record_fn fn, void *ctx, struct kmsg_stats *st)
{
	memset(st, 0, sizeof(*st));
	bool have_seq = false;
	uint64_t last_seq = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		account(line, fn, ctx, st, &have_seq, &last_seq);
		line = nl ? nl + 1 : NULL;
	}
}
