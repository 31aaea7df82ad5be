// SPDX-License-Identifier: GPL-2.0-only
#include "history_fingerprint.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MEM_ROUND_KB (256 * 1024)

void history_hash_json(const json_t *v, char out[HISTORY_HASH_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, i;
	char *s = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);

	if (!s || !EVP_Digest(s, strlen(s), md, &len, EVP_sha256(), NULL))
		tb_die("cannot hash a JSON document (out of memory?)");
	free(s);
	for (i = 0; i < len && i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[2 * i] = 0;
}

static json_t *copy_or_null(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return v ? json_deep_copy(v) : json_null();
}

/* The command line without the tokens that name the booted kernel. */
static json_t *cmdline_identity(const json_t *env)
{
	const char *s = json_string_value(json_object_get(env, "cmdline"));
	char *copy, *tok, *save = NULL;
	size_t n = 0, cap;
	char *out;

	if (!s)
		return json_null();
	copy = xstrdup(s);
	cap = strlen(s) + 1;
	out = xcalloc(1, cap);
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, "BOOT_IMAGE=", 11) || !strncmp(tok, "initrd=", 7))
			continue;
		n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " " : "", tok);
	}
	free(copy);
	json_t *j = json_string(out);
	free(out);
	return j;
}

static json_t *thp_identity(const json_t *env)
{
	static const char *const keys[] = {
		"enabled", "defrag", "shmem_enabled", "use_zero_page",
		"khugepaged/defrag", "khugepaged/max_ptes_none",
		"khugepaged/max_ptes_swap", "khugepaged/max_ptes_shared",
		"khugepaged/pages_to_scan", "khugepaged/scan_sleep_millisecs",
		"khugepaged/alloc_sleep_millisecs",
	};
	json_t *thp = json_object_get(env, "thp"), *o = json_object();
	size_t i;

	if (!json_is_object(thp))
		return o;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		json_object_set_new(o, keys[i], copy_or_null(thp, keys[i]));
	return o;
}

static json_t *mem_identity(const json_t *env)
{
	json_t *v = json_object_get(env, "mem_total_kb");
	json_int_t kb;

	if (!json_is_integer(v) || (kb = json_integer_value(v)) < 0)
		return json_null();
	return json_integer((kb + MEM_ROUND_KB / 2) / MEM_ROUND_KB * MEM_ROUND_KB);
}

json_t *history_host_identity(const json_t *env)
{
	json_t *id = json_object();

	json_object_set_new(id, "cpu", copy_or_null(env, "cpu"));
	json_object_set_new(id, "microcode", copy_or_null(env, "microcode"));
	json_object_set_new(id, "nr_cpus", copy_or_null(env, "nr_cpus"));
	json_object_set_new(id, "mem_kb_rounded", mem_identity(env));
	json_object_set_new(id, "numa_nodes", copy_or_null(env, "numa_nodes"));
	json_object_set_new(id, "machine", copy_or_null(env, "machine"));
	json_object_set_new(id, "cmdline", cmdline_identity(env));
	json_object_set_new(id, "thp", thp_identity(env));
	json_object_set_new(id, "hugetlb", copy_or_null(env, "hugetlb"));
	json_object_set_new(id, "governor", copy_or_null(env, "governor"));
	return id;
}

static json_t *case_definition(const struct tb_case *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "workload", json_string(c->workload ? c->workload : ""));
	json_object_set_new(o, "args", strv_to_json(c->args, c->nargs));
	json_object_set_new(o, "env", strv_to_json(c->env, c->nenv));
	json_object_set_new(o, "thp", json_string(c->thp ? c->thp : ""));
	json_object_set_new(o, "label", json_string(c->label ? c->label : ""));
	json_object_set_new(o, "expect_huge", json_boolean(c->expect_huge));
	json_object_set_new(o, "settings", c->settings ? json_deep_copy(c->settings)
						       : json_object());
	return o;
}

void history_suite_hash(const struct tb_results *r, char out[HISTORY_HASH_HEX])
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < r->ncases; i++)
		json_array_append_new(a, case_definition(&r->cases[i]));
	history_hash_json(a, out);
	json_decref(a);
}
