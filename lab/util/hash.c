/* Content hashes (SHA-256 from libcrypto) for cache keys. */
#include "hash.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "common/util.h"

struct hasher {
	EVP_MD_CTX *ctx;
};

struct hasher *hasher_new(void)
{
	struct hasher *h = xmalloc(sizeof(*h));
	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1)
		die("libcrypto cannot initialise SHA-256");
	return h;
}

void hasher_add(struct hasher *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

void hasher_add_field(struct hasher *h, const char *label, const void *data, size_t len)
{
	char header[128];
	int n = snprintf(header, sizeof(header), "%s:%zu:", label, len);
	hasher_add(h, header, (size_t)n);
	hasher_add(h, data, len);
}

void hasher_add_str(struct hasher *h, const char *label, const char *s)
{
	hasher_add_field(h, label, s ? s : "", s ? strlen(s) : 0);
}

void hasher_finish(struct hasher *h, char hex[65])
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	EVP_DigestFinal_ex(h->ctx, digest, &len);
	EVP_MD_CTX_free(h->ctx);
	free(h);
	for (unsigned i = 0; i < 32 && i < len; i++)
		sprintf(hex + 2 * i, "%02x", digest[i]);
	hex[64] = '\0';
}

int hasher_add_file(struct hasher *h, const char *label, const char *path, struct strbuf *err)
{
	size_t len;
	char *data = read_file(path, &len);
	if (!data) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	hasher_add_field(h, label, data, len);
	free(data);
	return 0;
}

int hash_file_content(const char *path, char hex[65])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct hasher *h = hasher_new();
	static char buf[1 << 16];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		hasher_add(h, buf, (size_t)n);
	int saved = errno;
	close(fd);
	hasher_finish(h, hex);
	errno = saved;
	return n < 0 ? -1 : 0;
}
