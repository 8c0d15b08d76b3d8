/* Unit tests: the table of experiment keys (lab/run/experiment-keys.c) is what
 * the parser takes: each default a file may write gives the experiment a
 * file without the key gives, each range is what the setter takes, every
 * listed key parses in a file, and a mistyped key is offered the nearest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/run/experiment.h"
#include "tests/unit/lab/keys/key-checks.h"

/* The required keys, a line each; a file of a test leaves out the one it sets. */
static const char *const required[][2] = {
	{ "description", "x" },
	{ "variants", "a b" },
	{ "profile", "p" },
	{ "workload", "w" },
};

/* What a key needs beside it, for the whole-file checks. */
static const char *needs(const char *key)
{
	if (!strcmp(key, "max_trials"))
		return "until_decided = yes\n";
	if (!strcmp(key, "target_max_free_blocks"))
		return "prepare = fragment\n";
	if (!strcmp(key, "primary") || !strcmp(key, "parametric"))
		return "metrics = oom_kills x_ms\n";
	return "";
}

/* A file: KEY = VALUE (KEY NULL: none), what it needs, the required keys. */
static char *file_with(const char *key, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	if (key)
		strbuf_addf(&sb, "%s = %s\n%s", key, value, needs(key));
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!key || strcmp(key, required[i][0]))
			strbuf_addf(&sb, "%s = %s\n", required[i][0], required[i][1]);
	return strbuf_detach(&sb);
}

static void add_list(struct strbuf *sb, const char *name, const struct strlist *l)
{
	strbuf_addf(sb, "%s=", name);
	for (size_t i = 0; i < l->n; i++)
		strbuf_addf(sb, "%s%s", i ? "," : "", l->items[i]);
	strbuf_addstr(sb, "\n");
}

/* Every setting a key can make, one a line: two experiments with the same text are set alike. */
static char *settings(const struct experiment *e)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "description=%s\nbaseline=%s\naa=%d\ndebug=%d\nprofile=%s\n", e->description,
		    e->baseline, e->aa, e->debug, e->profile);
	add_list(&sb, "variants", &e->variants);
	strbuf_addf(&sb, "trials=%u\nuntil_decided=%d\nmax_trials=%u\njobs=%u\ntrial_timeout=%g\n",
		    e->trials, e->until_decided, e->max_trials, e->jobs, e->trial_timeout);
	strbuf_addf(&sb, "prepare=%s\nhas_target=%d\ntarget_order=%d\ntarget_max_free_blocks=%ld\n",
		    e->prepare ? e->prepare : "(null)", e->has_target, e->target_order,
		    e->target_max_free_blocks);
	add_list(&sb, "workloads", &e->workloads);
	add_list(&sb, "files", &e->files);
	add_list(&sb, "perf_events", &e->perf_events);
	add_list(&sb, "metrics", &e->metrics);
	strbuf_addf(&sb, "primary=%s\n", e->primary ? e->primary : "(null)");
	add_list(&sb, "parametric", &e->parametric);
	add_list(&sb, "margin_globs", &e->margin_globs);
	add_list(&sb, "margins", &e->margins);
	strbuf_addf(&sb, "arch=%d\npage_kib=%u\nclock=%d\nclock_given=%d\n", (int)e->platform.arch,
		    e->platform.page_kib, (int)e->clock, e->clock_given);
	for (int c = 0; c < FAULT_CAPABILITY_COUNT; c++)
		strbuf_addf(&sb, "fault%d=%d\n", c, e->faults.cap[c].armed);
	return strbuf_detach(&sb);
}

/* TEXT's settings; fails the test when TEXT does not parse. */
static char *parsed_settings(const char *text)
{
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	if (experiment_parse(&e, "t", "t.conf", text, &err) < 0)
		fail_msg("%s: %s", text, err.buf);
	char *out = settings(&e);
	experiment_clear(&e);
	strbuf_release(&err);
	return out;
}

static void each_default_is_what_no_key_gives(void **state)
{
	(void)state;
	size_t n, compared = 0;
	struct key_info *keys = key_table_list(&experiment_keys, &n);
	char *without = file_with(NULL, NULL);
	char *a = parsed_settings(without);
	for (size_t i = 0; i < n; i++) {
		if (keys[i].fallback[0] == '(')
			continue;   /* a description: what holds without the key */
		char *with = file_with(keys[i].name, keys[i].fallback);
		char *b = parsed_settings(with);
		expect_same_settings(keys[i].name, keys[i].fallback, b, a);
		compared++;
		free(b), free(with);
	}
	/* aa, debug, trials, until_decided, trial_timeout, prepare, target_order,
	 * perf_events, arch, page_size */
	assert_true(compared >= 10);
	free(a), free(without), free(keys);
}

static void each_range_is_what_the_setter_takes(void **state)
{
	(void)state;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	char *text = file_with(NULL, NULL);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), 0);
	struct ranges_tried tried = check_ranges(&experiment_keys, &e);
	/* trials, until_decided's max_trials, jobs, trial_timeout, target_order, target_max_free_blocks */
	assert_true(tried.numbers >= 6);
	/* aa, debug, until_decided, perf_events, arch, page_size, clock */
	assert_true(tried.words >= 7);
	experiment_clear(&e);
	free(text);
}

/* Values for the keys whose row names none (key-checks.h's key_example). */
static const char *const examples[][2] = {
	{ "description", "a question" },
	{ "variants", "stock binder-kcalloc" },
	{ "baseline", "b" },
	{ "profile", "phone-512m" },
	{ "workload", "binder-mmap --opens 600" },
	{ "fail_page_alloc", "probability 5" },
	{ "failslab", "probability 5, times 3" },
	{ "files", "/" },
	{ "metrics", "oom_kills binder_*" },
	{ "primary", "oom_kills" },
	{ "parametric", "x_ms" },
	{ "equivalence", "2%" },
	{ "equivalence.GLOB", "0.5" },
};

static void every_listed_key_is_taken_in_a_file(void **state)
{
	(void)state;
	size_t n;
	struct key_info *keys = key_table_list(&experiment_keys, &n);
	for (size_t i = 0; i < n; i++) {
		const char *key = keys[i].name;
		char buf[32];
		const char *v = key_example(&keys[i], examples, sizeof(examples) / sizeof(examples[0]), buf,
					    sizeof(buf));
		char *text = file_with(key, v);
		struct experiment e;
		struct strbuf err = STRBUF_INIT;
		if (experiment_parse(&e, "t", "t.conf", text, &err) < 0)
			fail_msg("%s is listed, but a file with it does not parse: %s", key, err.buf);
		experiment_clear(&e);
		strbuf_release(&err);
		free(text);
	}
	free(keys);
}

static void expect_suggestion(const char *typed, const char *suggestion)
{
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	char *text = file_with(typed, "1");
	char *want = xasprintf("t.conf:1: unknown key '%s' (did you mean %s?)", typed, suggestion);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), -1);
	assert_string_equal(err.buf, want);
	experiment_clear(&e);
	strbuf_release(&err);
	free(want);
	free(text);
}

static void a_mistyped_key_is_offered_the_nearest(void **state)
{
	(void)state;
	expect_suggestion("trails", "'trials'");
	expect_suggestion("workloads", "'workload'");
	expect_suggestion("perf_event", "'perf_events'");
	expect_suggestion("trial_timout", "'trial_timeout'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_default_is_what_no_key_gives),
		cmocka_unit_test(each_range_is_what_the_setter_takes),
		cmocka_unit_test(every_listed_key_is_taken_in_a_file),
		cmocka_unit_test(a_mistyped_key_is_offered_the_nearest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
