/* Unit tests: a first round that ended the same broken way everywhere stops a run; anything else does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/run/first-round.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-first-round.XXXXXX";

/* A trial folder NAME ending OUTCOME with STATUS, its workload lines LINES (a
 * JSON array, "" for none); OUT_LOG the command's output (NULL: none). */
static char *trial_lines(const char *name, const char *outcome, int status, const char *lines,
			 const char *out_log)
{
	char *dir = xasprintf("%s/%s", root, name);
	mkdir_p(dir, 0755);
	char *path = xasprintf("%s/trial.json", dir);
	char *json = xasprintf("{\"outcome\": {\"outcome\": \"%s\", \"exit_status\": %d, "
			       "\"detail\": \"the detail\\nsecond line\"}%s%s}", outcome, status,
			       *lines ? ", \"workload_lines\": " : "", lines);
	assert_int_equal(write_file_str(path, json), 0);
	free(path);
	free(json);
	if (out_log) {
		path = xasprintf("%s/out.log", dir);
		assert_int_equal(write_file_str(path, out_log), 0);
		free(path);
	}
	return dir;
}

static char *trial(const char *name, const char *outcome, int status, const char *out_log)
{
	return trial_lines(name, outcome, status, "", out_log);
}

/* trial.json's record of workload line N (workload W) that ENDED with STATUS and SIG. */
static char *line(int n, const char *w, bool ended, int status, int sig, const char *text)
{
	char *t = text ? xasprintf("\"%s\"", text) : xstrdup("null");
	char *l = ended ? xasprintf("{\"line\": %d, \"workload\": \"%s\", \"ended\": true, "
				    "\"exit_status\": %d, \"signal\": %d, \"first_text\": %s}",
				    n, w, status, sig, t)
			: xasprintf("{\"line\": %d, \"workload\": \"%s\", \"ended\": false, "
				    "\"exit_status\": null, \"signal\": null, \"first_text\": %s}", n, w, t);
	free(t);
	return l;
}

/* LINES as a JSON array; frees them. */
static char *lines2(char *a, char *b)
{
	char *j = b ? xasprintf("[%s, %s]", a, b) : xasprintf("[%s]", a);
	free(a);
	free(b);
	return j;
}

/* Whether the first round of A (and B) stops the run; a round that goes on says nothing. */
static bool broken(const char *a, const char *b, struct strbuf *why)
{
	const char *dirs[] = { a, b };
	strbuf_reset(why);
	bool stops = first_round_broken(dirs, b ? 2 : 1, why);
	if (!stops)
		assert_int_equal(why->len, 0);
	return stops;
}

static void the_same_broken_ending_stops(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	char *a = trial("a", "failed", 127, "{\"type\":\"metric\"}\nsh: nosuch: not found\n{\"x\":1}\n");
	char *b = trial("b", "failed", 127, NULL);
	assert_true(broken(a, b, &why));
	char *want = xasprintf("every trial of the first round (2) ended 'failed' with exit status 127; "
			       "%s said: sh: nosuch: not found", a);
	assert_string_equal(why.buf, want);
	free(want);
	/* a boot that failed everywhere, or QEMUs killed from outside everywhere
	 * (the host will go on killing them): the detail's first line */
	char *fine = trial("fine", "ok", 0, NULL);
	/* (an old record's "killed" is read as "host-killed") */
	for (const char *const *outcome = (const char *const[]){ "boot-failure", "host-killed",
								 "killed", NULL };
	     *outcome; outcome++) {
		char *c = trial("c", *outcome, -1, NULL), *d = trial("d", *outcome, -1, NULL);
		char *ended = xasprintf("ended '%s'; ", strcmp(*outcome, "killed") ? *outcome
										   : "host-killed");
		assert_true(broken(c, d, &why));
		assert_non_null(strstr(why.buf, ended));
		assert_non_null(strstr(why.buf, ": the detail"));
		assert_null(strstr(why.buf, "second line"));
		assert_false(broken(c, fine, &why));
		free(ended);
		free(c);
		free(d);
	}
	/* one group, one trial */
	assert_true(broken(a, NULL, &why));
	free(fine);
	free(a);
	free(b);
	strbuf_release(&why);
}

static void anything_else_goes_on(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	char *ok = trial("ok", "ok", 0, NULL), *f2 = trial("f2", "failed", 2, NULL);
	char *f127 = trial("f127", "failed", 127, NULL), *p1 = trial("p1", "panic", 0, NULL);
	char *p2 = trial("p2", "panic", 0, NULL), *h1 = trial("h1", "hang", 0, NULL);
	char *h2 = trial("h2", "hang", 0, NULL), *bf = trial("bf", "boot-failure", 0, NULL);
	char *none = xasprintf("%s/never-finished", root);
	assert_false(broken(ok, f2, &why));
	assert_false(broken(f2, f127, &why));   /* failed, but differently */
	assert_false(broken(bf, f2, &why));
	assert_false(broken(p1, p2, &why));     /* panics and hangs are results */
	assert_false(broken(h1, h2, &why));
	assert_false(broken(f2, none, &why));   /* no record: no evidence */
	assert_false(broken(ok, NULL, &why));
	free(ok);
	free(f2);
	free(f127);
	free(p1);
	free(p2);
	free(h1);
	free(h2);
	free(bf);
	free(none);
	strbuf_release(&why);
}

/* One workload line that exited by itself with one status other than 0 in
 * every trial of the first round, whatever the trials' outcomes, stops the
 * run naming the line and what the first trial said; a line OOM-killed
 * everywhere, statuses that differ, or a line that ended well somewhere do
 * not. */
static void a_line_that_failed_alike_stops(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	char *bad = lines2(line(1, "binder-mmap", true, 0, 0, NULL),
			   line(2, "spawn", true, 1, 0, "taskset: bad affinity 'zz'"));
	char *a = trial_lines("la", "ok", 0, bad, NULL), *b = trial_lines("lb", "ok", 0, bad, NULL);
	assert_true(broken(a, b, &why));
	char *want = xasprintf("in every trial of the first round (2) workload line 2 (spawn) exited "
			       "with status 1; %s said: taskset: bad affinity 'zz'", a);
	assert_string_equal(why.buf, want);
	free(want);
	/* the other groups' trials may end otherwise, as long as the line failed alike */
	char *off = lines2(line(2, "spawn", true, 1, 0, NULL), NULL);
	char *c = trial_lines("lc", "off-target", 0, off, NULL);
	assert_true(broken(c, a, &why));
	assert_null(strstr(why.buf, " said: "));
	assert_non_null(strstr(why.buf, ": it wrote no text"));

	char *killed = lines2(line(1, "repro", true, 137, 9, NULL), NULL);
	char *k1 = trial_lines("k1", "ok", 0, killed, NULL), *k2 = trial_lines("k2", "ok", 0, killed, NULL);
	assert_false(broken(k1, k2, &why));         /* an OOM kill is a result */
	char *s2 = lines2(line(2, "spawn", true, 2, 0, "usage"), NULL);
	char *d = trial_lines("ld", "ok", 0, s2, NULL);
	assert_false(broken(a, d, &why));           /* status 1 here, 2 there */
	char *good = lines2(line(2, "spawn", true, 0, 0, NULL), NULL);
	char *e = trial_lines("le", "ok", 0, good, NULL);
	assert_false(broken(a, e, &why));           /* it ran somewhere */
	char *unended = lines2(line(2, "spawn", false, 0, 0, NULL), NULL);
	char *f = trial_lines("lf", "panic", 0, unended, NULL);
	assert_false(broken(a, f, &why));           /* the guest died inside it there */
	char *g = trial("lg", "ok", 0, NULL);
	assert_false(broken(a, g, &why));           /* no workload lines recorded there */
	for (char **p = (char *[]){ bad, a, b, off, c, killed, k1, k2, s2, d, good, e, unended, f,
				    g, NULL }; *p; p++)
		free(*p);
	strbuf_release(&why);
}

/* A selftest line that failed alike: the reason quotes the line that
 * explains it (trial.json's explaining_text), not its first ("TAP version
 * 13"); a trial.json from before explaining_text quotes first_text. */
static void a_stopped_selftest_quotes_its_reason(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	const char *json = "[{\"line\": 1, \"workload\": \"selftest\", \"ended\": true, "
			   "\"exit_status\": 1, \"signal\": 0, \"first_text\": \"TAP version 13\", "
			   "\"explaining_text\": \"# Failed to open /proc/sys/vm/nr_hugepages\"}]";
	char *a = trial_lines("sa", "ok", 0, json, NULL), *b = trial_lines("sb", "ok", 0, json, NULL);
	assert_true(broken(a, b, &why));
	char *want = xasprintf("in every trial of the first round (2) workload line 1 (selftest) "
			       "exited with status 1; %s said: # Failed to open "
			       "/proc/sys/vm/nr_hugepages", a);
	assert_string_equal(why.buf, want);
	assert_null(strstr(why.buf, "TAP version"));
	free(want);
	char *old = lines2(line(1, "selftest", true, 1, 0, "TAP version 13"), NULL);
	char *c = trial_lines("sc", "ok", 0, old, NULL);
	assert_true(broken(c, NULL, &why));
	assert_non_null(strstr(why.buf, " said: TAP version 13"));
	free(old);
	free(a);
	free(b);
	free(c);
	strbuf_release(&why);
}

SCRATCH_ROOT_FIXTURES(root)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_same_broken_ending_stops),
		cmocka_unit_test(anything_else_goes_on),
		cmocka_unit_test(a_line_that_failed_alike_stops),
		cmocka_unit_test(a_stopped_selftest_quotes_its_reason),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
