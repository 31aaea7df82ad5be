/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hash - SHA-256 of a file (OpenSSL's libcrypto), the one content hash of
 * thpbench: env.kernel_config, and the kernel A/B flow's config_sha256
 * (sha256sum) name the same bytes with the same digest.
 */
#ifndef THPBENCH_HASH_H
#define THPBENCH_HASH_H

#include <stddef.h>

#define HASH_SHA256_HEX 65	/* 64 hex digits and the NUL */

/* Lower-case hex digest of len bytes at data into hex; 0, or -1. */
int hash_sha256(const void *data, size_t len, char hex[HASH_SHA256_HEX]);

/* The same of the file at path; -1 (errno) when it cannot be read. */
int hash_file_sha256(const char *path, char hex[HASH_SHA256_HEX]);

#endif
