/* Content hashes (SHA-256 from libcrypto) for cache keys. */
#include "hash.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
