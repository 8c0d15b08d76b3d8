/*
 * A trial's record (docs/FORMATS.md): the one rule, for every reader, of
 * whether a trial finished and how it ended. A record file (trial.json, or
 * record.json, the record as the boot gave it) is finished when it is a
 * JSON object whose "outcome" object has a string "outcome"; that string
 * is the trial's outcome (an old record's "killed" read as "host-killed",
 * in the record too). Otherwise the trial did not finish, and its
 * outcome is one of two names that no boot gives:
 *   "missing"     no trial.json: it never finished (lab run --resume runs it)
 *   "unreadable"  a trial.json that is not JSON, not an object, or has no
 *                 outcome (lab results --recompute rebuilds it)
 * An unfinished record's contents, metrics included, are never used.
 */
#ifndef OOMLAB_TRIAL_RECORD_H
#define OOMLAB_TRIAL_RECORD_H

#include <jansson.h>
#include <stdbool.h>

#define TRIAL_RECORD_FILE "trial.json"
/* The outcome of a trial whose QEMU a signal from outside the lab ended
 * (the host's OOM killer, a user's kill). Records written before it had
 * this name say "killed", which an OOM lab reads as OOM-killed: every
 * reader here gets the new name for it. */
#define TRIAL_OUTCOME_HOST_KILLED "host-killed"
#define TRIAL_OUTCOME_KILLED_BEFORE "killed"
/* The outcome of a trial whose guest wrote past a channel's cap
 * (common/proto/protocol.h): the lab stopped it. */
#define TRIAL_OUTCOME_FLOODED "flooded"
#define TRIAL_OUTCOME_MISSING "missing"
#define TRIAL_OUTCOME_UNREADABLE "unreadable"
/* The problem named when there is no trial.json (what the store keeps of it). */
#define TRIAL_NO_RECORD_WHY "no " TRIAL_RECORD_FILE

enum trial_record_state {
	TRIAL_FINISHED,
	TRIAL_NO_RECORD,   /* no such file */
	TRIAL_NOT_JSON,    /* the file is not JSON (or cannot be read) */
	TRIAL_NO_OUTCOME,  /* JSON, but no object with an outcome */
};

struct trial_record {
	enum trial_record_state state;
	json_t *json;         /* the record when finished, else NULL */
	const char *outcome;  /* the outcome (points into json), or "missing"/"unreadable" */
	char *path;           /* the file read */
	/* NULL when finished, else one line naming the file's problem:
	 * "no trial.json", "trial.json: line 2: ...", "trial.json has no outcome" */
	char *why;
};

/* Reads DIR/trial.json into R (release it with trial_record_release). */
enum trial_record_state trial_record_read(const char *dir, struct trial_record *r);
/* The same rule for another record file of DIR (such as record.json). */
enum trial_record_state trial_record_read_file(const char *dir, const char *file, struct trial_record *r);
void trial_record_release(struct trial_record *r);
/* DIR's record file FILE when it is finished (a new reference), else NULL. */
json_t *trial_record_load(const char *dir, const char *file);
/* DIR's outcome (malloc'd) when its trial finished, else NULL. */
char *trial_record_outcome(const char *dir);
/* Whether DIR's trial finished. */
bool trial_record_finished(const char *dir);

#endif
