/* Unit tests: variants given on the command line, staged as folders (variant-given.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kernel/kernel-catalog.h"
#include "lab/kernel/variant-given.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-given-XXXXXX";

static char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static void put(const char *rel, const char *text)
{
	scratch_put(root, rel, text);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	put("v/base/README", "the baseline\n");
	put("v/base/0001-first.patch", "first\n");
	put("v/base/config", "CONFIG_X=y\n");
	put("v/base/cmdline", "numa=off\n");
	put("v/pre/README", "a prebuilt one\n");
	put("v/pre/source", "bzimage ../../img/bzImage\n");
	put("z.patch", "z\n");
	put("b.patch", "b\n");
	char *cache = at("cache"), *variants = at("v");
	setenv("OOMLAB_CACHE", cache, 1);
	setenv("OOMLAB_VARIANT_PATH", variants, 1);
	free(cache);
	free(variants);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("OOMLAB_CACHE");
	unsetenv("OOMLAB_VARIANT_PATH");
	return remove_tree(root);
}

static int stage(const char *arg, const char *baseline, struct given_variants *g, struct strbuf *err)
{
	struct strlist args = STRLIST_INIT;
	strlist_push(&args, arg);
	int rc = given_variants_stage(g, &args, baseline, err);
	strlist_clear(&args);
	return rc;
}

static char *staged_file(const struct given_variants *g, const char *name)
{
	char *path = xasprintf("%s/%s", g->items[0].folder, name);
	char *text = read_file(path, NULL);
	free(path);
	return text;
}

/* patch: the baseline's files, its patches first, then the given ones in the order given. */
static void patch_goes_on_top_of_the_baseline_in_order(void **state)
{
	(void)state;
	struct given_variants g;
	struct strbuf err = STRBUF_INIT;
	char *arg = xasprintf("mine=patch:%s/z.patch,%s/b.patch", root, root);
	assert_int_equal(stage(arg, "base", &g, &err), 0);
	assert_string_equal(g.items[0].name, "mine");
	assert_string_equal(g.items[0].spec, arg + 5);
	char *cache = at("cache/given/");
	assert_true(starts_with(g.items[0].folder, cache));
	assert_true(ends_with(g.items[0].folder, "/mine"));
	static const char *const files[][2] = {
		{ "01-0001-first.patch", "first\n" }, { "02-z.patch", "z\n" }, { "03-b.patch", "b\n" },
		{ "config", "CONFIG_X=y\n" },          { "cmdline", "numa=off\n" },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = staged_file(&g, files[i][0]);
		assert_non_null(text);
		assert_string_equal(text, files[i][1]);
		free(text);
	}
	char *readme = staged_file(&g, "README");
	assert_non_null(strstr(readme, "mine: patch:"));
	free(readme);
	/* the catalogue finds it */
	char *found = variant_folder_find("mine");
	assert_non_null(found);
	assert_string_equal(found, g.items[0].folder);
	/* the same spec is the same folder; other bytes another */
	struct given_variants again;
	assert_int_equal(stage(arg, "base", &again, &err), 0);
	assert_string_equal(again.items[0].folder, g.items[0].folder);
	put("b.patch", "b changed\n");
	struct given_variants changed;
	assert_int_equal(stage(arg, "base", &changed, &err), 0);
	assert_string_not_equal(changed.items[0].folder, g.items[0].folder);
	put("b.patch", "b\n");
	/* a copy keeps it for the run */
	char *run = at("run");
	assert_int_equal(given_variants_keep(&g, run, &err), 0);
	char *kept = at("run/variants/mine/03-b.patch");
	char *text = read_file(kept, NULL);
	assert_non_null(text);
	assert_string_equal(text, "b\n");
	free(text);
	json_t *json = given_variants_json(&g);
	assert_int_equal(json_array_size(json), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json, 0), "spec")), arg + 5);
	json_decref(json);
	free(kept);
	free(run);
	free(found);
	free(cache);
	free(arg);
	given_variants_clear(&g);
	given_variants_clear(&again);
	given_variants_clear(&changed);
	strbuf_release(&err);
}

/* A known variant's name alone stages nothing; NAME=OTHER copies it. */
static void known_names(void **state)
{
	(void)state;
	struct given_variants g;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(stage("base", "base", &g, &err), 0);
	assert_null(g.items[0].folder);
	assert_null(g.items[0].spec);
	given_variants_clear(&g);
	assert_int_equal(stage("copy=base", "base", &g, &err), 0);
	/* its patches under their own names: the same kernel, the same cache key */
	char *patch = staged_file(&g, "0001-first.patch");
	assert_non_null(patch);
	free(patch);
	given_variants_clear(&g);
	strbuf_release(&err);
}

static void refused(const char *arg, const char *baseline, const char *want)
{
	struct given_variants g;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(stage(arg, baseline, &g, &err), -1);
	if (!strstr(err.buf, want))
		fail_msg("'%s': '%s' lacks '%s'", arg, err.buf, want);
	assert_true(starts_with(err.buf, "--variant '"));
	assert_null(strchr(err.buf, '\n'));
	/* the scratch folder the source was checked in is the lab's, not the user's */
	if (strstr(err.buf, "source:"))
		fail_msg("'%s' names the scratch source file", err.buf);
	given_variants_clear(&g);
	strbuf_release(&err);
}

/* Bad input: one line naming the option, before anything is built. */
static void bad_specs_are_one_line(void **state)
{
	(void)state;
	refused("mine=patch:/nonexistent.patch", "base", "/nonexistent.patch: No such file");
	refused("Mine=patch:x", "base", "a variant's name uses");
	refused("base=patch:x", "base", "a variant named 'base' exists already");
	refused("mine=nosuch", "base", "'nosuch' is no variant the lab knows");
	refused("nosuch", "base", "no variant 'nosuch'");
	refused("mine=ftp:x", "base", "'ftp:' is no spec");
	refused("mine=patch:", "base", "wants one or more files");
	refused("mine=git:/tmp", "base", "git: wants DIR@REF");
	refused("mine=tree:/nonexistent", "base", "tree /nonexistent: No such file");
	char *z = at("z.patch");
	char *arg = xasprintf("mine=patch:%s", z);
	refused(arg, "pre", "the baseline 'pre' is a prebuilt kernel");
	refused(arg, "nosuch", "the baseline 'nosuch' is not a variant the lab knows");
	free(arg);
	free(z);
	struct given_variants g;
	struct strbuf err = STRBUF_INIT;
	struct strlist twice = STRLIST_INIT;
	strlist_push(&twice, "base");
	strlist_push(&twice, "base=base");
	assert_int_equal(given_variants_stage(&g, &twice, "base", &err), -1);
	assert_non_null(strstr(err.buf, "the name is given twice"));
	strlist_clear(&twice);
	given_variants_clear(&g);
	strbuf_release(&err);
}

/* git:DIR@REF keeps REF's commit, so that a moving branch does not move a run. */
static void git_is_pinned_to_its_commit(void **state)
{
	(void)state;
	put("linux/Makefile", "VERSION = 6\nPATCHLEVEL = 12\n");
	put("linux/Kconfig", "mainmenu \"x\"\n");
	put("linux/arch/x86/Kconfig", "config X86\n");
	char *cmd = xasprintf("cd %s/linux && git init -q && git add -A && git -c user.name=t "
			      "-c user.email=t@t commit -qm one && git rev-parse HEAD > ../head",
			      root);
	assert_int_equal(system(cmd), 0);
	char *head_file = at("head"), *head = read_file(head_file, NULL);
	assert_non_null(head);
	char *arg = xasprintf("mine=git:%s/linux@HEAD", root);
	struct given_variants g;
	struct strbuf err = STRBUF_INIT;
	if (stage(arg, "base", &g, &err) < 0)
		fail_msg("%s", err.buf);
	char *source = staged_file(&g, "source");
	char *want = xasprintf("git %s/linux %s", root, trim(head));
	assert_non_null(source);
	assert_string_equal(trim(source), want);
	free(want);
	free(source);
	given_variants_clear(&g);
	strbuf_release(&err);
	free(arg);
	free(head);
	free(head_file);
	free(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(patch_goes_on_top_of_the_baseline_in_order),
		cmocka_unit_test(known_names),
		cmocka_unit_test(bad_specs_are_one_line),
		cmocka_unit_test(git_is_pinned_to_its_commit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
