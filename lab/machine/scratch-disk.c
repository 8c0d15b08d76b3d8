/* The selftests' scratch disk (scratch-disk.h). */
#include "scratch-disk.h"

#include <string.h>

#include "common/run-command.h"

/*
 * mkfs.ext4's words, before the image: by its path (a user's PATH has no
 * /sbin on Debian), quiet, no
 * questions, no blocks reserved for root, and the inode tables and journal
 * left to be zeroed lazily, so that the host writes a few megabytes, not
 * the whole disk (the file stays sparse; the guest's kernel zeroes the
 * tables in the background only if the test runs long enough).
 */
static const char *const mkfs_words[] = {
	"/sbin/mkfs.ext4", "-q", "-F", "-m", "0", "-E", "lazy_itable_init=1,lazy_journal_init=1,nodiscard",
};
#define MKFS_WORDS (sizeof(mkfs_words) / sizeof(mkfs_words[0]))

int scratch_disk_make(const char *path, unsigned long long size, struct strbuf *err)
{
	if (sparse_file_make(path, size, err) < 0)
		return -1;
	const char *argv[MKFS_WORDS + 2];
	memcpy(argv, mkfs_words, sizeof(mkfs_words));
	argv[MKFS_WORDS] = path;
	argv[MKFS_WORDS + 1] = NULL;
	struct strbuf out = STRBUF_INIT;
	int rc = capture_command_or_say(argv, &out, err);
	strbuf_release(&out);
	return rc;
}

char *scratch_disk_shell(const char *name, unsigned long long size)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "truncate -s %llu %s\n", size, name);
	for (size_t i = 0; i < MKFS_WORDS; i++)
		strbuf_addf(&sb, "%s ", mkfs_words[i]);
	strbuf_addf(&sb, "%s\n", name);
	return strbuf_detach(&sb);
}
