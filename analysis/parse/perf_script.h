/* perf_script.h - reads the text of
 *
 *     perf script --ns --show-lost-events -F comm,pid,tid,cpu,time,event,trace
 *
 * (lab/trial/perf-events.c writes it as perf.script in the trial folder), one
 * sample line at a time:
 *
 *     oom-hog     123/125   [001]  1234.567890123: oom:mark_victim: pid=125 comm=oom-hog ...
 *
 * comm may contain blanks, so a line is read from the time stamp outwards:
 * the first blank-separated token "SECONDS.NANOSECONDS:" is the time, the
 * "[CPU]" and "PID/TID" tokens before it and the comm before those; after it
 * the event "group:name:" and the tracepoint's text.  The text is split into
 * key=value fields: a token without '=' belongs to the previous field's value
 * (a comm with a blank), a trailing ',' is dropped ("zone_end=0x8000, mode=
 * sync"), and "key:value" tokens count as fields too (mark_victim prints
 * "file-rss:12kB").
 *
 * perf's LOST records ("PERF_RECORD_LOST lost N" and the "LOST_SAMPLES"
 * kind) are counted, not returned as samples.
 */
#ifndef OOMLAB_PERF_SCRIPT_H
#define OOMLAB_PERF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_FIELDS_MAX 24

struct perf_field {
	const char *key;
	const char *value;
};

/* One sample. The strings point into the line given to perf_script_parse_line(). */
struct perf_sample {
	const char *comm;
	int pid, tid, cpu;
	uint64_t t_ns;          /* CLOCK_MONOTONIC, as perf recorded it (-k mono) */
	const char *event;      /* "group:name" */
	const char *trace;      /* the tracepoint's text, unsplit (a copy of it is not kept) */
	struct perf_field fields[PERF_FIELDS_MAX];
	size_t n_fields;
	bool fields_truncated;  /* more than PERF_FIELDS_MAX fields: the rest were dropped */
};

enum perf_line_kind {
	PERF_LINE_SAMPLE,
	PERF_LINE_LOST,         /* a LOST record; *lost holds its count */
	PERF_LINE_BLANK,
	PERF_LINE_UNPARSED,     /* anything else (perf's own warnings, a line cut short) */
};

/* Parses LINE (no trailing newline needed; modified in place). */
enum perf_line_kind perf_script_parse_line(char *line, struct perf_sample *out, uint64_t *lost);

/* The value of KEY in a sample, or NULL. */
const char *perf_field(const struct perf_sample *s, const char *key);
/* KEY's value as an integer (decimal, or hex with 0x); false if absent or not a number. */
bool perf_field_long(const struct perf_sample *s, const char *key, long long *v);

struct perf_script_stats {
	uint64_t samples;
	uint64_t lost_events;   /* the sum of the LOST records' counts */
	uint64_t lost_records;
	uint64_t unparsed_lines;
	uint64_t first_ns, last_ns;     /* of the samples; 0 when none */
};

typedef void (*perf_sample_fn)(const struct perf_sample *s, void *ctx);

/* Reads a perf.script file, calling FN for every sample in file order.
 * Returns 0, or -1 with errno when the file cannot be read. */
int perf_script_read(const char *path, perf_sample_fn fn, void *ctx, struct perf_script_stats *st);
/* The same over text in memory (modified in place). */
void perf_script_parse_text(char *text, perf_sample_fn fn, void *ctx, struct perf_script_stats *st);

#endif
