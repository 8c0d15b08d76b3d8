/* The first round's word on a run (first-round.h). */
#include "first-round.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/trial-record.h"

struct ending {
	const char *outcome;
	json_int_t status;
};

/* DIR's ending when its trial finished (common/trial-record.h); *RECORD keeps it. */
static bool read_ending(const char *dir, json_t **record, struct ending *e)
{
	*record = trial_record_load(dir, TRIAL_RECORD_FILE);
	json_t *o = json_object_get(*record, "outcome");
	e->outcome = json_string_value(json_object_get(o, "outcome"));
	e->status = json_integer_value(json_object_get(o, "exit_status"));
	return e->outcome != NULL;
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

bool first_round_broken(const char *const *dirs, size_t n, struct strbuf *why)
{
	struct ending first = { NULL, 0 };
	json_t *first_record = NULL;
	bool same = n > 0;
	for (size_t i = 0; i < n && same; i++) {
		json_t *record;
		struct ending e;
		same = read_ending(dirs[i], &record, &e);
		if (same && i == 0) {
			first = e;
			first_record = json_incref(record);
		}
		same = same && !strcmp(e.outcome, first.outcome) &&
		       (strcmp(e.outcome, "failed") || e.status == first.status);
		json_decref(record);
	}
	bool broken = same && (!strcmp(first.outcome, "failed") || !strcmp(first.outcome, "boot-failure"));
	if (broken) {
		const char *detail = json_string_value(json_object_get(json_object_get(first_record, "outcome"),
								       "detail"));
		char *words = !strcmp(first.outcome, "failed") ? last_words(dirs[0]) : NULL;
		strbuf_addf(why, "every trial of the first round (%zu) ended '%s'", n, first.outcome);
		if (!strcmp(first.outcome, "failed"))
			strbuf_addf(why, " with exit status %lld", (long long)first.status);
		strbuf_addf(why, "; %s said: %.*s", dirs[0], words ? (int)strlen(words)
			    : detail ? (int)strcspn(detail, "\n") : 1, words ? words : detail ? detail : "?");
		free(words);
	}
	json_decref(first_record);
	return broken;
}
