// SPDX-License-Identifier: GPL-2.0-only
/* hash.h: SHA-256 test vectors (FIPS 180-2 "abc", the empty input, a
 * million 'a'), and an unreadable file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/hash.h"

static char path[] = "/tmp/thpbench-hash-XXXXXX";

static void digest_of(const char *data, size_t len, size_t times,
		      char hex[HASH_SHA256_HEX])
{
	FILE *f = fopen(path, "w");
	size_t i;

	assert_non_null(f);
	for (i = 0; i < times; i++)
		assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	assert_int_equal(hash_file_sha256(path, hex), 0);
}

static void test_vectors(void **state)
{
	char hex[HASH_SHA256_HEX];

	(void)state;
	digest_of("abc", 3, 1, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	digest_of("", 0, 1, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* Longer than the read buffer. */
	digest_of("aaaaaaaaaa", 10, 100000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	unlink(path);
	assert_int_equal(hash_file_sha256(path, hex), -1);
	assert_int_equal(hash_sha256("abc", 3, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
	};
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
