/* Unit tests: the one rule of whether a trial finished and how it ended
 * (common/trial-record.h), and the one rule of a run's groups
 * (common/run-folder.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/run-folder.h"
#include "common/trial-record.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-trial-record.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

/* Reads ROOT/NAME/trial.json, written with TEXT first (NULL: no file). */
static enum trial_record_state read_case(const char *name, const char *text, struct trial_record *r)
{
	char *dir = xasprintf("%s/%s", root, name);
	char *rel = xasprintf("%s/trial.json", name);
	if (text)
		scratch_put(root, rel, text);
	else
		assert_int_equal(mkdir_p(dir, 0755), 0);
	enum trial_record_state state = trial_record_read(dir, r);
	free(rel);
	free(dir);
	return state;
}

static void a_record_with_an_outcome_finished(void **state)
{
	(void)state;
	struct trial_record r;
	assert_int_equal(read_case("ok", "{\"outcome\": {\"outcome\": \"off-target\"}, \"metrics\": []}", &r),
			 TRIAL_FINISHED);
	assert_string_equal(r.outcome, "off-target");
	assert_non_null(json_object_get(r.json, "metrics"));
	assert_null(r.why);
	trial_record_release(&r);
	char *dir = xasprintf("%s/ok", root);
	char *outcome = trial_record_outcome(dir);
	assert_string_equal(outcome, "off-target");
	assert_true(trial_record_finished(dir));
	free(outcome);
	free(dir);
}

/* The outcome a QEMU killed from outside the lab ended with was "killed"
 * before it was "host-killed": an old record reads with the new name, for
 * every reader, and nothing else in it changes. */
static void an_old_killed_reads_as_host_killed(void **state)
{
	(void)state;
	struct trial_record r;
	assert_int_equal(read_case("old-killed", "{\"outcome\": {\"outcome\": \"killed\", "
				   "\"exit_status\": -1, \"detail\": \"QEMU was killed by signal 9\"}}", &r),
			 TRIAL_FINISHED);
	assert_string_equal(r.outcome, TRIAL_OUTCOME_HOST_KILLED);
	assert_string_equal(r.outcome, "host-killed");
	json_t *o = json_object_get(r.json, "outcome");
	assert_string_equal(json_string_value(json_object_get(o, "outcome")), "host-killed");
	assert_string_equal(json_string_value(json_object_get(o, "detail")), "QEMU was killed by signal 9");
	trial_record_release(&r);
	char *dir = xasprintf("%s/old-killed", root);
	char *outcome = trial_record_outcome(dir);
	assert_string_equal(outcome, "host-killed");
	free(outcome);
	json_t *loaded = trial_record_load(dir, TRIAL_RECORD_FILE);
	assert_string_equal(json_string_value(json_object_get(json_object_get(loaded, "outcome"), "outcome")),
			    "host-killed");
	json_decref(loaded);
	free(dir);
	/* the new name reads as it is */
	assert_int_equal(read_case("host-killed", "{\"outcome\": {\"outcome\": \"host-killed\"}}", &r),
			 TRIAL_FINISHED);
	assert_string_equal(r.outcome, "host-killed");
	trial_record_release(&r);
}

/* Each way of not finishing, its outcome name and its one line; the
 * record's contents (metrics included) are never handed out. */
static void every_unfinished_record_is_named(void **state)
{
	(void)state;
	struct trial_record r;
	assert_int_equal(read_case("none", NULL, &r), TRIAL_NO_RECORD);
	assert_string_equal(r.outcome, TRIAL_OUTCOME_MISSING);
	assert_string_equal(r.why, TRIAL_NO_RECORD_WHY);
	assert_null(r.json);
	trial_record_release(&r);

	assert_int_equal(read_case("cut", "{\"outcome\": ", &r), TRIAL_NOT_JSON);
	assert_string_equal(r.outcome, TRIAL_OUTCOME_UNREADABLE);
	assert_true(!strncmp(r.why, "trial.json: line 1: ", 20));
	trial_record_release(&r);

	assert_int_equal(read_case("no-outcome", "{\"metrics\": [{\"name\": \"oom_kills\", \"value\": 1}]}", &r),
			 TRIAL_NO_OUTCOME);
	assert_string_equal(r.outcome, TRIAL_OUTCOME_UNREADABLE);
	assert_string_equal(r.why, "trial.json has no outcome");
	assert_null(r.json);
	trial_record_release(&r);

	assert_int_equal(read_case("array", "[1, 2]", &r), TRIAL_NO_OUTCOME);
	assert_string_equal(r.why, "trial.json is not a JSON object");
	trial_record_release(&r);

	/* an outcome that is not a string is no outcome */
	assert_int_equal(read_case("number", "{\"outcome\": {\"outcome\": 3}}", &r), TRIAL_NO_OUTCOME);
	trial_record_release(&r);

	char *dir = xasprintf("%s/no-outcome", root);
	assert_null(trial_record_outcome(dir));
	assert_false(trial_record_finished(dir));
	free(dir);
}

/* record.json is read by the same rule, its name in the line. */
static void another_record_file_by_the_same_rule(void **state)
{
	(void)state;
	scratch_put(root, "given/record.json", "{\"outcome\": {}}");
	char *dir = xasprintf("%s/given", root);
	struct trial_record r;
	assert_int_equal(trial_record_read_file(dir, "record.json", &r), TRIAL_NO_OUTCOME);
	assert_string_equal(r.why, "record.json has no outcome");
	trial_record_release(&r);
	assert_int_equal(trial_record_read(dir, &r), TRIAL_NO_RECORD);
	trial_record_release(&r);
	free(dir);
}

/* Groups are run.json's, a label else the variant, once each, in its
 * order; a folder of trials it does not list is named, a folder without
 * trials is not. */
static void the_groups_are_run_json_s(void **state)
{
	(void)state;
	json_t *run = json_loads("{\"groups\": [{\"label\": \"stock#2\", \"variant\": \"stock\"},"
				 " {\"variant\": \"kcalloc\"}, {\"label\": \"\"}, {\"label\": \"stock#2\"}]}",
				 0, NULL);
	assert_non_null(run);
	struct strlist labels = STRLIST_INIT;
	run_folder_group_labels(run, &labels);
	assert_int_equal(labels.n, 2);
	assert_string_equal(labels.items[0], "stock#2");
	assert_string_equal(labels.items[1], "kcalloc");

	scratch_put(root, "run/stock#2/000/trial.json", "{}");
	scratch_put(root, "run/stray/001/out.log", "");
	scratch_put(root, "run/also/000/out.log", "");
	scratch_put(root, "run/plots/a.svg", "");
	char *dir = xasprintf("%s/run", root);
	struct strlist unlisted = STRLIST_INIT;
	run_folder_unlisted_groups(dir, &labels, &unlisted);
	assert_int_equal(unlisted.n, 2);
	assert_string_equal(unlisted.items[0], "also");
	assert_string_equal(unlisted.items[1], "stray");
	strlist_clear(&unlisted);
	strlist_clear(&labels);
	json_decref(run);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_record_with_an_outcome_finished),
		cmocka_unit_test(every_unfinished_record_is_named),
		cmocka_unit_test(an_old_killed_reads_as_host_killed),
		cmocka_unit_test(another_record_file_by_the_same_rule),
		cmocka_unit_test(the_groups_are_run_json_s),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
