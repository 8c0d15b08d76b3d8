/* The kernel build's compiler (ccache, but not for .incbin sources) and the
 * check that a bzImage carries its own build's compressed kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/run-command.h"
#include "common/util.h"
#include "lab/kernel/kbuild-cc.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/test-kbuild-cc.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

/* A bzImage of SECTS setup sectors (0 means 4, as in the boot protocol)
 * whose header puts PAYLOAD at OFFSET. */
static char *fake_bzimage(const char *name, unsigned sects, unsigned offset, const char *payload)
{
	size_t n = strlen(payload), at = ((sects ? sects : 4) + 1) * 512 + offset, len = at + n + 64;
	unsigned char *image = calloc(1, len);
	image[0x1f1] = (unsigned char)sects;
	for (int i = 0; i < 4; i++) {
		image[0x248 + i] = (unsigned char)(offset >> (8 * i));
		image[0x24c + i] = (unsigned char)(n >> (8 * i));
	}
	memcpy(image + at, payload, n);
	char *path = xasprintf("%s/%s", root, name);
	assert_int_equal(write_file_atomic(path, image, len), 0);
	free(image);
	return path;
}

static void test_payload_of_this_build_passes(void **state)
{
	(void)state;
	char *image = fake_bzimage("good", 2, 40, "the new kernel's bytes");
	scratch_put(root, "good-obj/vmlinux.bin.xz", "the new kernel's bytes");
	char *dir = xasprintf("%s/good-obj", root);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kbuild_check_payload(image, dir, &err), 0);
	/* 0 setup sectors in the header mean 4 */
	char *four = fake_bzimage("good-0", 0, 40, "the new kernel's bytes");
	assert_int_equal(kbuild_check_payload(four, dir, &err), 0);
	strbuf_release(&err);
	free(four);
	free(dir);
	free(image);
}

/* A stale piggy.o: the image's payload has the length of this build's, other bytes. */
static void test_payload_of_another_kernel_fails(void **state)
{
	(void)state;
	char *image = fake_bzimage("stale", 0, 8, "the OLD kernel's bytes");
	scratch_put(root, "stale-obj/vmlinux.bin.xz", "the new kernel's bytes");
	char *dir = xasprintf("%s/stale-obj", root);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kbuild_check_payload(image, dir, &err), -1);
	assert_non_null(strstr(err.buf, "does not carry this build's compressed kernel"));
	strbuf_reset(&err);
	/* and a build that left no compressed kernel to compare with says so */
	char *empty = xasprintf("%s/no-obj", root);
	assert_int_equal(kbuild_check_payload(image, empty, &err), -1);
	assert_non_null(strstr(err.buf, "no compressed kernel of this build"));
	strbuf_release(&err);
	free(empty);
	free(dir);
	free(image);
}

static void test_payload_outside_the_image_fails(void **state)
{
	(void)state;
	char *image = fake_bzimage("short", 1, 4000, "x");
	/* the header's offset pointed past the file's end */
	char *path = xasprintf("%s/short", root);
	size_t len;
	char *bytes = read_file(path, &len);
	assert_int_equal(write_file_atomic(path, bytes, 1024 + 100), 0);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kbuild_check_payload(image, root, &err), -1);
	assert_non_null(strstr(err.buf, "lies outside"));
	strbuf_release(&err);
	free(bytes);
	free(path);
	free(image);
}

/* Runs the wrapper with a stand-in ccache and compiler on PATH; what ran. */
static char *compile_with(const char *wrapper, const char *last_arg)
{
	const char *argv[] = { wrapper, "stand-in-cc", "-c", "-o", "x.o", last_arg, NULL };
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(capture_command(argv, root, &out), 0);
	return strbuf_detach(&out);
}

static void test_wrapper_skips_ccache_for_incbin(void **state)
{
	(void)state;
	char *cache = xasprintf("%s/cache", root), *bin = xasprintf("%s/bin", root);
	setenv("OOMLAB_CACHE", cache, 1);
	scratch_put(root, "bin/ccache", "#!/bin/sh\necho ccache \"$@\"\n");
	scratch_put(root, "bin/stand-in-cc", "#!/bin/sh\necho compiler \"$@\"\n");
	char *ccache = xasprintf("%s/ccache", bin), *cc = xasprintf("%s/stand-in-cc", bin);
	assert_int_equal(chmod(ccache, 0755), 0);
	assert_int_equal(chmod(cc, 0755), 0);
	char *path = xasprintf("%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	scratch_put(root, "piggy.S", ".section \".rodata..compressed\"\n.incbin \"vmlinux.bin.xz\"\n");
	scratch_put(root, "plain.c", "int f(void) { return 0; }\n");

	struct strbuf err = STRBUF_INIT;
	char *wrapper = kbuild_cc_wrapper(&err);
	assert_non_null(wrapper);
	char *ran = compile_with(wrapper, "piggy.S");
	assert_string_equal(ran, "compiler -c -o x.o piggy.S\n");
	free(ran);
	ran = compile_with(wrapper, "plain.c");
	assert_string_equal(ran, "ccache stand-in-cc -c -o x.o plain.c\n");
	free(ran);
	/* a probe reading stdin ("-") is no file to look into */
	ran = compile_with(wrapper, "-");
	assert_string_equal(ran, "ccache stand-in-cc -c -o x.o -\n");
	free(ran);
	/* a second call finds the same file and keeps it */
	char *again = kbuild_cc_wrapper(&err);
	assert_string_equal(again, wrapper);
	unsetenv("OOMLAB_CACHE");
	strbuf_release(&err);
	free(again);
	free(wrapper);
	free(path);
	free(cc);
	free(ccache);
	free(bin);
	free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payload_of_this_build_passes),
		cmocka_unit_test(test_payload_of_another_kernel_fails),
		cmocka_unit_test(test_payload_outside_the_image_fails),
		cmocka_unit_test(test_wrapper_skips_ccache_for_incbin),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
