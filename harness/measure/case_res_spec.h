/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * case_res_spec - what a suite case may write after swap, mount, memcg,
 * zswap and service (the grammar in case_res.h), checked when the suite is
 * parsed, apart from making them (case_res.h), so the parser and its
 * fuzzer need nothing of the session, and of the system layer only the
 * service recipe (system/service_recipe.c, a parser over util).
 */
#ifndef THPBENCH_CASE_RES_SPEC_H
#define THPBENCH_CASE_RES_SPEC_H

#include <stddef.h>

/* key is swap, mount, memcg or zswap: is val a spec of it? 0, or -1
 * with err. */
int case_res_check(const char *key, const char *val, char *err,
		   size_t errlen);

#endif
