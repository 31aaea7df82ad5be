// SPDX-License-Identifier: GPL-2.0-only
#include "hash.h"

#include <errno.h>
#include <stdio.h>

#include <openssl/evp.h>

static void to_hex(const unsigned char *md, unsigned int n, char *hex)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

int hash_sha256(const void *data, size_t len, char hex[HASH_SHA256_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
		return -1;
	to_hex(md, mdlen, hex);
	return 0;
}

int hash_file_sha256(const char *path, char hex[HASH_SHA256_HEX])
{
	unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	size_t n;
	int rc = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto out;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (!EVP_DigestUpdate(ctx, buf, n))
			goto out;
	if (ferror(f) || !EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen != 32)
		goto out;
	to_hex(md, mdlen, hex);
	rc = 0;
out:
	if (rc && !errno)
		errno = EIO;
	EVP_MD_CTX_free(ctx);
	fclose(f);
	return rc;
}
