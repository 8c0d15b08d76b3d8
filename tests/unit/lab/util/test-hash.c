/* test-hash.c - content hashes for cache keys (lab/util/hash.c): SHA-256 as
 * sha256sum computes it, and fields that cannot run together. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lab/util/hash.h"

static void test_sha256_of_bytes(void **state)
{
	(void)state;
	char hex[65];
	struct hasher *h = hasher_new();
	hasher_add(h, "ab", 2);
	hasher_add(h, "c", 1);
	hasher_finish(h, hex);
	/* printf 'abc' | sha256sum */
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_fields_are_length_prefixed(void **state)
{
	(void)state;
	char hex[65], split[65], joined[65];
	struct hasher *h = hasher_new();
	hasher_add_str(h, "kernel", "6.12");
	hasher_add_str(h, "variant", NULL);
	hasher_finish(h, hex);
	/* printf 'kernel:4:6.12variant:0:' | sha256sum */
	assert_string_equal(hex, "2d6e0dfb08eb3e3570a1297507e4f49fd65905dca50f1411b3582c2daacd5d53");
	/* "ab" + "c" and "a" + "bc" are different keys once labelled */
	h = hasher_new();
	hasher_add_str(h, "x", "ab");
	hasher_add_str(h, "x", "c");
	hasher_finish(h, split);
	h = hasher_new();
	hasher_add_str(h, "x", "a");
	hasher_add_str(h, "x", "bc");
	hasher_finish(h, joined);
	assert_string_not_equal(split, joined);
	assert_int_equal(strlen(split), 64);
	assert_int_equal(strspn(split, "0123456789abcdef"), 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_of_bytes),
		cmocka_unit_test(test_fields_are_length_prefixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
