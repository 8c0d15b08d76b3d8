/* Unit tests: a first round that ended the same broken way everywhere stops a run; anything else does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/first-round.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-first-round.XXXXXX";

/* A trial folder NAME ending OUTCOME with STATUS; OUT_LOG the command's output (NULL: none). */
static char *trial(const char *name, const char *outcome, int status, const char *out_log)
{
	char *dir = xasprintf("%s/%s", root, name);
	mkdir_p(dir, 0755);
	char *path = xasprintf("%s/trial.json", dir);
	char *json = xasprintf("{\"outcome\": {\"outcome\": \"%s\", \"exit_status\": %d, "
			       "\"detail\": \"the detail\\nsecond line\"}}", outcome, status);
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

static bool broken(const char *a, const char *b, struct strbuf *why)
{
	const char *dirs[] = { a, b };
	strbuf_reset(why);
	return first_round_broken(dirs, b ? 2 : 1, why);
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
	char *c = trial("c", "boot-failure", 0, NULL), *d = trial("d", "boot-failure", 0, NULL);
	assert_true(broken(c, d, &why));
	assert_non_null(strstr(why.buf, "ended 'boot-failure'; "));
	assert_non_null(strstr(why.buf, ": the detail"));
	assert_null(strstr(why.buf, "second line"));
	/* one group, one trial */
	assert_true(broken(a, NULL, &why));
	free(c);
	free(d);
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
	assert_int_equal(why.len, 0);
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

SCRATCH_ROOT_FIXTURES(root)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_same_broken_ending_stops),
		cmocka_unit_test(anything_else_goes_on),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
