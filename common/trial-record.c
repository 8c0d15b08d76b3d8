/* A trial's record: whether it finished and how it ended (trial-record.h). */
#include "trial-record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum trial_record_state trial_record_read_file(const char *dir, const char *file, struct trial_record *r)
{
	memset(r, 0, sizeof(*r));
	r->path = xasprintf("%s/%s", dir, file);
	size_t len;
	char *text = read_file(r->path, &len);
	if (!text) {
		bool absent = errno == ENOENT;
		r->state = absent ? TRIAL_NO_RECORD : TRIAL_NOT_JSON;
		r->outcome = absent ? TRIAL_OUTCOME_MISSING : TRIAL_OUTCOME_UNREADABLE;
		/* "no trial.json" is TRIAL_NO_RECORD_WHY */
		r->why = absent ? xasprintf("no %s", file) : xasprintf("cannot read %s: %s", file, strerror(errno));
		return r->state;
	}
	json_error_t jerr;
	json_t *json = json_loadb(text, len, 0, &jerr);
	free(text);
	json_t *o = json_object_get(json, "outcome");
	const char *outcome = json_string_value(json_object_get(o, "outcome"));
	/* the old name, for what it was: the record as its readers see it says the new one */
	if (outcome && !strcmp(outcome, TRIAL_OUTCOME_KILLED_BEFORE)) {
		json_object_set_new(o, "outcome", json_string(TRIAL_OUTCOME_HOST_KILLED));
		outcome = json_string_value(json_object_get(o, "outcome"));
	}
	if (outcome) {
		r->state = TRIAL_FINISHED;
		r->json = json;
		r->outcome = outcome;
		return r->state;
	}
	r->outcome = TRIAL_OUTCOME_UNREADABLE;
	if (!json) {
		r->state = TRIAL_NOT_JSON;
		r->why = xasprintf("%s: line %d: %s", file, jerr.line, jerr.text);
	} else {
		r->state = TRIAL_NO_OUTCOME;
		r->why = xasprintf(json_is_object(json) ? "%s has no outcome" : "%s is not a JSON object", file);
		json_decref(json);
	}
	return r->state;
}

enum trial_record_state trial_record_read(const char *dir, struct trial_record *r)
{
	return trial_record_read_file(dir, TRIAL_RECORD_FILE, r);
}

void trial_record_release(struct trial_record *r)
{
	json_decref(r->json);
	free(r->path);
	free(r->why);
	memset(r, 0, sizeof(*r));
}

json_t *trial_record_load(const char *dir, const char *file)
{
	struct trial_record r;
	trial_record_read_file(dir, file, &r);
	json_t *json = r.json;
	r.json = NULL;
	trial_record_release(&r);
	return json;
}

char *trial_record_outcome(const char *dir)
{
	json_t *json = trial_record_load(dir, TRIAL_RECORD_FILE);
	const char *o = json_string_value(json_object_get(json_object_get(json, "outcome"), "outcome"));
	char *outcome = o ? xstrdup(o) : NULL;
	json_decref(json);
	return outcome;
}

bool trial_record_finished(const char *dir)
{
	json_t *json = trial_record_load(dir, TRIAL_RECORD_FILE);
	bool finished = json != NULL;
	json_decref(json);
	return finished;
}
