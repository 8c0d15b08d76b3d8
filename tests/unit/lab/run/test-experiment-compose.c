/* Unit tests: experiments the lab writes from lab run's options (experiment-compose.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/run/experiment.h"
#include "lab/run/experiment-compose.h"

static const char file_text[] =
	"description = a question\n"
	"variants = stock binder-kcalloc\n"
	"baseline = stock\n"
	"profile = phone-512m\n"
	"  workload = binder-mmap --opens 600\n"
	"workload\t= oom-hog --mode memcg\n"
	"metrics = oom_kills\n";

static void without_drops_exactly_the_keys(void **state)
{
	(void)state;
	static const char *const keys[] = { "workload", "baseline", NULL };
	char *with_note = xasprintf("%sworkloads_note = not a key of its own\n", file_text);
	char *text = experiment_text_without(with_note, keys);
	free(with_note);
	assert_null(strstr(text, "binder-mmap"));
	assert_null(strstr(text, "oom-hog"));
	assert_null(strstr(text, "baseline ="));
	/* a key that only starts like one stays */
	assert_non_null(strstr(text, "workloads_note = not a key of its own\n"));
	assert_non_null(strstr(text, "variants = stock binder-kcalloc\n"));
	assert_non_null(strstr(text, "metrics = oom_kills\n"));
	free(text);
}

static struct experiment parsed(const char *text)
{
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	if (experiment_parse_at(&e, "t", "test", "/", text, &err) < 0)
		fail_msg("%s\n%s", err.buf, text);
	strbuf_release(&err);
	return e;
}

/* With -x: the options' variants, baseline and lines in place of the file's, the rest kept. */
static void asked_replaces_what_the_options_give(void **state)
{
	(void)state;
	struct experiment_asked a = { STRLIST_INIT, "mine", STRLIST_INIT, STRLIST_INIT };
	strlist_push(&a.variants, "mine");
	strlist_push(&a.variants, "stock");
	strlist_push(&a.workloads, "spawn --time 2s");
	char *text = experiment_text_asked(file_text, &a);
	struct experiment e = parsed(text);
	assert_int_equal(e.variants.n, 2);
	assert_string_equal(e.variants.items[0], "mine");
	assert_string_equal(e.baseline, "mine");
	assert_int_equal(e.workloads.n, 1);
	assert_string_equal(e.workloads.items[0], "spawn --time 2s");
	assert_string_equal(e.profile, "phone-512m");
	assert_string_equal(e.metrics.items[0], "oom_kills");
	experiment_clear(&e);
	free(text);
	/* other variants without a baseline: the file's baseline goes with its variants */
	a.baseline = NULL;
	text = experiment_text_asked(file_text, &a);
	e = parsed(text);
	assert_string_equal(e.baseline, "mine");
	experiment_clear(&e);
	free(text);
	/* nothing asked of a key: the file's stays */
	struct experiment_asked none = { STRLIST_INIT, NULL, STRLIST_INIT, STRLIST_INIT };
	text = experiment_text_asked(file_text, &none);
	e = parsed(text);
	assert_int_equal(e.workloads.n, 2);
	assert_string_equal(e.baseline, "stock");
	experiment_clear(&e);
	free(text);
	strlist_clear(&a.variants);
	strlist_clear(&a.workloads);
}

/* Without -x: until decided, at most GIVEN_MAX_TRIALS, each line's own metrics the headline. */
static void given_is_a_whole_experiment(void **state)
{
	(void)state;
	struct experiment_asked a = { STRLIST_INIT, "stock", STRLIST_INIT, STRLIST_INIT };
	strlist_push(&a.variants, "stock");
	strlist_push(&a.variants, "mine");
	strlist_push(&a.workloads, "taskset 1 alloc-until-oom 8");
	strlist_push(&a.workloads, "oom-hog --mode memcg");
	strlist_push(&a.workloads, "oomlab-workload oom-hog --mode global");
	strlist_push(&a.files, "/tmp");
	char *text = experiment_text_given(&a, "tiny-256m");
	struct experiment e = parsed(text);
	assert_true(e.until_decided);
	assert_int_equal(e.max_trials, GIVEN_MAX_TRIALS);
	assert_string_equal(e.profile, "tiny-256m");
	assert_string_equal(e.baseline, "stock");
	assert_int_equal(e.variants.n, 2);
	assert_int_equal(e.workloads.n, 3);
	assert_int_equal(e.files.n, 1);
	static const char *const headline[] = { "trial_ok", "oom_kills", "alloc-until-oom.*", "oom-hog.*" };
	assert_int_equal(e.metrics.n, 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(e.metrics.items[i], headline[i]);
	assert_non_null(strstr(e.description, "mine against stock"));
	experiment_clear(&e);
	free(text);
	strlist_clear(&a.variants);
	strlist_clear(&a.workloads);
	strlist_clear(&a.files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_drops_exactly_the_keys),
		cmocka_unit_test(asked_replaces_what_the_options_give),
		cmocka_unit_test(given_is_a_whole_experiment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
