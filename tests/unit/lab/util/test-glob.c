/* Unit tests: globs as text (lab/util/glob.h): well formed or not, whether two
 * can match one name, and how far a name is from one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "common/util.h"
#include "lab/util/glob.h"

static void malformed_globs_are_named(void **state)
{
	(void)state;
	assert_null(glob_malformed("oom_kills"));
	assert_null(glob_malformed("binder-sendvec.sendvec_ns_per_rt.size=*"));
	assert_null(glob_malformed("slab_[a-z]*_bytes"));
	assert_null(glob_malformed("x[]]y"));            /* ']' first is a member */
	assert_null(glob_malformed("x[[:digit:]]"));
	assert_null(glob_malformed("a\\*b"));
	assert_string_equal(glob_malformed("[unclosed"), "'[' without its ']'");
	assert_string_equal(glob_malformed("oom_[kills"), "'[' without its ']'");
	assert_string_equal(glob_malformed("x[[:digit:]"), "'[' without its ']'");
	assert_string_equal(glob_malformed("x[[:digit]"), "'[' without its ']'");
	assert_string_equal(glob_malformed("oom\\"), "a '\\' at its end escapes nothing");
}

static void globs_meet_when_one_name_matches_both(void **state)
{
	(void)state;
	/* names */
	assert_true(glob_intersects("oom_kills", 0, "oom_kills"));
	assert_false(glob_intersects("oom_kills", 0, "oom_kill"));
	/* a name and a glob, either way round */
	assert_true(glob_intersects("slab_binder_bytes", 0, "slab_*_bytes"));
	assert_true(glob_intersects("slab_*_bytes", 0, "slab_binder_bytes"));
	assert_false(glob_intersects("slab_binder_byte", 0, "slab_*_bytes"));
	/* two globs: neither matches the other as text, one name matches both */
	assert_true(glob_intersects("*.size=4096", 0, "binder-sendvec.sendvec_ns_per_rt.size=*"));
	assert_true(glob_intersects("binder-*", 0, "*.mmap_ok"));
	assert_false(glob_intersects("binder-*", 0, "spawn.*"));
	assert_false(glob_intersects("*_ms", 0, "*_us"));
	assert_true(glob_intersects("*_?s", 0, "*_us"));
	/* bracket expressions and '?' take one character each */
	assert_true(glob_intersects("kernel_warnings.kind=[kl]*", 0, "kernel_warnings.kind=lockdep"));
	assert_false(glob_intersects("kernel_warnings.kind=[!l]*", 0, "kernel_warnings.kind=lockdep"));
	assert_true(glob_intersects("a[bc]d", 0, "a[cd]d"));
	assert_false(glob_intersects("a[bc]d", 0, "a[de]d"));
	assert_false(glob_intersects("a?", 0, "a"));
	assert_true(glob_intersects("a\\*", 0, "a*"));
	assert_false(glob_intersects("a\\*", 0, "ab"));
	assert_true(glob_intersects("*", 0, ""));
	assert_false(glob_intersects("[unclosed", 0, "[unclosed"));
	/* a flat glob's '*' takes no '.': the lab's "*_stall_count" is no workload's */
	assert_true(glob_intersects("*_stall_count", 0, "binder-mmap.*"));
	assert_false(glob_intersects("*_stall_count", GLOB_FLAT, "binder-mmap.*"));
	assert_false(glob_intersects("*_stall_count", GLOB_FLAT, "binder-mmap.x_stall_count"));
	assert_true(glob_intersects("*_stall_count", GLOB_FLAT, "direct_*"));
	assert_true(glob_intersects("kernel_warnings.kind=*", GLOB_FLAT, "kernel_warnings.*"));
	assert_false(glob_intersects("kernel_warnings.kind=*", GLOB_FLAT, "kernel_warnings.kind=a.b"));
}

static void distance_is_in_half_edits(void **state)
{
	(void)state;
	assert_int_equal(glob_distance("oom_kills", 0, "oom_kills"), 0);
	assert_int_equal(glob_distance("oom_kills", 0, "oom_kils"), 2);
	/* two neighbours swapped are one edit; two apart, two */
	assert_int_equal(glob_distance("oom_kills", 0, "oom_kilsl"), 2);
	assert_int_equal(glob_distance("run", 0, "rnu"), 2);
	assert_int_equal(glob_distance("run", 0, "nur"), 4);
	assert_int_equal(glob_distance("oom_kills", 0, ""), 18);
	/* a '*' takes a run at 1 a character, '?' any one */
	assert_int_equal(glob_distance("slab_*_bytes", 0, "slab_binder_bytes"), 6);
	assert_int_equal(glob_distance("slab_*_bytes", 0, "slab_binder_byte"), 8);
	assert_int_equal(glob_distance("a?c", 0, "abc"), 0);
	assert_int_equal(glob_distance("[unclosed", 0, "x"), (size_t)-1);
	/* a flat '*' takes no '.' */
	assert_int_equal(glob_distance("*_count", GLOB_FLAT, "a.b_count"), 4);
	assert_int_equal(glob_distance("*_count", 0, "a.b_count"), 3);
	/* nearly written out is nearer than a broad glob */
	assert_true(glob_distance("binder_mmap_stall_ms", 0, "binder_mmap_stal_ms") <
		    glob_distance("*_stall_*_us", 0, "binder_mmap_stal_ms"));
}

/* glob_suggest() of TYPED over POOL: FOUND names, said as WANT. */
static void expect_suggest(const char *const *pool, size_t n, const char *typed, size_t max,
			   size_t found, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(glob_suggest(&sb, pool, n, typed, max), found);
	assert_string_equal(sb.len ? sb.buf : "", want);
	strbuf_release(&sb);
}

/* "Did you mean": a mistyped command gets the names nearest it, with the
 * rule a mistyped metric gets (at most half the characters off). The pool
 * is any list of names; these are words like the lab's commands. */
static void mistyped_names_get_the_nearest(void **state)
{
	(void)state;
	static const char *const names[] = { "kernel", "boot", "profiles", "run", "compare",
					     "results", "report", "export", "bisect", "version" };
	const size_t n = sizeof(names) / sizeof(names[0]);
	/* two letters swapped: one edit, of seven letters or of three */
	expect_suggest(names, n, "cmopare", 3, 1, "'compare'");
	expect_suggest(names, n, "rnu", 3, 1, "'run'");
	expect_suggest(names, n, "rn", 3, 1, "'run'");
	/* several near: nearest first (report one edit off, the others three each) */
	expect_suggest(names, n, "reports", 3, 3, "'report', 'results' or 'export'");
	expect_suggest(names, n, "reports", 2, 2, "'report' or 'results'");
	/* nothing near: no suggestion */
	expect_suggest(names, n, "xyzzyq", 3, 0, "");
	size_t best[3];
	assert_int_equal(glob_closest(names, NULL, n, "bot", best, 3), 1);
	assert_string_equal(names[best[0]], "boot");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(malformed_globs_are_named),
		cmocka_unit_test(globs_meet_when_one_name_matches_both),
		cmocka_unit_test(distance_is_in_half_edits),
		cmocka_unit_test(mistyped_names_get_the_nearest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
