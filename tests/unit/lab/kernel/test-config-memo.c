/* Unit tests: remembered configurations (lab/kernel/config-memo.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kernel/config-memo.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-config-memo-XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static void put(const char *rel, const char *text)
{
	scratch_put(root, rel, text);
}

static void what_configuring_reads(void **state)
{
	(void)state;
	const char *matter[] = { "drivers/android/Kconfig", "mm/Kconfig.debug", "kernel/configs/tiny.config",
				 "arch/x86/configs/tiny.config", "scripts/kconfig/conf.c",
				 "scripts/Kconfig.include", "scripts/cc-version.sh", "scripts/kconfig/lexer.l",
				 "Makefile", "arch/x86/Makefile", "arch/arm64/Makefile" };
	const char *not[] = { "drivers/android/Makefile", "arch/x86/boot/Makefile", "mm/oom_kill.c",
			      "drivers/android/binder_alloc.c", "include/linux/kconfig.h", "MAINTAINERS",
			      "scripts/dtc/dtc.c", "scripts/mod/modpost.c" };
	for (size_t i = 0; i < sizeof(matter) / sizeof(matter[0]); i++) {
		print_message("%s\n", matter[i]);
		assert_true(config_memo_path_matters(matter[i]));
	}
	for (size_t i = 0; i < sizeof(not) / sizeof(not[0]); i++) {
		print_message("%s\n", not[i]);
		assert_false(config_memo_path_matters(not[i]));
	}
}

/* The key of configuring TREE (below root) for PLATFORM with WANTED_TEXT;
 * config_memo_key's status. */
static int key_of(const char *tree, const char *wanted_text, struct platform platform, char key[65])
{
	struct strbuf err = STRBUF_INIT;
	struct kconfig wanted = KCONFIG_INIT;
	char *top = xasprintf("%s/%s", root, tree);
	assert_int_equal(kconfig_parse(&wanted, wanted_text, "wanted", &err), 0);
	int rc = config_memo_key(&platform, &wanted, top, key, &err);
	if (rc < 0)
		print_message("%s\n", err.buf);
	kconfig_clear(&wanted);
	free(top);
	strbuf_release(&err);
	return rc;
}

static void key_follows_config_inputs_not_code(void **state)
{
	(void)state;
	const char *plain = "CONFIG_A=y\n";
	const struct platform arm64_4k = { ARCH_ARM64, 4 }, arm64_16k = { ARCH_ARM64, 16 };
	put("t/Kconfig", "source \"mm/Kconfig\"\n");
	put("t/mm/Kconfig", "config A\n\tbool \"a\"\n");
	put("t/mm/oom_kill.c", "int a;\n");
	put("t/scripts/kconfig/conf.c", "int main(void) { return 0; }\n");
	put("t/.git/Kconfig", "not read\n");
	char k1[65], k[65];
	assert_int_equal(key_of("t", plain, PLATFORM_DEFAULT, k1), 0);
	put("t/mm/oom_kill.c", "int b;\n"); /* code: another commit, a patch, an edit */
	put("t/.git/Kconfig", "still not read\n");
	assert_int_equal(key_of("t", plain, PLATFORM_DEFAULT, k), 0);
	assert_string_equal(k1, k);
	assert_int_equal(key_of("t", "CONFIG_A=n\n", PLATFORM_DEFAULT, k), 0);
	assert_string_not_equal(k1, k);
	assert_int_equal(key_of("t", plain, arm64_4k, k), 0);
	assert_string_not_equal(k1, k);
	char arm16[65];
	assert_int_equal(key_of("t", plain, arm64_16k, arm16), 0);
	assert_string_not_equal(k, arm16);
	put("t/scripts/kconfig/conf.c", "int main(void) { return 1; }\n");
	assert_int_equal(key_of("t", plain, PLATFORM_DEFAULT, k), 0);
	assert_string_not_equal(k1, k);
	memcpy(k1, k, 65);
	put("t/mm/Kconfig", "config A\n\tbool \"a\"\n\tdefault y\n");
	assert_int_equal(key_of("t", plain, PLATFORM_DEFAULT, k), 0);
	assert_string_not_equal(k1, k);
	memcpy(k1, k, 65);
	put("t/arch/x86/configs/tiny.config", "CONFIG_A=y\n");
	assert_int_equal(key_of("t", plain, PLATFORM_DEFAULT, k), 0);
	assert_string_not_equal(k1, k);
	put("empty/mm/oom_kill.c", "int a;\n");
	assert_int_equal(key_of("empty", plain, PLATFORM_DEFAULT, k), -1);
}
/* In the cache, whatever the workspace: OOMLAB_CACHE is the scratch
 * folder's cache/ (set before the lab's cache_root first reads it). */
static void stored_then_loaded(void **state)
{
	(void)state;
	char *cache = xasprintf("%s/cache", root), *dotconfig = xasprintf("%s/obj/.config", root);
	assert_int_equal(setenv("OOMLAB_CACHE", cache, 1), 0);
	const char *key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	put("obj/.config", "CONFIG_A=y\n# CONFIG_B is not set\n");
	assert_null(config_memo_load(key));
	config_memo_store(key, dotconfig);
	char *path = xasprintf("%s/configs/%s.config", cache, key);
	char *text = read_file(path, NULL);
	assert_non_null(text); /* where the header says */
	free(text);
	text = config_memo_load(key);
	assert_non_null(text);
	assert_string_equal(text, "CONFIG_A=y\n# CONFIG_B is not set\n");
	free(text);
	assert_null(config_memo_load("fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"));
	free(path);
	free(cache);
	free(dotconfig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(what_configuring_reads),
		cmocka_unit_test(key_follows_config_inputs_not_code),
		cmocka_unit_test(stored_then_loaded),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
