/* Unit tests: experiments are parsed strictly; the run order interleaves and shards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/run/experiment.h"
#include "lab/run/run-order.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-experiment-XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static const char good[] =
	"# comment\n"
	"description = a test\n"
	"variants = stock binder-kcalloc\n"
	"aa = yes\n"
	"profile = phone-512m\n"
	"trials = 4\n"
	"trial_timeout = 120\n"
	"prepare = fragment --target-order 3\n"
	"workload = binder-mmap --opens 300 # not a comment\n"
	"workload = binder-sendvec\n"
	"perf_events = oom:mark_victim; kmem:mm_page_alloc if order > 0\n"
	"metrics = oom_kills, binder-mmap.*\n";

static void parses_every_key(void **state)
{
	(void)state;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "t", "t.conf", good, &err), 0);
	assert_string_equal(e.description, "a test");
	assert_int_equal(e.variants.n, 2);
	assert_string_equal(e.baseline, "stock");
	assert_true(e.aa);
	assert_int_equal(e.trials, 4);
	assert_true(e.trial_timeout == 120.0);
	assert_string_equal(e.prepare, "fragment --target-order 3");
	assert_int_equal(e.workloads.n, 2);
	assert_string_equal(e.workloads.items[0], "binder-mmap --opens 300 # not a comment");
	assert_int_equal(e.perf_events.n, 2);
	assert_string_equal(e.perf_events.items[1], "kmem:mm_page_alloc if order > 0");
	assert_int_equal(e.metrics.n, 2);
	assert_string_equal(e.metrics.items[1], "binder-mmap.*");
	struct strlist labels = STRLIST_INIT;
	experiment_groups(&e, &labels);
	assert_int_equal(labels.n, 3);
	assert_string_equal(labels.items[2], "stock#2");
	char *v = group_variant("stock#2");
	assert_string_equal(v, "stock");
	free(v);
	char *cmd = experiment_command(&e);
	assert_non_null(strstr(cmd, "run binder-mmap --opens 300 # not a comment\nrun binder-sendvec\nexit $rc\n"));
	assert_non_null(strstr(cmd, "case $s in 2|126|127) rc=$s ;; esac"));
	/* each line under the agent's line runner, numbered */
	assert_non_null(strstr(cmd, "\toomlab_line=$((oomlab_line + 1))\n"
				    "\t/init --run-line $oomlab_line \"$@\"\n\ts=$?\n"));
	free(cmd);
	strlist_clear(&labels);
	experiment_clear(&e);
}

static void expect_error(const char *text, const char *needle)
{
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), -1);
	if (!strstr(err.buf, needle))
		fail_msg("error '%s' lacks '%s'", err.buf, needle);
	assert_null(strchr(err.buf, '\n'));
	experiment_clear(&e);
	strbuf_release(&err);
}

static void bad_input_names_file_and_line(void **state)
{
	(void)state;
	const char *head = "description = d\nvariants = stock\nprofile = p\nworkload = spawn\n";
	char *t = xasprintf("%strials = many\n", head);
	expect_error(t, "t.conf:5: trials = many");
	free(t);
	t = xasprintf("%scolour = blue\n", head);
	expect_error(t, "t.conf:5: unknown key 'colour'");
	free(t);
	t = xasprintf("%sperf_events = mark_victim\n", head);
	expect_error(t, "t.conf:5");
	free(t);
	t = xasprintf("%sbaseline = other\n", head);
	expect_error(t, "baseline 'other' is not one of the variants");
	free(t);
	t = xasprintf("%sprofile = q\n", head);
	expect_error(t, "t.conf:5: profile is set twice");
	free(t);
	expect_error("description = d\nvariants = stock\nprofile = p\n", "at least one workload");
	expect_error("description = d\nvariants = a#2\nprofile = p\nworkload = w\n", "t.conf:2");
	expect_error("description = d\nvariants = stock\nprofile = p\nworkload = w\ntrials = 0\n", "t.conf:5");
	t = xasprintf("%sclock = virtual\n", head);
	expect_error(t, "t.conf:5: clock = virtual: clock wants realtime or icount");
	free(t);
	t = xasprintf("%sclock =\n", head);
	expect_error(t, "t.conf:5: clock has no value");
	free(t);
	t = xasprintf("%sclock = icount # the timing experiments\n", head);
	expect_error(t, "t.conf:5: clock = icount # the timing experiments");
	free(t);
}

/* primary = METRIC: one of the headline metrics (a glob there may match it), named by
 * file and line when it is not. */
static void primary_is_a_headline_metric(void **state)
{
	(void)state;
	const char *head = "description = d\nvariants = stock\nprofile = p\nworkload = spawn\n";
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	char *t = xasprintf("%sprimary = binder-mmap.mmap_ok\nmetrics = oom_kills binder-mmap.*\n", head);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", t, &err), 0);
	assert_string_equal(e.primary, "binder-mmap.mmap_ok");
	experiment_clear(&e);
	free(t);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", head, &err), 0);
	assert_null(e.primary);
	experiment_clear(&e);
	t = xasprintf("%smetrics = oom_kills trial_ok\nprimary = spawn.spawn_per_s\n", head);
	expect_error(t, "t.conf:6: primary = spawn.spawn_per_s: not one of the metrics");
	free(t);
	t = xasprintf("%sprimary = oom_kills\n", head);
	expect_error(t, "t.conf:5: primary = oom_kills: not one of the metrics");
	free(t);
	t = xasprintf("%smetrics = oom_kills\nprimary = oom_*\n", head);
	expect_error(t, "t.conf:6: primary = oom_*: primary wants one metric name");
	free(t);
	strbuf_release(&err);
}

/* parametric = GLOB...: each glob matches a headline glob as text or is
 * matched by one, and names no share; else file:line. */
static void parametric_names_headline_metrics(void **state)
{
	(void)state;
	const char *head = "description = d\nvariants = stock\nprofile = p\nworkload = spawn\n"
			   "metrics = binder-sendvec.sendvec_ns_per_rt.* spawn.spawn_per_s oom_kills\n";
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	char *t = xasprintf("%sparametric = binder-sendvec.sendvec_ns_per_rt.*\n", head);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", t, &err), 0);
	assert_int_equal(e.parametric.n, 1);
	assert_int_equal(experiment_parametric_metrics(&e), 1);
	json_t *j = experiment_parametric_json(&e);
	assert_string_equal(json_string_value(json_array_get(j, 0)), "binder-sendvec.sendvec_ns_per_rt.*");
	json_decref(j);
	experiment_clear(&e);
	free(t);
	/* narrower than a headline glob, and a headline name itself */
	t = xasprintf("%sparametric = binder-sendvec.sendvec_ns_per_rt.size=4 spawn.spawn_per_s\n", head);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", t, &err), 0);
	assert_int_equal(e.parametric.n, 2);
	assert_int_equal(experiment_parametric_metrics(&e), 1);	/* spawn's; size=4 is one of the glob's */
	experiment_clear(&e);
	free(t);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", head, &err), 0);
	assert_int_equal(e.parametric.n, 0);
	assert_int_equal(experiment_parametric_metrics(&e), 0);
	experiment_clear(&e);
	t = xasprintf("%sparametric = binder-sendvec.sendvec_ns_per_rt.* binder-mmap.mmap_ns\n", head);
	expect_error(t, "t.conf:6: parametric = binder-mmap.mmap_ns: matches none of the metrics");
	free(t);
	/* two globs that share a name: neither contains the other as text */
	t = xasprintf("%sparametric = binder-sendvec.*_ns_per_rt.size=4*\n", head);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", t, &err), 0);
	assert_int_equal(e.parametric.n, 1);
	experiment_clear(&e);
	free(t);
	t = xasprintf("%sparametric = oom_kills\n", head);
	expect_error(t, "t.conf:6: parametric = oom_kills: is a share");
	free(t);
	t = xasprintf("%sparametric =\n", head);
	expect_error(t, "t.conf:6:");
	free(t);
	strbuf_release(&err);
}

/* arch and page_size: arm64 has 16k; a page size the arch lacks names the line, before anything boots. */
static void arch_and_page_size(void **state)
{
	(void)state;
	const char *head = "description = d\nvariants = stock\nprofile = p\nworkload = spawn\n";
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "t", "t.conf", head, &err), 0);
	assert_true(platform_is_default(&e.platform));
	experiment_clear(&e);
	char *t = xasprintf("%sarch = arm64\npage_size = 16k\n", head);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", t, &err), 0);
	assert_int_equal(e.platform.arch, ARCH_ARM64);
	assert_int_equal(e.platform.page_kib, 16);
	experiment_clear(&e);
	free(t);
	t = xasprintf("%spage_size = 16k\n", head);
	expect_error(t, "t.conf:5: page size 16k is not supported on x86_64 (it has 4k)");
	free(t);
	t = xasprintf("%spage_size = 16k\narch = x86_64\n", head);
	expect_error(t, "t.conf:6: page size 16k is not supported on x86_64 (it has 4k)");
	free(t);
	t = xasprintf("%sarch = sparc\n", head);
	expect_error(t, "t.conf:5: arch = sparc: arch wants x86_64 or arm64");
	free(t);
	t = xasprintf("%sarch = arm64\npage_size = 8k\n", head);
	expect_error(t, "t.conf:6: page_size = 8k: page_size wants 4k, 16k or 64k");
	free(t);
}

static void clock_is_given_only_when_the_file_says(void **state)
{
	(void)state;
	const char *head = "description = d\nvariants = stock\nprofile = p\nworkload = spawn\n";
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "t", "t.conf", head, &err), 0);
	assert_false(e.clock_given);
	/* unset, the profile's clock applies; the experiment's wins when set */
	struct clock_choice none = { 0 }, icount_profile = { GUEST_CLOCK_ICOUNT, "p.conf" };
	struct clock_choice c = guest_clock_choose(none, (struct clock_choice){ e.clock, NULL },
						   icount_profile);
	assert_int_equal(c.clock, GUEST_CLOCK_ICOUNT);
	assert_string_equal(c.from, "p.conf");
	experiment_clear(&e);
	char *t = xasprintf("%sclock = realtime\n", head);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", t, &err), 0);
	free(t);
	assert_true(e.clock_given);
	assert_int_equal(e.clock, GUEST_CLOCK_REALTIME);
	c = guest_clock_choose(none, (struct clock_choice){ e.clock, "t.conf" }, icount_profile);
	assert_int_equal(c.clock, GUEST_CLOCK_REALTIME);
	assert_string_equal(c.from, "t.conf");
	/* an option wins over both */
	c = guest_clock_choose((struct clock_choice){ GUEST_CLOCK_ICOUNT, "--clock" },
			       (struct clock_choice){ e.clock, "t.conf" }, icount_profile);
	assert_int_equal(c.clock, GUEST_CLOCK_ICOUNT);
	assert_string_equal(c.from, "--clock");
	/* nothing given: realtime */
	c = guest_clock_choose(none, none, none);
	assert_int_equal(c.clock, GUEST_CLOCK_REALTIME);
	assert_string_equal(c.from, "default");
	experiment_clear(&e);
}

/* debug = yes: every variant's debug companion is a group of its own,
 * after the variants and before the A/A twin; the baseline stays plain. */
static void debug_companions(void **state)
{
	(void)state;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	const char *text = "description = d\nvariants = stock binder-kcalloc\nprofile = p\n"
			   "workload = spawn\naa = yes\ndebug = yes\n";
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), 0);
	assert_true(e.debug);
	struct strlist labels = STRLIST_INIT;
	experiment_groups(&e, &labels);
	assert_int_equal(labels.n, 5);
	assert_string_equal(labels.items[0], "stock");
	assert_string_equal(labels.items[1], "binder-kcalloc");
	assert_string_equal(labels.items[2], "stock+debug");
	assert_string_equal(labels.items[3], "binder-kcalloc+debug");
	assert_string_equal(labels.items[4], "stock#2");
	char *v = group_variant("binder-kcalloc+debug");
	assert_string_equal(v, "binder-kcalloc+debug");
	free(v);
	assert_string_equal(e.baseline, "stock");
	strlist_clear(&labels);
	experiment_clear(&e);
	expect_error("description = d\nvariants = stock\nprofile = p\nworkload = w\ndebug = maybe\n",
		     "t.conf:5: debug = maybe: debug wants yes or no");
}

/* Margins: the default last whatever the order, globs may hold '=' (the
 * sendVec sizes), and a value that is not a margin names file and line. */
static void equivalence_margins(void **state)
{
	(void)state;
	static const char text[] =
		"description = d\nvariants = stock x\nprofile = p\nworkload = w\n"
		"equivalence = 3%\n"
		"equivalence.binder-sendvec.sendvec_ns_per_rt.size=4 = 1%\n"
		"equivalence.oom_kills = 0.5\n"
		"equivalence.trial_ok = 10pp\n";
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), 0);
	assert_int_equal(e.margins.n, 4);
	assert_string_equal(e.margin_globs.items[0], "binder-sendvec.sendvec_ns_per_rt.size=4");
	assert_string_equal(e.margins.items[0], "1%");
	assert_string_equal(e.margin_globs.items[1], "oom_kills");
	assert_string_equal(e.margins.items[2], "10pp");
	assert_string_equal(e.margin_globs.items[3], "*");
	assert_string_equal(e.margins.items[3], "3%");
	experiment_clear(&e);
	expect_error("description = d\nvariants = stock\nprofile = p\nworkload = w\n"
		     "equivalence = two percent\n", "t.conf:5: equivalence = two percent: equivalence wants a margin");
	expect_error("description = d\nvariants = stock\nprofile = p\nworkload = w\n"
		     "equivalence.spawn.spawn_per_s = 5ms\n", "t.conf:5");
	expect_error("description = d\nvariants = stock\nprofile = p\nworkload = w\n"
		     "equivalence. = 5%\n", "t.conf:5");
	strbuf_release(&err);
}

/* until_decided and max_trials: values checked with file and line, the
 * default cap, and max_trials alone refused. */
static void sequential_keys(void **state)
{
	(void)state;
	static const char base[] = "description = d\nvariants = stock x\nprofile = p\nworkload = w\n";
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	char *text = xasprintf("%suntil_decided = yes\n", base);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), 0);
	assert_true(e.until_decided);
	assert_int_equal(e.max_trials, DEFAULT_MAX_TRIALS);
	experiment_clear(&e);
	free(text);
	text = xasprintf("%suntil_decided = yes\nmax_trials = 12\n", base);
	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), 0);
	assert_int_equal(e.max_trials, 12);
	experiment_clear(&e);
	free(text);
	text = xasprintf("%suntil_decided = maybe\n", base);
	expect_error(text, "t.conf:5: until_decided = maybe: until_decided wants yes or no");
	free(text);
	text = xasprintf("%suntil_decided = yes\nmax_trials = 3\n", base);
	expect_error(text, "t.conf:6: max_trials = 3");
	free(text);
	text = xasprintf("%suntil_decided = yes\nmax_trials = lots\n", base);
	expect_error(text, "t.conf:6");
	free(text);
	text = xasprintf("%smax_trials = 10\n", base);
	expect_error(text, "max_trials goes with until_decided = yes");
	free(text);
	strbuf_release(&err);
}

static void shipped_experiments_load(void **state)
{
	(void)state;
	setenv("OOMLAB_ROOT", ".", 1);
	struct strlist names = STRLIST_INIT;
	experiment_names(&names);
	assert_true(strlist_has(&names, "quick"));
	for (size_t i = 0; i < names.n; i++) {
		struct experiment e;
		struct strbuf err = STRBUF_INIT;
		if (experiment_load(&e, names.items[i], &err) < 0)
			fail_msg("%s", err.buf);
		experiment_clear(&e);
	}
	strlist_clear(&names);
}

static void order_interleaves_every_round(void **state)
{
	(void)state;
	struct strlist labels = STRLIST_INIT;
	strlist_push(&labels, "a");
	strlist_push(&labels, "b");
	strlist_push(&labels, "c");
	struct run_slot *slots;
	size_t n;
	run_order_make(&labels, 5, 42, &slots, &n);
	assert_int_equal(n, 15);
	for (unsigned round = 0; round < 5; round++) {
		int seen[3] = { 0, 0, 0 };
		for (size_t i = round * 3; i < round * 3 + 3; i++) {
			assert_int_equal(slots[i].index, round);
			seen[slots[i].label[0] - 'a']++;
		}
		assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
	}
	/* Same seed, same order; another seed, another order (over 5 rounds of 3! orders). */
	struct run_slot *again, *other;
	size_t n2, n3;
	run_order_make(&labels, 5, 42, &again, &n2);
	run_order_make(&labels, 5, 43, &other, &n3);
	bool differs = false;
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(slots[i].label, again[i].label);
		differs |= strcmp(slots[i].label, other[i].label) != 0;
	}
	assert_true(differs);
	run_order_free(slots, n);
	run_order_free(again, n2);
	run_order_free(other, n3);
	strlist_clear(&labels);
}

static void shards_cover_everything_once(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 4; n++) {
		for (size_t pos = 0; pos < 17; pos++) {
			int owners = 0;
			for (unsigned k = 1; k <= n; k++)
				owners += run_slot_in_shard(pos, k, n);
			assert_int_equal(owners, 1);
		}
	}
	unsigned k, n;
	assert_int_equal(parse_shard("2/3", &k, &n), 0);
	assert_int_equal(k, 2);
	assert_int_equal(n, 3);
	assert_int_equal(parse_shard("4/3", &k, &n), -1);
	assert_int_equal(parse_shard("0/3", &k, &n), -1);
	assert_int_equal(parse_shard("1/3x", &k, &n), -1);
	assert_int_equal(parse_shard("13", &k, &n), -1);
}

/* files = DIR: relative to the experiment file's folder, absolute as given,
 * may repeat; a folder that is not there, or given twice, names file and line. */
static void files_are_folders_beside_the_experiment(void **state)
{
	(void)state;
	scratch_put(root, "exps/repro/prog.sh", "#!/bin/sh\n");
	scratch_put(root, "exps/more/x", "");
	scratch_put(root, "elsewhere/y", "");
	scratch_put(root, "exps/a-file", "");
	const char *head = "description = d\nvariants = stock\nprofile = p\nworkload = prog.sh\n";
	char *file = xasprintf("%s/exps/e.conf", root);
	char *elsewhere = xasprintf("%s/elsewhere", root);
	char *t = xasprintf("%sfiles = repro\nfiles = ./more/\nfiles = %s\n", head, elsewhere);
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "e", file, t, &err), 0);
	assert_int_equal(e.files.n, 3);
	char *repro = xasprintf("%s/exps/repro", root), *more = xasprintf("%s/exps/more", root);
	assert_string_equal(e.files.items[0], repro);
	assert_string_equal(e.files.items[1], more);
	assert_string_equal(e.files.items[2], elsewhere);
	assert_int_equal(e.files_lines[0], 5);
	assert_int_equal(e.files_lines[2], 7);
	experiment_clear(&e);
	free(t);

	/* --resume: the same text, relative to the folder the run started from */
	t = xasprintf("%sfiles = repro\n", head);
	char *base = xasprintf("%s/exps", root);
	assert_int_equal(experiment_parse_at(&e, "e", "run.json", base, t, &err), 0);
	assert_string_equal(e.files.items[0], repro);
	experiment_clear(&e);
	assert_int_equal(experiment_parse_at(&e, "e", "run.json", root, t, &err), -1);
	assert_non_null(strstr(err.buf, "run.json:5: files = repro: files wants a folder: "));
	strbuf_reset(&err);
	experiment_clear(&e);
	free(t);

	/* none: no folders */
	assert_int_equal(experiment_parse(&e, "e", file, head, &err), 0);
	assert_int_equal(e.files.n, 0);
	experiment_clear(&e);

	t = xasprintf("%sfiles = missing\n", head);
	assert_int_equal(experiment_parse(&e, "e", file, t, &err), -1);
	char *want = xasprintf("%s:5: files = missing: files wants a folder: %s/exps/missing does not "
			       "exist (relative to the experiment file's folder)", file, root);
	assert_string_equal(err.buf, want);
	free(want);
	strbuf_reset(&err);
	experiment_clear(&e);
	free(t);
	t = xasprintf("%sfiles = a-file\n", head);
	assert_int_equal(experiment_parse(&e, "e", file, t, &err), -1);
	assert_non_null(strstr(err.buf, ":5: files = a-file: files wants a folder: "));
	assert_non_null(strstr(err.buf, "/exps/a-file is not a folder"));
	strbuf_reset(&err);
	experiment_clear(&e);
	free(t);
	t = xasprintf("%sfiles = repro\nfiles = ../exps/repro\n", head);
	assert_int_equal(experiment_parse(&e, "e", file, t, &err), -1);
	want = xasprintf("%s:6: files = ../exps/repro: files names %s a second time", file, repro);
	assert_string_equal(err.buf, want);
	free(want);
	experiment_clear(&e);
	free(t);
	free(base);
	free(repro);
	free(more);
	free(elsewhere);
	free(file);
	strbuf_release(&err);
}

int main(void)
{
	/* the tester's own ~/.config/oomlab stays out of these tests */
	setenv("XDG_CONFIG_HOME", "/nonexistent-oomlab-test", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_every_key),
		cmocka_unit_test(bad_input_names_file_and_line),
		cmocka_unit_test(debug_companions),
		cmocka_unit_test(arch_and_page_size),
		cmocka_unit_test(clock_is_given_only_when_the_file_says),
		cmocka_unit_test(equivalence_margins),
		cmocka_unit_test(sequential_keys),
		cmocka_unit_test(primary_is_a_headline_metric),
		cmocka_unit_test(parametric_names_headline_metrics),
		cmocka_unit_test(shipped_experiments_load),
		cmocka_unit_test(files_are_folders_beside_the_experiment),
		cmocka_unit_test(order_interleaves_every_round),
		cmocka_unit_test(shards_cover_everything_once),
	};
	return cmocka_run_group_tests_name("experiment", tests, setup, teardown);
}
