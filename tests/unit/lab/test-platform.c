/* Unit tests: the guest's architecture and page size (lab/platform.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/platform.h"

static void defaults_are_x86_64_4k(void **state)
{
	(void)state;
	struct platform p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(platform_parse(NULL, NULL, &p, &err), 0);
	assert_true(platform_is_default(&p));
	assert_int_equal(p.arch, ARCH_X86_64);
	assert_int_equal(platform_page_bytes(&p), 4096);
	char *name = platform_name(&p);
	assert_string_equal(name, "x86_64/4k");
	free(name);
	strbuf_release(&err);
}

static void arm64_has_every_granule(void **state)
{
	(void)state;
	const char *sizes[] = { "4k", "16k", "64k" };
	const unsigned long bytes[] = { 4096, 16384, 65536 };
	for (int i = 0; i < 3; i++) {
		struct platform p;
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(platform_parse("arm64", sizes[i], &p, &err), 0);
		assert_int_equal(p.arch, ARCH_ARM64);
		assert_int_equal(platform_page_bytes(&p), bytes[i]);
		assert_false(platform_is_default(&p));
		strbuf_release(&err);
	}
	struct platform p = { ARCH_ARM64, 16 };
	char *slug = platform_slug(&p);
	assert_string_equal(slug, "arm64-16k");
	free(slug);
	assert_string_equal(arch_facts(ARCH_ARM64)->uname, "aarch64");
	assert_string_equal(arch_facts(ARCH_ARM64)->qemu, "qemu-system-aarch64");
	assert_string_equal(arch_facts(ARCH_ARM64)->console, "ttyAMA0");
}

/* An unsupported page size for the arch is one line naming both and what the arch has. */
static void unsupported_page_size_is_one_line_naming_it(void **state)
{
	(void)state;
	struct platform p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(platform_parse("x86_64", "16k", &p, &err), -1);
	assert_string_equal(err.buf, "page size 16k is not supported on x86_64 (it has 4k)");
	strbuf_release(&err);
	/* the default arch is x86_64: a page size alone is checked against it */
	assert_int_equal(platform_parse(NULL, "64k", &p, &err), -1);
	assert_string_equal(err.buf, "page size 64k is not supported on x86_64 (it has 4k)");
	strbuf_release(&err);
	assert_int_equal(platform_parse("arm64", "8k", &p, &err), -1);
	assert_string_equal(err.buf, "unknown page size '8k' (4k, 16k or 64k)");
	strbuf_release(&err);
	assert_int_equal(platform_parse("riscv64", NULL, &p, &err), -1);
	assert_string_equal(err.buf, "unknown architecture 'riscv64' (x86_64 or arm64)");
	assert_null(strchr(err.buf, '\n'));
	strbuf_release(&err);
}

static void every_listed_platform_checks(void **state)
{
	(void)state;
	assert_int_equal(all_platforms_count, 4);
	for (unsigned i = 0; i < all_platforms_count; i++) {
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(platform_check(&all_platforms[i], &err), 0);
		strbuf_release(&err);
	}
	assert_true(platform_is_default(&all_platforms[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_x86_64_4k),
		cmocka_unit_test(arm64_has_every_granule),
		cmocka_unit_test(unsupported_page_size_is_one_line_naming_it),
		cmocka_unit_test(every_listed_platform_checks),
	};
	return cmocka_run_group_tests_name("platform", tests, NULL, NULL);
}
