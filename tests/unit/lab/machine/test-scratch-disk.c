/* Unit tests: the selftests' scratch disk (lab/machine/scratch-disk.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/machine/scratch-disk.h"

static char root[] = "/tmp/oomlab-test-scratch-XXXXXX";

/* The 16-bit word at OFFSET of PATH, little-endian; -1 when unreadable. */
static long word_at(const char *path, long offset)
{
	unsigned char b[2];
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	long v = fseek(f, offset, SEEK_SET) == 0 && fread(b, 1, 2, f) == 2 ? (long)(b[0] | b[1] << 8) : -1;
	fclose(f);
	return v;
}

/* An ext4 file system of the size asked for (the superblock's magic 0xEF53 at
 * 1024 + 56), still sparse: the host writes metadata, not the disk. */
static void makes_a_sparse_ext4(void **state)
{
	(void)state;
	char *path = xasprintf("%s/" SCRATCH_DISK_IMAGE, root);
	struct strbuf err = STRBUF_INIT;
	unsigned long long size = 256ULL << 20;
	assert_int_equal(scratch_disk_make(path, size, &err), 0);
	assert_int_equal(word_at(path, 1024 + 56), 0xEF53);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((unsigned long long)st.st_size, size);
	/* lazily: 400 KB of 256 MiB here; the inode tables and journal zeroed: 25 MB */
	if ((unsigned long long)st.st_blocks * 512 > size / 64)
		fail_msg("%s holds %lld bytes of %llu: not sparse", path, (long long)st.st_blocks * 512, size);
	strbuf_release(&err);
	free(path);
}

/* A folder that cannot hold it: -1, the reason naming the path. */
static void says_why_it_cannot(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	char *path = xasprintf("%s/no/such/folder/" SCRATCH_DISK_IMAGE, root);
	assert_int_equal(scratch_disk_make(path, 64ULL << 20, &err), -1);
	assert_non_null(strstr(err.buf, path));
	strbuf_release(&err);
	free(path);
}

/* reproduce.sh's lines make the image the same way. */
static void shell_lines_make_it_too(void **state)
{
	(void)state;
	char *text = scratch_disk_shell("d.img", 64ULL << 20);
	assert_non_null(strstr(text, "truncate -s 67108864 d.img\n"));
	assert_non_null(strstr(text, "/sbin/mkfs.ext4 "));
	assert_true(ends_with(text, " d.img\n"));
	free(text);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(makes_a_sparse_ext4),
		cmocka_unit_test(says_why_it_cannot),
		cmocka_unit_test(shell_lines_make_it_too),
	};
	return cmocka_run_group_tests_name("scratch-disk", tests, setup, teardown);
}
