/* Prebuilt x86 kernels: header and embedded configuration (kernel-image.h). */
#include "kernel-image.h"

#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define SETUP_SECTS 0x1f1
#define HEADER_MAGIC 0x202
#define PROTOCOL 0x206
#define PAYLOAD_OFFSET 0x248
#define PAYLOAD_LENGTH 0x24c
#define MIN_PROTOCOL 0x0208
/* A decompressed kernel larger than this is not one. */
#define KERNEL_MAX (1u << 30)

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The protected-mode code's start and the payload within the file. */
static int payload_of(const unsigned char *img, size_t len, size_t *start, size_t *size,
		      struct strbuf *err)
{
	if (len < PAYLOAD_LENGTH + 4 || memcmp(img + HEADER_MAGIC, "HdrS", 4)) {
		strbuf_addstr(err, "not a bzImage (no \"HdrS\" boot header at 0x202)");
		return -1;
	}
	unsigned protocol = (unsigned)img[PROTOCOL] | (unsigned)img[PROTOCOL + 1] << 8;
	if (protocol < MIN_PROTOCOL) {
		strbuf_addf(err, "boot protocol %u.%02u is older than 2.08 (no payload fields)",
			    protocol >> 8, protocol & 0xff);
		return -1;
	}
	size_t sects = img[SETUP_SECTS] ? img[SETUP_SECTS] : 4;
	size_t pm = (sects + 1) * 512;
	size_t off = le32(img + PAYLOAD_OFFSET), n = le32(img + PAYLOAD_LENGTH);
	if (pm + off + n > len || !n) {
		strbuf_addstr(err, "its payload lies outside the file (cut short?)");
		return -1;
	}
	*start = pm + off;
	*size = n;
	return 0;
}

int kernel_image_check(const char *path, struct strbuf *err)
{
	size_t len;
	unsigned char *img = (unsigned char *)read_file(path, &len);
	if (!img) {
		strbuf_addf(err, "cannot read it: %s", strerror(errno));
		return -1;
	}
	size_t start, size;
	int rc = payload_of(img, len, &start, &size, err);
	free(img);
	return rc;
}

struct grow {
	unsigned char *buf;
	size_t len, cap;
};

/* At least 1 MiB to inflate into; 32 MiB at first, about what a kernel inflates to. */
static unsigned char *room(struct grow *g, size_t *avail)
{
	ALLOC_GROW(g->buf, g->len + (g->cap ? 1u << 20 : 32u << 20), g->cap);
	*avail = g->cap - g->len;
	return g->buf + g->len;
}

static int inflate_gzip(const unsigned char *in, size_t n, struct grow *out)
{
	z_stream z = { .next_in = (unsigned char *)in, .avail_in = (uInt)n };
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	int rc;
	do {
		size_t avail;
		z.next_out = room(out, &avail);
		z.avail_out = (uInt)(avail > UINT32_MAX ? UINT32_MAX : avail);
		rc = inflate(&z, Z_NO_FLUSH);
		out->len = (size_t)(z.next_out - out->buf);
	} while (rc == Z_OK && out->len < KERNEL_MAX);
	inflateEnd(&z);
	/* the bzImage's payload ends with the kernel's size: what follows the stream is ignored */
	return rc == Z_STREAM_END ? 0 : -1;
}

static int unxz(const unsigned char *in, size_t n, struct grow *out, bool alone)
{
	lzma_stream s = LZMA_STREAM_INIT;
	if ((alone ? lzma_alone_decoder(&s, UINT64_MAX) : lzma_stream_decoder(&s, UINT64_MAX, 0)) !=
	    LZMA_OK)
		return -1;
	s.next_in = in;
	s.avail_in = n;
	lzma_ret rc;
	do {
		size_t avail;
		s.next_out = room(out, &avail);
		s.avail_out = avail;
		rc = lzma_code(&s, LZMA_FINISH);
		out->len = (size_t)(s.next_out - out->buf);
	} while (rc == LZMA_OK && out->len < KERNEL_MAX);
	lzma_end(&s);
	return rc == LZMA_STREAM_END ? 0 : -1;
}

static int unzstd(const unsigned char *in, size_t n, struct grow *out)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	if (!d)
		return -1;
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t rc;
	do {
		size_t avail;
		ZSTD_outBuffer ob = { room(out, &avail), avail, 0 };
		rc = ZSTD_decompressStream(d, &ob, &ib);
		out->len += ob.pos;
	} while (!ZSTD_isError(rc) && rc != 0 && ib.pos < ib.size && out->len < KERNEL_MAX);
	ZSTD_freeDStream(d);
	/* rc 0: the frame is complete (the kernel's size after it is not a frame) */
	return !ZSTD_isError(rc) && rc == 0 ? 0 : -1;
}

static int decompress(const unsigned char *p, size_t n, struct grow *out, struct strbuf *err)
{
	static const struct {
		const char *name, *magic;
		size_t len;
	} unread[] = { { "lz4", "\x02\x21\x4c\x18", 4 }, { "lzo", "\x89LZO", 4 }, { "bzip2", "BZh", 3 } };
	int rc;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		rc = inflate_gzip(p, n, out);
	else if (n >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
		rc = unxz(p, n, out, false);
	else if (n >= 3 && p[0] == 0x5d && p[1] == 0 && p[2] == 0)
		rc = unxz(p, n, out, true);
	else if (n >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4))
		rc = unzstd(p, n, out);
	else {
		for (size_t i = 0; i < sizeof(unread) / sizeof(unread[0]); i++)
			if (n >= unread[i].len && !memcmp(p, unread[i].magic, unread[i].len)) {
				strbuf_addf(err, "its kernel is compressed with %s, which the lab does not "
					    "read (gzip, xz, lzma and zstd it does)", unread[i].name);
				return -1;
			}
		strbuf_addstr(err, "its payload is in no compression the lab knows");
		return -1;
	}
	if (rc < 0)
		strbuf_addstr(err, "its compressed kernel does not decompress (a damaged image?)");
	return rc;
}

static const void *find(const void *hay, size_t n, const char *needle)
{
	return memmem(hay, n, needle, strlen(needle));
}

char *kernel_config_in(const unsigned char *kernel, size_t len, struct strbuf *err)
{
	const unsigned char *st = find(kernel, len, "IKCFG_ST");
	if (!st) {
		strbuf_addstr(err, "it carries no configuration (built without CONFIG_IKCONFIG=y)");
		return NULL;
	}
	st += strlen("IKCFG_ST");
	const unsigned char *ed = find(st, len - (size_t)(st - kernel), "IKCFG_ED");
	struct grow out = { 0 };
	if (!ed || inflate_gzip(st, (size_t)(ed - st), &out) < 0) {
		strbuf_addstr(err, "its embedded configuration (IKCONFIG) does not decompress");
		free(out.buf);
		return NULL;
	}
	char *text = xstrndup((const char *)out.buf, out.len);
	free(out.buf);
	return text;
}

char *kernel_image_config(const char *path, struct strbuf *err)
{
	size_t len, start, size;
	unsigned char *img = (unsigned char *)read_file(path, &len);
	if (!img) {
		strbuf_addf(err, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	char *config = NULL;
	struct grow kernel = { 0 };
	if (payload_of(img, len, &start, &size, err) == 0 &&
	    decompress(img + start, size, &kernel, err) == 0)
		config = kernel_config_in(kernel.buf, kernel.len, err);
	free(kernel.buf);
	free(img);
	return config;
}

char *vmlinux_config(const char *path, struct strbuf *err)
{
	size_t len;
	unsigned char *data = (unsigned char *)read_file(path, &len);
	if (!data) {
		strbuf_addf(err, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	char *config = len >= 4 && !memcmp(data, "\x7f" "ELF", 4) ? kernel_config_in(data, len, err)
								  : NULL;
	if (!config && len >= 4 && memcmp(data, "\x7f" "ELF", 4))
		strbuf_addstr(err, "not an ELF file (a vmlinux is one)");
	free(data);
	return config;
}
