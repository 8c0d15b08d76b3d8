/* reproduce.sh (reproduce-script.h). */
#include "reproduce-script.h"

#include <stdlib.h>

#include "common/util.h"
#include "lab/machine/scratch-disk.h"

char *reproduce_script_text(const char *const *argv, size_t n, const char *initramfs,
			    unsigned long long slow_disk_size, unsigned long long scratch_disk_size)
{
	char *slow = slow_disk_size ? xasprintf("truncate -s %llu slow-disk.img\n", slow_disk_size)
				    : xstrdup("");
	char *scratch = scratch_disk_size ? scratch_disk_shell(SCRATCH_DISK_IMAGE, scratch_disk_size)
					  : xstrdup("");
	char *image = shell_quote(initramfs), *cmdline = shell_join(argv, n);
	char *text = xasprintf(
		"#!/bin/sh\n"
		"# Boots this trial again: same kernel, images, job and QEMU command line.\n"
		"# Channel files are rewritten in the folder given as $1 (default: a new temporary one).\n"
		"set -e\n"
		"here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
		"out=${1:-$(mktemp -d /tmp/oomlab-reproduce.XXXXXX)}\n"
		"mkdir -p \"$out\"\n"
		"cd \"$out\"\n"
		"cat \"$here/job.cpio\" %s > initrd.img\n"
		"%s%s"
		"exec %s\n", image, slow, scratch, cmdline);
	free(slow);
	free(scratch);
	free(image);
	free(cmdline);
	return text;
}
