/* workload_lines.h - an experiment's workload lines as out.log tells them
 * (common/proto/workload-line.h): what the guest's line runner wrote around
 * each line, and the line's own output between its "line-start" and
 * "line-end" markers. For each line:
 *   - how it ended: its exit status and signal (unknown when the guest
 *     died before the line's end);
 *   - first_text, its first line of text: the first one that is not a JSON
 *     line. stdout and stderr share out.log, so this is a program's error
 *     message ("taskset: bad affinity 'zz'") or, for a program that talks
 *     on stdout, its first plain line;
 *   - explaining_text, the line that explains how it ended: for text that
 *     is KTAP or TAP (a selftest's), the line ktap_explaining_line() picks
 *     ("Bail out! ...", "# Failed to open /proc/sys/vm/nr_hugepages"),
 *     where first_text would be "TAP version 13"; else first_text;
 *   - its bad lines: complete lines that start with '{' (past blanks) but
 *     are no JSON object, or are metric lines ("type":"metric") out of the
 *     schema (no workload, no name, a value that is neither a number nor
 *     null, or a "better" that is neither "higher" nor "lower":
 *     workload_metrics.h). Plain text is a program's own words, never a
 *     bad line: the lab's workloads and busybox's applets write text on
 *     stderr, and a reproducer may print what it does. A line the guest's
 *     end cut short (no newline) is not judged.
 * Output of other processes that write to out.log meanwhile (the prepare
 * step, what an earlier line left running) counts with the line.
 *
 * trial.json keeps them as "workload_lines" (docs/FORMATS.md), and each
 * line gives the metric "<workload>.bad_lines" (count, out.log; the lines of
 * one workload summed).
 */
#ifndef OOMLAB_WORKLOAD_LINES_H
#define OOMLAB_WORKLOAD_LINES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/kernel-text/ktap.h"
#include "metric_set.h"

/* trial.json's names of the two texts of a workload line */
#define LINE_FIRST_TEXT      "first_text"
#define LINE_EXPLAINING_TEXT "explaining_text"

/* trial.json names this many bad lines of a workload line, each cut to TEXT_MAX bytes. */
#define WORKLOAD_LINE_EXAMPLES 3
#define WORKLOAD_LINE_TEXT_MAX 200

struct workload_line {
	long line;                 /* 1, 2, ...: its place in the experiment */
	char *workload;
	bool ended;                /* its "line-end" came */
	int exit_status, signal;   /* when ended */
	char *first_text;          /* NULL: it wrote no text */
	char *explaining_text;     /* NULL: it wrote no text; set at the end of parsing */
	struct ktap_explainer ktap;
	size_t bad_lines;
	char *examples[WORKLOAD_LINE_EXAMPLES];
	size_t n_examples;
};

struct workload_lines {
	struct workload_line *v;
	size_t n, alloc;
};

/* Whether LINE (LEN bytes, no newline) is a bad line (above). */
bool workload_line_is_bad(const char *line, size_t len);
/* The lines of out.log's TEXT (LEN bytes) into OUT (none without markers). */
/* Reads out.log's TEXT once: its lines into OUT, and every metric line
 * (workload_metrics.h; inside a line, one without "workload" is the line's)
 * into METRICS. Returns how many metric lines it took. */
size_t workload_lines_parse(const char *text, size_t len, struct workload_lines *out,
			    struct metric_set *metrics);
/* Adds "<workload>.bad_lines" for each line. */
void workload_lines_metrics(const struct workload_lines *w, struct metric_set *m);
/* trial.json's "workload_lines": [{"line", "workload", "ended", "exit_status",
 * "signal" (null when not ended), "first_text" (null: none),
 * "explaining_text" (null: none), "bad_lines",
 * "bad_line_examples": [...]}, ...] */
json_t *workload_lines_json(const struct workload_lines *w);
/* The one decoder of that array: back into OUT (cleared first), without
 * the examples. A line's explaining_text is its first_text in a trial.json
 * from before explaining_text, so whoever quotes a line's failure takes
 * explaining_text (NULL when it wrote none). */
void workload_lines_from_json(json_t *array, struct workload_lines *out);
/* W's line number LINE, or NULL. */
const struct workload_line *workload_lines_find(const struct workload_lines *w, long line);
/* L ended by itself with a status other than 0 (a signal is a result, not this). */
bool workload_line_exited_nonzero(const struct workload_line *l);
void workload_lines_clear(struct workload_lines *w);

#endif
