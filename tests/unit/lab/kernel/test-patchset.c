/* Unit tests: patches applied to a tree, failures explained, the tree restored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/kernel/patchset.h"

static char root[] = "/tmp/oomlab-test-patch-XXXXXX";
static char *tree, *state_dir;

static char *path_in(const char *base, const char *rel)
{
	return xasprintf("%s/%s", base, rel);
}

static void put(const char *path, const char *text)
{
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file_str(path, text), 0);
	free(dir);
}

static char *get(const char *rel)
{
	char *p = path_in(tree, rel);
	char *text = read_file(p, NULL);
	free(p);
	return text;
}

static const char modify_patch[] =
	"From: someone\nSubject: [PATCH] change\n---\n"
	"--- a/drivers/a.c\t2024-01-01 00:00:00\n+++ b/drivers/a.c\t2024-01-02 00:00:00\n"
	"@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	"--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+created\n";

static const char failing_patch[] =
	"--- a/drivers/a.c\n+++ b/drivers/a.c\n"
	"@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	"@@ -20,3 +20,3 @@\n nineteen\n-twenty\n+TWENTY\n twentyone\n";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	tree = path_in(root, "tree");
	state_dir = path_in(root, "state");
	return 0;
}

static int reset_tree(void **state)
{
	(void)state;
	remove_tree(tree);
	remove_tree(state_dir);
	char *a = path_in(tree, "drivers/a.c");
	put(a, "one\ntwo\nthree\n");
	free(a);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(root);
	free(tree);
	free(state_dir);
	return 0;
}

static struct strlist one_patch(const char *name, const char *text)
{
	struct strlist l = STRLIST_INIT;
	char *p = path_in(root, name);
	put(p, text);
	strlist_push_owned(&l, p);
	return l;
}

static void targets_are_stripped_once(void **state)
{
	(void)state;
	struct strlist patches = one_patch("m.patch", modify_patch), files = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(patch_targets(patches.items[0], &files, &err), 0);
	assert_int_equal(files.n, 2);
	assert_string_equal(files.items[0], "drivers/a.c");
	assert_string_equal(files.items[1], "new.c");
	strlist_clear(&files);
	strlist_clear(&patches);
	patches = one_patch("not.patch", "hello\n");
	assert_int_equal(patch_targets(patches.items[0], &files, &err), -1);
	assert_non_null(strstr(err.buf, "not a patch"));
	strlist_clear(&patches);
	strbuf_release(&err);
}

static void applies_then_restores_exactly(void **state)
{
	(void)state;
	struct strlist patches = one_patch("m.patch", modify_patch);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_apply_patches(tree, state_dir, &patches, &err), 0);
	char *a = get("drivers/a.c"), *n = get("new.c");
	assert_string_equal(a, "one\nTWO\nthree\n");
	assert_string_equal(n, "created\n");
	free(a);
	free(n);
	assert_int_equal(tree_restore(tree, state_dir, &err), 0);
	a = get("drivers/a.c");
	assert_string_equal(a, "one\ntwo\nthree\n");
	free(a);
	n = path_in(tree, "new.c");
	assert_false(path_exists(n));
	free(n);
	assert_false(path_exists(state_dir));
	/* Nothing recorded: restoring again changes nothing. */
	assert_int_equal(tree_restore(tree, state_dir, &err), 0);
	strlist_clear(&patches);
}

/* A file of the tree that is a hard link to one outside it (a mirror of a
 * user's tree, a hard-linked copy) is patched without the outside file
 * changing, and restored. (GNU patch 2.7 writes a new file as well; the
 * lab gives the file its own inode first so as not to rely on that.) */
static void hard_links_are_never_written_through(void **state)
{
	(void)state;
	char *outside = path_in(root, "users-a.c"), *a = path_in(tree, "drivers/a.c");
	put(outside, "one\ntwo\nthree\n");
	unlink(a);
	assert_int_equal(link(outside, a), 0);
	struct stat before;
	assert_int_equal(stat(outside, &before), 0);
	struct strlist patches = one_patch("m.patch", modify_patch);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_apply_patches(tree, state_dir, &patches, &err), 0);
	char *in_tree = get("drivers/a.c"), *theirs = read_file(outside, NULL);
	assert_string_equal(in_tree, "one\nTWO\nthree\n");
	assert_string_equal(theirs, "one\ntwo\nthree\n");
	struct stat after;
	assert_int_equal(stat(outside, &after), 0);
	assert_true(after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
		    after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
	free(in_tree);
	free(theirs);
	assert_int_equal(tree_restore(tree, state_dir, &err), 0);
	in_tree = get("drivers/a.c");
	assert_string_equal(in_tree, "one\ntwo\nthree\n");
	free(in_tree);
	strlist_clear(&patches);
	free(outside);
	free(a);
}

static void failing_hunk_is_named_and_nothing_leaks(void **state)
{
	(void)state;
	char *a = path_in(tree, "drivers/a.c");
	put(a, "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"
	       "thirteen\nfourteen\nfifteen\nsixteen\nseventeen\neighteen\nnineteen\nXX\ntwentyone\n");
	char *before = read_file(a, NULL);
	struct strlist patches = one_patch("0001-bad.patch", failing_patch);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_apply_patches(tree, state_dir, &patches, &err), -1);
	assert_non_null(strstr(err.buf, "0001-bad.patch"));
	assert_non_null(strstr(err.buf, "hunk #2 FAILED"));
	assert_non_null(strstr(err.buf, "drivers/a.c"));
	char *after = read_file(a, NULL);
	assert_string_equal(before, after);
	char *rej = xasprintf("%s.rej", a);
	assert_false(path_exists(rej));
	free(rej);
	free(before);
	free(after);
	free(a);
	strlist_clear(&patches);
	strbuf_release(&err);
}

static void second_patch_failing_undoes_the_first(void **state)
{
	(void)state;
	struct strlist patches = one_patch("0001-m.patch", modify_patch);
	char *bad = path_in(root, "0002-missing.patch");
	put(bad, "--- a/nowhere.c\n+++ b/nowhere.c\n@@ -1 +1 @@\n-x\n+y\n");
	strlist_push_owned(&patches, bad);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_apply_patches(tree, state_dir, &patches, &err), -1);
	assert_non_null(strstr(err.buf, "0002-missing.patch"));
	char *a = get("drivers/a.c");
	assert_string_equal(a, "one\ntwo\nthree\n");
	free(a);
	char *n = path_in(tree, "new.c");
	assert_false(path_exists(n));
	free(n);
	strlist_clear(&patches);
	strbuf_release(&err);
}

/* The lab's own patch (kbuild: a platform's lab_patch) goes on top when it
 * fits; when it does not, the variant's patches alone, and why it did not. */
static void an_optional_patch_goes_on_when_it_fits(void **state)
{
	(void)state;
	struct strlist patches = one_patch("0001-m.patch", modify_patch);
	char *fits = path_in(root, "lab-fits.patch"), *misfits = path_in(root, "lab-misfits.patch");
	/* on top of the variant's TWO */
	put(fits, "--- a/drivers/a.c\n+++ b/drivers/a.c\n@@ -1,3 +1,4 @@\n one\n TWO\n+lab\n three\n");
	/* written for a tree whose line two says something else */
	put(misfits, "--- a/drivers/a.c\n+++ b/drivers/a.c\n@@ -1,3 +1,3 @@\n one\n-deux\n+DEUX\n three\n");
	struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	bool applied = false;
	assert_int_equal(tree_apply_patches_then(tree, state_dir, &patches, fits, &applied, &why, &err), 0);
	assert_true(applied);
	char *a = get("drivers/a.c");
	assert_string_equal(a, "one\nTWO\nlab\nthree\n");
	free(a);
	assert_int_equal(tree_restore(tree, state_dir, &err), 0);
	a = get("drivers/a.c");
	assert_string_equal(a, "one\ntwo\nthree\n");
	free(a);

	assert_int_equal(tree_apply_patches_then(tree, state_dir, &patches, misfits, &applied, &why, &err),
			 0);
	assert_false(applied);
	assert_non_null(strstr(why.buf, "lab-misfits.patch"));
	a = get("drivers/a.c");
	assert_string_equal(a, "one\nTWO\nthree\n");
	free(a);
	char *n = get("new.c");
	assert_string_equal(n, "created\n");
	free(n);
	assert_int_equal(tree_restore(tree, state_dir, &err), 0);
	assert_null(err.buf);

	/* a variant's patch that fails fails the whole, named, the tree as it was */
	strlist_clear(&patches);
	patches = one_patch("0001-bad.patch", failing_patch);
	strbuf_reset(&why);
	assert_int_equal(tree_apply_patches_then(tree, state_dir, &patches, fits, &applied, &why, &err), -1);
	assert_false(applied);
	assert_non_null(strstr(err.buf, "0001-bad.patch"));
	a = get("drivers/a.c");
	assert_string_equal(a, "one\ntwo\nthree\n");
	free(a);
	free(fits);
	free(misfits);
	strlist_clear(&patches);
	strbuf_release(&why);
	strbuf_release(&err);
}

static void describes_patch_output(void **state)
{
	(void)state;
	char *d = describe_patch_failure("checking file mm/oom_kill.c\nHunk #1 FAILED at 695.\n"
					 "1 out of 1 hunk FAILED\n");
	assert_string_equal(d, "hunk #1 FAILED at line 695 of mm/oom_kill.c");
	free(d);
	d = describe_patch_failure("checking file x.c\nReversed (or previously applied) patch detected!"
				   "  Skipping patch.\n");
	assert_string_equal(d, "already applied or reversed in x.c");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(targets_are_stripped_once),
		cmocka_unit_test_setup(applies_then_restores_exactly, reset_tree),
		cmocka_unit_test_setup(hard_links_are_never_written_through, reset_tree),
		cmocka_unit_test_setup(failing_hunk_is_named_and_nothing_leaks, reset_tree),
		cmocka_unit_test_setup(second_patch_failing_undoes_the_first, reset_tree),
		cmocka_unit_test_setup(an_optional_patch_goes_on_when_it_fits, reset_tree),
		cmocka_unit_test(describes_patch_output),
	};
	return cmocka_run_group_tests_name("patchset", tests, setup, teardown);
}
