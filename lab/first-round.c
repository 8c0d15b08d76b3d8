/* The first round's word on a run (first-round.h). */
#include "first-round.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/workload_lines.h"
#include "common/proto/workload-line.h"
#include "common/trial-record.h"

struct ending {
	const char *outcome;
	json_int_t status;
};

static struct ending ending_of(json_t *record)
{
	json_t *o = json_object_get(record, "outcome");
	struct ending e = { json_string_value(json_object_get(o, "outcome")),
			    json_integer_value(json_object_get(o, "exit_status")) };
	return e;
}

/* What the trial said last on stderr: out.log's last line that is no JSON line. */
static char *last_words(const char *dir)
{
	char *path = xasprintf("%s/out.log", dir);
	char *text = read_file(path, NULL), *last = NULL;
	free(path);
	for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
		char *t = trim(line);
		if (*t && *t != '{')
			last = t;
	}
	char *words = last ? xstrdup(last) : NULL;
	free(text);
	return words;
}

static bool broken_outcome(const char *outcome)
{
	return !strcmp(outcome, "failed") || !strcmp(outcome, "boot-failure") ||
	       !strcmp(outcome, TRIAL_OUTCOME_HOST_KILLED) || !strcmp(outcome, TRIAL_OUTCOME_FLOODED);
}

/* Every record ended the same broken way (the first's): WHY says so. */
static bool same_broken_ending(json_t *const *records, const char *const *dirs, size_t n,
			       struct strbuf *why)
{
	struct ending first = ending_of(records[0]);
	for (size_t i = 1; i < n; i++) {
		struct ending e = ending_of(records[i]);
		if (strcmp(e.outcome, first.outcome) ||
		    (!strcmp(e.outcome, "failed") && e.status != first.status))
			return false;
	}
	if (!broken_outcome(first.outcome))
		return false;
	const char *detail = json_string_value(json_object_get(json_object_get(records[0], "outcome"),
							       "detail"));
	char *words = !strcmp(first.outcome, "failed") ? last_words(dirs[0]) : NULL;
	strbuf_addf(why, "every trial of the first round (%zu) ended '%s'", n, first.outcome);
	if (!strcmp(first.outcome, "failed"))
		strbuf_addf(why, " with exit status %lld", (long long)first.status);
	strbuf_addf(why, "; %s said: %.*s", dirs[0], words ? (int)strlen(words)
		    : detail ? (int)strcspn(detail, "\n") : 1, words ? words : detail ? detail : "?");
	free(words);
	return true;
}

/* RECORD's workload line LINE (trial.json's "workload_lines"), or NULL. */
static json_t *workload_line(json_t *record, json_int_t line)
{
	size_t i;
	json_t *l;
	json_array_foreach(json_object_get(record, "workload_lines"), i, l)
		if (json_integer_value(json_object_get(l, LINE_NUMBER)) == line)
			return l;
	return NULL;
}

/* L ended by itself with a status other than 0 (a signal is a result). */
static bool line_failed(json_t *l)
{
	json_t *status = json_object_get(l, LINE_EXIT_STATUS);
	return json_is_true(json_object_get(l, "ended")) && json_is_integer(status) &&
	       json_integer_value(status) != 0 && json_integer_value(json_object_get(l, LINE_SIGNAL)) == 0;
}

/* A workload line that failed with one status in every record: WHY says so. */
static bool same_failed_line(json_t *const *records, const char *const *dirs, size_t n,
			     struct strbuf *why)
{
	size_t k;
	json_t *first;
	json_array_foreach(json_object_get(records[0], "workload_lines"), k, first) {
		if (!line_failed(first))
			continue;
		json_int_t line = json_integer_value(json_object_get(first, LINE_NUMBER));
		json_int_t status = json_integer_value(json_object_get(first, LINE_EXIT_STATUS));
		bool same = true;
		for (size_t i = 1; i < n && same; i++) {
			json_t *l = workload_line(records[i], line);
			same = l && line_failed(l) &&
			       json_integer_value(json_object_get(l, LINE_EXIT_STATUS)) == status;
		}
		if (!same)
			continue;
		const char *text = workload_line_json_text(first);
		strbuf_addf(why, "in every trial of the first round (%zu) workload line %lld (%s) exited "
			    "with status %lld; %s", n, (long long)line,
			    json_string_value(json_object_get(first, "workload")), (long long)status, dirs[0]);
		if (text)
			strbuf_addf(why, " said: %s", text);
		else
			strbuf_addstr(why, ": it wrote no text");
		return true;
	}
	return false;
}

bool first_round_broken(const char *const *dirs, size_t n, struct strbuf *why)
{
	json_t **records = xcalloc(n ? n : 1, sizeof(*records));
	bool evidence = n > 0;
	for (size_t i = 0; i < n && evidence; i++) {
		records[i] = trial_record_load(dirs[i], TRIAL_RECORD_FILE);
		evidence = records[i] != NULL;
	}
	bool broken = evidence && (same_broken_ending(records, dirs, n, why) ||
				   same_failed_line(records, dirs, n, why));
	for (size_t i = 0; i < n; i++)
		json_decref(records[i]);
	free(records);
	return broken;
}
