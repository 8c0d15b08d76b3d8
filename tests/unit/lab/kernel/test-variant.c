/* Unit tests: variant discovery and content hashing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kernel/kernel-catalog.h"
#include "lab/kernel/variant.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-variant-XXXXXX";

static void put(const char *rel, const char *text)
{
	scratch_put(root, rel, text);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	put("v/alpha/README", "\nFirst line describes.\nmore\n");
	put("v/alpha/0002-second.patch", "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n");
	put("v/alpha/0001-first.diff", "--- a/y.c\n+++ b/y.c\n@@ -1 +1 @@\n-a\n+b\n");
	put("v/alpha/notes.txt", "ignored\n");
	put("v/alpha/cmdline", "numa=off\n");
	put("v/beta/config", "CONFIG_X=y\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(root);
}

static void discovers_sorted_with_details(void **state)
{
	(void)state;
	struct variant_set set;
	struct strbuf err = STRBUF_INIT;
	char *dir = xasprintf("%s/v", root);
	assert_int_equal(variants_discover(dir, &set, &err), 0);
	assert_int_equal(set.n, 2);
	struct variant *a = variant_find(&set, "alpha"), *b = variant_find(&set, "beta");
	assert_ptr_equal(a, &set.items[0]);
	assert_string_equal(a->description, "First line describes.");
	assert_int_equal(a->patches.n, 2);
	assert_non_null(strstr(a->patches.items[0], "0001-first.diff"));
	assert_non_null(strstr(a->patches.items[1], "0002-second.patch"));
	assert_string_equal(a->cmdline, "numa=off");
	assert_null(a->config_path);
	assert_non_null(b->config_path);
	assert_string_equal(b->cmdline, "");
	assert_null(variant_find(&set, "gamma"));
	variants_clear(&set);
	free(dir);
}

static void rejects_bad_names(void **state)
{
	(void)state;
	struct variant_set set;
	struct strbuf err = STRBUF_INIT;
	put("bad/Has Space/README", "x\n");
	char *dir = xasprintf("%s/bad", root);
	assert_int_equal(variants_discover(dir, &set, &err), -1);
	assert_non_null(strstr(err.buf, "Has Space"));
	variants_clear(&set);
	free(dir);
	strbuf_release(&err);
}

static void hash_of(const char *source, const char *base_text, char out[65])
{
	struct variant_set set;
	struct strbuf err = STRBUF_INIT;
	struct kconfig base = KCONFIG_INIT;
	char *dir = xasprintf("%s/v", root);
	assert_int_equal(kconfig_parse(&base, base_text, "base", &err), 0);
	assert_int_equal(variants_discover(dir, &set, &err), 0);
	struct variant *alpha = variant_find(&set, "alpha");
	alpha->source.id = xstrdup(source);
	assert_int_equal(variant_hash(alpha, &base, &err), 0);
	memcpy(out, variant_find(&set, "alpha")->hash, 65);
	variants_clear(&set);
	kconfig_clear(&base);
	free(dir);
}

static void hash_follows_every_input(void **state)
{
	(void)state;
	char h1[65], h2[65], h3[65];
	hash_of("6.12.117", "CONFIG_A=y\n", h1);
	hash_of("6.12.117", "# comments do not count\nCONFIG_A=y\n", h2);
	assert_string_equal(h1, h2);
	assert_int_equal(strlen(h1), 64);

	hash_of("6.12.118", "CONFIG_A=y\n", h3);
	assert_string_not_equal(h1, h3);
	hash_of("6.12.117", "CONFIG_A=m\n", h3);
	assert_string_not_equal(h1, h3);

	/* One byte of one patch changes the hash; putting it back restores it. */
	put("v/alpha/0002-second.patch", "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+c\n");
	hash_of("6.12.117", "CONFIG_A=y\n", h3);
	assert_string_not_equal(h1, h3);
	put("v/alpha/0002-second.patch", "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n");
	hash_of("6.12.117", "CONFIG_A=y\n", h3);
	assert_string_equal(h1, h3);

	put("v/alpha/cmdline", "numa=fake=2\n");
	hash_of("6.12.117", "CONFIG_A=y\n", h3);
	assert_string_not_equal(h1, h3);
	put("v/alpha/cmdline", "numa=off\n");
}

static void variant_fragment_overrides_base(void **state)
{
	(void)state;
	struct variant_set set;
	struct strbuf err = STRBUF_INIT;
	struct kconfig base = KCONFIG_INIT, merged = KCONFIG_INIT;
	char *dir = xasprintf("%s/v", root);
	assert_int_equal(kconfig_parse(&base, "# CONFIG_X is not set\nCONFIG_Y=y\n", "base", &err), 0);
	assert_int_equal(variants_discover(dir, &set, &err), 0);
	assert_int_equal(variant_config(variant_find(&set, "beta"), &base, &merged, &err), 0);
	assert_string_equal(kconfig_get(&merged, "CONFIG_X")->value, "y");
	assert_string_equal(kconfig_get(&merged, "CONFIG_Y")->value, "y");
	kconfig_clear(&merged);
	kconfig_clear(&base);
	variants_clear(&set);
	free(dir);
}

/* The platform's fragment sits between base and the variant's; arm64's key and objects are its own. */
static void platform_fragment_key_and_objects(void **state)
{
	(void)state;
	struct variant_set set;
	struct strbuf err = STRBUF_INIT;
	struct kconfig base = KCONFIG_INIT, merged = KCONFIG_INIT;
	char *dir = xasprintf("%s/v", root), *arch = xasprintf("%s/arm64.config", root);
	put("arm64.config", "CONFIG_X=m\nCONFIG_Z=y\n");
	assert_int_equal(kconfig_parse(&base, "CONFIG_Y=y\n", "base", &err), 0);
	assert_int_equal(variants_discover(dir, &set, &err), 0);
	struct variant *beta = variant_find(&set, "beta");
	beta->source.id = xstrdup("6.12.117");
	assert_int_equal(variant_hash(beta, &base, &err), 0);
	char x86[65];
	memcpy(x86, beta->hash, 65);
	char *objdir = build_target_objdir(&beta->target);
	assert_string_equal(objdir, "obj");
	free(objdir);
	assert_string_equal(build_target_image(&beta->target), "arch/x86/boot/bzImage");

	beta->target.platform = (struct platform){ ARCH_ARM64, 16 };
	strlist_push(&beta->platform_configs, arch);
	assert_int_equal(variant_config(beta, &base, &merged, &err), 0);
	/* the variant's fragment wins over the platform's, the platform's adds its own */
	assert_string_equal(kconfig_get(&merged, "CONFIG_X")->value, "y");
	assert_string_equal(kconfig_get(&merged, "CONFIG_Z")->value, "y");
	assert_int_equal(variant_hash(beta, &base, &err), 0);
	assert_string_not_equal(x86, beta->hash);
	objdir = build_target_objdir(&beta->target);
	assert_string_equal(objdir, "obj-arm64-16k");
	free(objdir);
	beta->target.companion = BUILD_DEBUG;
	objdir = build_target_objdir(&beta->target);
	assert_string_equal(objdir, "obj-arm64-16k-debug");
	free(objdir);
	assert_string_equal(build_target_image(&beta->target), "arch/arm64/boot/Image");

	/* the same fragment on another page size is another kernel */
	char a16[65];
	beta->target.companion = BUILD_OWN;
	assert_int_equal(variant_hash(beta, &base, &err), 0);
	memcpy(a16, beta->hash, 65);
	beta->target.platform.page_kib = 4;
	assert_int_equal(variant_hash(beta, &base, &err), 0);
	assert_string_not_equal(a16, beta->hash);
	kconfig_clear(&merged);
	kconfig_clear(&base);
	variants_clear(&set);
	free(dir);
	free(arch);
}

/* A debug companion boots with SLUB's checks on every cache whose slab order
 * they leave alone (kernel-catalog.c): its own command line, so its own key. */
static void debug_companions_keep_slab_orders(void **state)
{
	(void)state;
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base, &PLATFORM_DEFAULT);
	const struct variant *plain = variant_find(&set, "stock"), *debug = variant_find(&set, "stock+debug");
	assert_non_null(plain);
	assert_non_null(debug);
	assert_string_equal(plain->cmdline, "");
	assert_string_equal(debug->cmdline, "slab_debug=FZPUO");
	assert_string_not_equal(plain->hash, debug->hash);
	variants_clear(&set);
	kconfig_clear(&base);
}

/* The option's value in V's merged configuration, or NULL when unset. */
static const char *merged_value(const struct variant *v, const struct kconfig *base, const char *option)
{
	static char value[32];
	struct kconfig merged = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(variant_config(v, base, &merged, &err), 0);
	const struct kconfig_option *e = kconfig_get(&merged, option);
	const char *found = e && e->value ? strncpy(value, e->value, sizeof(value) - 1) : NULL;
	kconfig_clear(&merged);
	strbuf_release(&err);
	return found;
}

/* Every variant the lab builds has a test companion (issue 34): the same
 * source, patches and command line, kernels/test.config merged last, its own
 * name, cache key and object folder; the variant's own build, which the
 * seed experiments boot, has none of the selftests' options. */
static void test_companions_add_what_selftests_need(void **state)
{
	(void)state;
	static const char *const needed[] = { "CONFIG_USER_NS", "CONFIG_HUGETLBFS", "CONFIG_INET",
					      "CONFIG_INOTIFY_USER", "CONFIG_EXT4_FS" };
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base, &PLATFORM_DEFAULT);
	size_t own = 0;
	for (size_t i = 0; i < set.n; i++) {
		const struct variant *v = &set.items[i];
		if (v->target.companion != BUILD_OWN)
			continue;
		own++;
		const struct variant *test = variant_companion(&set, v, BUILD_TEST);
		const struct variant *debug = variant_companion(&set, v, BUILD_DEBUG);
		assert_non_null(test);
		assert_non_null(debug);
		char *name = xasprintf("%s+test", v->name);
		assert_string_equal(test->name, name);
		free(name);
		assert_int_equal(test->target.companion, BUILD_TEST);
		assert_non_null(test->target_config);
		assert_true(ends_with(test->target_config, "/" TEST_CONFIG));
		assert_string_equal(test->cmdline, v->cmdline);
		assert_int_equal(test->patches.n, v->patches.n);
		assert_string_not_equal(test->hash, v->hash);
		assert_string_not_equal(test->hash, debug->hash);
		char *objdir = build_target_objdir(&test->target);
		assert_string_equal(objdir, "obj-test");
		free(objdir);
		for (size_t k = 0; k < sizeof(needed) / sizeof(needed[0]); k++) {
			const char *value = merged_value(test, &base, needed[k]);
			if (!value || strcmp(value, "y"))
				fail_msg("%s: %s is %s, not y", test->name, needed[k], value ? value : "unset");
			value = merged_value(v, &base, needed[k]);
			if (value && !strcmp(value, "y"))
				fail_msg("%s: %s=y: the variant's own build changed", v->name, needed[k]);
		}
	}
	assert_true(own >= 4);      /* stock and the three seed variants at least */
	variants_clear(&set);
	kconfig_clear(&base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(platform_fragment_key_and_objects),
		cmocka_unit_test(discovers_sorted_with_details),
		cmocka_unit_test(rejects_bad_names),
		cmocka_unit_test(hash_follows_every_input),
		cmocka_unit_test(variant_fragment_overrides_base),
		cmocka_unit_test(debug_companions_keep_slab_orders),
		cmocka_unit_test(test_companions_add_what_selftests_need),
	};
	return cmocka_run_group_tests_name("variant", tests, setup, teardown);
}
