/* test-design-check.c - unit tests for lab/run/design-check.c: a design that
 * cannot decide any row says so, with the smallest one that could. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lab/run/design-check.h"
#include "lab/run/experiment.h"

/* WHY for the experiment HEAD plus TAIL; NULL when the design can decide. */
static char *check(const char *tail)
{
	static const char head[] = "description = d\nvariants = stock binder-kcalloc\nprofile = p\n"
				   "workload = spawn\n";
	char *text = xasprintf("%s%s", head, tail);
	struct experiment e;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct strlist labels = STRLIST_INIT;
	int rc;

	assert_int_equal(experiment_parse(&e, "t", "t.conf", text, &err), 0);
	experiment_groups(&e, &labels);
	rc = design_check(&e, &labels, &why);
	assert_int_equal(rc, why.len > 0);
	assert_null(strchr(why.buf ? why.buf : "", '\n'));
	strlist_clear(&labels);
	experiment_clear(&e);
	free(text);
	strbuf_release(&err);
	return rc ? strbuf_detach(&why) : (strbuf_release(&why), NULL);
}

static void expect(const char *tail, const char *want)
{
	char *why = check(tail);

	if (!want) {
		if (why)
			fail_msg("expected no warning, got '%s'", why);
		return;
	}
	if (!why || strcmp(why, want))
		fail_msg("got '%s', expected '%s'", why ? why : "(none)", want);
	free(why);
}

static void designs(void **state)
{
	(void)state;
	expect("trials = 3\nmetrics = trial_ok oom_kills binder-mmap.mmap_ok a b\n",
	       "this design cannot decide any row better, worse or differs: 3 trials a side give "
	       "p >= 0.1, the first Holm level over 5 rows is 0.01; the smallest design that "
	       "could: --trials 5");
	expect("trials = 6\nmetrics = trial_ok oom_kills binder-mmap.mmap_ok a b\n", NULL);
	expect("trials = 4\nmetrics = oom_kills\n", NULL);
	/* a glob may stand for more metrics: at least */
	expect("trials = 3\nmetrics = binder-sendvec.*\naa = yes\n",
	       "this design cannot decide any row better, worse or differs: 3 trials a side give "
	       "p >= 0.1, the first Holm level over at least 1 row is 0.05; the smallest design "
	       "that could: --trials 4");
	/* gatekeeping: the primary's own row is the first family */
	expect("trials = 3\nmetrics = oom_kills a b c d\nprimary = oom_kills\n",
	       "this design cannot decide any row better, worse or differs: 3 trials a side give "
	       "p >= 0.1, the first Holm level over 1 primary row is 0.05; the smallest design "
	       "that could: --trials 4");
	expect("trials = 4\nmetrics = oom_kills a b c d\nprimary = oom_kills\n", NULL);
	expect("trials = 1\nmetrics = oom_kills\n",
	       "this design cannot decide any row better, worse or differs: 1 trial a side tests "
	       "nothing (a test needs 3); the smallest design that could: --trials 4");
	/* sequential: the last look's boundary */
	expect("until_decided = yes\nmax_trials = 5\nmetrics = a b c d e f g h i j k l\n",
	       "this design cannot decide any row better, worse or differs: at most 5 trials a side "
	       "give p >= 0.0079, the first Holm level over 12 rows is 0.0038 at the last look; the "
	       "smallest design that could: --max-trials 6");
	expect("until_decided = yes\nmetrics = a b c d e f g h i j k l\n", NULL);
	/* parametric rows have no floor on p: 3 a side can decide, 12 rows or not */
	expect("trials = 3\nmetrics = binder-sendvec.sendvec_ns_per_rt.*\naa = yes\n"
	       "parametric = binder-sendvec.sendvec_ns_per_rt.*\n", NULL);
	expect("until_decided = yes\nmax_trials = 5\nmetrics = a b c d e f g h i j k l\n"
	       "parametric = a b c d e f g h i j k l\n", NULL);
	expect("trials = 2\nmetrics = spawn.spawn_per_s\nparametric = spawn.spawn_per_s\n",
	       "this design cannot decide any row better, worse or differs: 2 trials a side test "
	       "nothing (a test needs 3); the smallest design that could: --trials 3");
	/* a parametric glob that names a share counts no row: still Fisher's floor */
	expect("trials = 3\nmetrics = oom_kills spawn.spawn_per_s\nprimary = oom_kills\n"
	       "parametric = spawn.spawn_per_s\n",
	       "this design cannot decide any row better, worse or differs: 3 trials a side give "
	       "p >= 0.1, the first Holm level over 1 primary row is 0.05; the smallest design "
	       "that could: --trials 4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(designs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
