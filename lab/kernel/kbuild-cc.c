/* The kernel build's compiler and the check of what it built (kbuild-cc.h). */
#include "kbuild-cc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/paths.h"

/*
 * Kbuild gives the source last ($(CC) ... -c -o $@ $<). A last argument
 * that is no file ("-" for stdin, in the Makefiles' compiler probes) goes
 * to ccache, which passes what it cannot cache to the compiler.
 */
static const char wrapper_text[] =
	"#!/bin/sh\n"
	"# oomlab's kernel compiler (written by lab/kernel/kbuild-cc.c): ccache, but\n"
	"# the compiler itself for a source with .incbin, whose included file\n"
	"# ccache never hashes (piggy.S: the compressed kernel).\n"
	"for src; do :; done\n"
	"if [ -f \"$src\" ] && grep -q '[.]incbin' \"$src\"; then\n"
	"\texec \"$@\"\n"
	"fi\n"
	"exec ccache \"$@\"\n";

char *kbuild_cc_wrapper(struct strbuf *err)
{
	char *dir = xasprintf("%s/tools", cache_root());
	char *path = xasprintf("%s/kernel-cc", dir);
	char *have = read_file(path, NULL);
	int rc = 0;
	/* written atomically: a build running the old one never sees half of it */
	if (!have || strcmp(have, wrapper_text)) {
		if (mkdir_p(dir, 0755) < 0) {
			strbuf_addf(err, "cannot create %s: %s", dir, strerror(errno));
			rc = -1;
		} else {
			char *tmp = xasprintf("%s.%d", path, (int)getpid());
			rc = write_script(tmp, wrapper_text, err);
			if (rc == 0 && (rc = rename(tmp, path)) < 0)
				strbuf_addf(err, "cannot move %s to %s: %s", tmp, path, strerror(errno));
			if (rc < 0)
				unlink(tmp);
			free(tmp);
		}
	}
	free(have);
	free(dir);
	if (rc < 0) {
		free(path);
		return NULL;
	}
	return path;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The x86 boot protocol's header (Documentation/arch/x86/boot.rst). */
#define SETUP_SECTS 0x1f1
#define PAYLOAD_OFFSET 0x248
#define PAYLOAD_LENGTH 0x24c

int kbuild_check_payload(const char *bzimage, const char *compressed_dir, struct strbuf *err)
{
	static const char *const kinds[] = { "xz", "gz", "lz4", "zst", "lzma", "lzo", "bz2", NULL };
	size_t len = 0;
	unsigned char *image = (unsigned char *)read_file(bzimage, &len);
	if (!image) {
		strbuf_addf(err, "cannot read %s: %s", bzimage, strerror(errno));
		return -1;
	}
	int rc = -1;
	if (len < PAYLOAD_LENGTH + 4) {
		strbuf_addf(err, "%s is too short for a bzImage (%zu bytes)", bzimage, len);
		goto out;
	}
	/* the protected-mode kernel follows the setup sectors (0 of them means 4) */
	size_t sects = image[SETUP_SECTS] ? image[SETUP_SECTS] : 4;
	size_t at = (sects + 1) * 512 + le32(image + PAYLOAD_OFFSET), n = le32(image + PAYLOAD_LENGTH);
	if (at > len || n > len - at) {
		strbuf_addf(err, "%s: its payload (%zu bytes at %zu) lies outside its %zu bytes", bzimage, n,
			    at, len);
		goto out;
	}
	bool found = false;
	for (const char *const *k = kinds; *k && rc < 0; k++) {
		char *path = xasprintf("%s/vmlinux.bin.%s", compressed_dir, *k);
		size_t plen = 0;
		char *payload = read_file(path, &plen);
		if (payload) {
			found = true;
			if (plen == n && !memcmp(payload, image + at, n))
				rc = 0;
		}
		free(payload);
		free(path);
	}
	if (rc < 0)
		strbuf_addf(err, found ? "%s does not carry this build's compressed kernel (%s/vmlinux.bin.*): "
					 "a stale object put another kernel in it"
				       : "%s: no compressed kernel of this build in %s to check it against",
			    bzimage, compressed_dir);
out:
	free(image);
	return rc;
}
