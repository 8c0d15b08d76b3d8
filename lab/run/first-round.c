/* The first round's word on a run (first-round.h). */
#include "first-round.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/workload_lines.h"
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

/* A workload line that failed with one status in every record: WHY says so. */
static bool same_failed_line(json_t *const *records, const char *const *dirs, size_t n,
			     struct strbuf *why)
{
	struct workload_lines *lines = xcalloc(n, sizeof(*lines));
	for (size_t i = 0; i < n; i++)
		workload_lines_from_json(json_object_get(records[i], "workload_lines"), &lines[i]);
	bool found = false;
	for (size_t k = 0; k < lines[0].n && !found; k++) {
		const struct workload_line *first = &lines[0].v[k];
		if (!workload_line_exited_nonzero(first))
			continue;
		bool same = true;
		for (size_t i = 1; i < n && same; i++) {
			const struct workload_line *l = workload_lines_find(&lines[i], first->line);
			same = l && workload_line_exited_nonzero(l) && l->exit_status == first->exit_status;
		}
		if (!same)
			continue;
		strbuf_addf(why, "in every trial of the first round (%zu) workload line %ld (%s) exited "
			    "with status %d; %s", n, first->line, first->workload, first->exit_status,
			    dirs[0]);
		if (first->explaining_text)
			strbuf_addf(why, " said: %s", first->explaining_text);
		else
			strbuf_addstr(why, ": it wrote no text");
		found = true;
	}
	for (size_t i = 0; i < n; i++)
		workload_lines_clear(&lines[i]);
	free(lines);
	return found;
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
