// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcidb_check - validate a KCIDB report against the parts of the I/O
 * schema v5 (kcidb-io kcidb_io/schema/v05_03.py) that thpbench emits:
 *
 *   kcidb_check [--origin NAME] FILE
 *
 *   - the top level an object of version {major 5, minor >= 0} and the
 *     lists checkouts, builds, tests (issues, incidents allowed, unread);
 *   - each object: its required fields (checkout id, origin; build
 *     checkout_id, id, origin; test build_id, id, origin), the type of
 *     every field it has, no field the schema does not know
 *     (additionalProperties false);
 *   - ids and *_id "ORIGIN:..." with ORIGIN [a-z0-9_]+, an object's id
 *     under its own origin, with --origin every origin NAME;
 *   - status one of FAIL ERROR MISS PASS DONE SKIP; test path
 *     ^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*$ or ""; number {value (a number,
 *     required), unit, prefix metric|binary}; start_time RFC 3339;
 *   - no null anywhere (the schema allows none);
 *   - and what thpbench adds: ids unique within each list.
 * One line per violation on stderr, "FILE: WHERE: WHAT"; exit 0 valid,
 * 1 invalid, 2 usage or an unreadable/unparsable file.
 */
#include <jansson.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *file;
static const char *want_origin;
static int errors;
static regex_t re_origin, re_id, re_path, re_time;

static void bad(const char *where, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", file, where, what);
	errors++;
}

/* WHERE.KEY (or WHERE[I] when key is NULL) into w, cut when too long. */
static void at(char *w, size_t len, const char *where, const char *key,
	       size_t i)
{
	int n = key ? snprintf(w, len, "%s.%s", where, key) :
		      snprintf(w, len, "%s[%zu]", where, i);

	if (n < 0 || (size_t)n >= len)
		w[len - 1] = '\0';
}

static bool match(const regex_t *re, const char *s)
{
	return !regexec(re, s, 0, NULL, 0);
}

/* No null at any depth. */
static void no_nulls(const json_t *v, const char *where)
{
	char w[512];
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_null(v)) {
		bad(where, "null (KCIDB allows no null property)");
		return;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x) {
			at(w, sizeof(w), where, k, 0);
			no_nulls(x, w);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) {
			at(w, sizeof(w), where, NULL, i);
			no_nulls(x, w);
		}
	}
}

enum ftype { T_STR, T_ID, T_ORIGIN, T_TIME, T_STATUS, T_PATH, T_OBJ,
	     T_NUM, T_BOOL, T_ARR, T_NUMBER, T_ENV, T_SHA256 };

struct field {
	const char *name;
	enum ftype type;
	bool required;
};

static const struct field checkout_fields[] = {
	{ "id", T_ID, true }, { "origin", T_ORIGIN, true },
	{ "_timestamp", T_TIME, false }, { "tree_name", T_STR, false },
	{ "git_repository_url", T_STR, false },
	{ "git_commit_hash", T_STR, false }, { "git_commit_name", T_STR, false },
	{ "git_commit_tags", T_ARR, false },
	{ "git_commit_message", T_STR, false },
	{ "git_repository_branch", T_STR, false },
	{ "git_repository_branch_tip", T_BOOL, false },
	{ "patchset_files", T_ARR, false }, { "patchset_hash", T_SHA256, false },
	{ "message_id", T_STR, false }, { "comment", T_STR, false },
	{ "start_time", T_TIME, false }, { "log_url", T_STR, false },
	{ "log_excerpt", T_STR, false }, { "valid", T_BOOL, false },
	{ "contacts", T_ARR, false }, { "origin_builds_finish_time", T_TIME, false },
	{ "origin_tests_finish_time", T_TIME, false }, { "misc", T_OBJ, false },
	{ NULL, T_STR, false },
};

static const struct field build_fields[] = {
	{ "checkout_id", T_ID, true }, { "id", T_ID, true },
	{ "origin", T_ORIGIN, true }, { "_timestamp", T_TIME, false },
	{ "comment", T_STR, false }, { "start_time", T_TIME, false },
	{ "duration", T_NUM, false }, { "architecture", T_STR, false },
	{ "command", T_STR, false }, { "compiler", T_STR, false },
	{ "input_files", T_ARR, false }, { "output_files", T_ARR, false },
	{ "config_name", T_STR, false }, { "config_url", T_STR, false },
	{ "log_url", T_STR, false }, { "log_excerpt", T_STR, false },
	{ "status", T_STATUS, false }, { "misc", T_OBJ, false },
	{ NULL, T_STR, false },
};

static const struct field test_fields[] = {
	{ "build_id", T_ID, true }, { "id", T_ID, true },
	{ "origin", T_ORIGIN, true }, { "_timestamp", T_TIME, false },
	{ "environment", T_ENV, false }, { "path", T_PATH, false },
	{ "comment", T_STR, false }, { "log_url", T_STR, false },
	{ "log_excerpt", T_STR, false }, { "status", T_STATUS, false },
	{ "number", T_NUMBER, false }, { "start_time", T_TIME, false },
	{ "duration", T_NUM, false }, { "output_files", T_ARR, false },
	{ "input_files", T_ARR, false }, { "misc", T_OBJ, false },
	{ NULL, T_STR, false },
};

static bool is_status(const char *s)
{
	static const char *const ok[] = { "FAIL", "ERROR", "MISS", "PASS",
					  "DONE", "SKIP" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(s, ok[i]))
			return true;
	return false;
}

static void check_number(const json_t *v, const char *where)
{
	char w[512];
	const char *k, *p;
	json_t *x;

	json_object_foreach((json_t *)v, k, x) {
		at(w, sizeof(w), where, k, 0);
		if (!strcmp(k, "value")) {
			if (!json_is_number(x))
				bad(w, "not a number");
		} else if (!strcmp(k, "unit")) {
			if (!json_is_string(x))
				bad(w, "not a string");
		} else if (!strcmp(k, "prefix")) {
			p = json_string_value(x);
			if (!p || (strcmp(p, "metric") && strcmp(p, "binary")))
				bad(w, "not \"metric\" or \"binary\"");
		} else {
			bad(w, "not a property of number");
		}
	}
	if (!json_object_get(v, "value")) {
		at(w, sizeof(w), where, "value", 0);
		bad(w, "missing (required)");
	}
}

static void check_env(const json_t *v, const char *where)
{
	char w[512];
	const char *k;
	json_t *x;

	json_object_foreach((json_t *)v, k, x) {
		at(w, sizeof(w), where, k, 0);
		if (!strcmp(k, "comment")) {
			if (!json_is_string(x))
				bad(w, "not a string");
		} else if (!strcmp(k, "misc")) {
			if (!json_is_object(x))
				bad(w, "not an object");
		} else if (!strcmp(k, "compatible")) {
			if (!json_is_array(x))
				bad(w, "not an array");
		} else {
			bad(w, "not a property of environment");
		}
	}
}

/* One field of a known type; s its string value when it is one. */
static void check_type(const json_t *x, enum ftype t, const char *w)
{
	const char *s = json_string_value(x);
	bool str = t == T_STR || t == T_ID || t == T_ORIGIN || t == T_TIME ||
		   t == T_STATUS || t == T_PATH || t == T_SHA256;

	if (json_is_null(x))
		return;		/* said by no_nulls */
	if (str && !s) {
		bad(w, "not a string");
		return;
	}
	switch (t) {
	case T_ID:
		if (!match(&re_id, s))
			bad(w, "not an id of the form ORIGIN:... (ORIGIN [a-z0-9_]+)");
		break;
	case T_ORIGIN:
		if (!match(&re_origin, s))
			bad(w, "not an origin ([a-z0-9_]+)");
		else if (want_origin && strcmp(s, want_origin))
			bad(w, "not the origin asked for (--origin)");
		break;
	case T_TIME:
		if (!match(&re_time, s))
			bad(w, "not an RFC 3339 date-time");
		break;
	case T_STATUS:
		if (!is_status(s))
			bad(w, "not one of FAIL ERROR MISS PASS DONE SKIP");
		break;
	case T_PATH:
		if (!match(&re_path, s))
			bad(w, "not a dot-separated path of [a-zA-Z0-9_-] parts");
		break;
	case T_SHA256:
		if (*s && (strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64))
			bad(w, "not empty or a sha256 hash");
		break;
	case T_OBJ:
		if (!json_is_object(x))
			bad(w, "not an object");
		break;
	case T_NUM:
		if (!json_is_number(x))
			bad(w, "not a number");
		break;
	case T_BOOL:
		if (!json_is_boolean(x))
			bad(w, "not a boolean");
		break;
	case T_ARR:
		if (!json_is_array(x))
			bad(w, "not an array");
		break;
	case T_NUMBER:
		if (!json_is_object(x))
			bad(w, "not an object");
		else
			check_number(x, w);
		break;
	case T_ENV:
		if (!json_is_object(x))
			bad(w, "not an object");
		else
			check_env(x, w);
		break;
	default:
		break;
	}
}

static const struct field *find(const struct field *f, const char *k)
{
	for (; f->name; f++)
		if (!strcmp(f->name, k))
			return f;
	return NULL;
}

static void check_object(const json_t *o, const struct field *fields,
			 const char *where)
{
	char w[512];
	const struct field *f;
	const char *k, *id, *origin;
	json_t *x;
	size_t n;

	if (!json_is_object(o)) {
		bad(where, "not an object");
		return;
	}
	for (f = fields; f->name; f++)
		if (f->required && !json_object_get(o, f->name)) {
			at(w, sizeof(w), where, f->name, 0);
			bad(w, "missing (required)");
		}
	json_object_foreach((json_t *)o, k, x) {
		at(w, sizeof(w), where, k, 0);
		if (!(f = find(fields, k)))
			bad(w, "not a property the schema knows");
		else
			check_type(x, f->type, w);
	}
	id = json_string_value(json_object_get(o, "id"));
	origin = json_string_value(json_object_get(o, "origin"));
	if (id && origin) {
		n = strlen(origin);
		if (strncmp(id, origin, n) || id[n] != ':') {
			at(w, sizeof(w), where, "id", 0);
			bad(w, "not under the object's origin (ORIGIN:...)");
		}
	}
}

static void check_list(const json_t *root, const char *name,
		       const struct field *fields)
{
	json_t *l = json_object_get(root, name), *o, *seen;
	char w[256];
	size_t i;

	if (!l)
		return;
	if (!json_is_array(l)) {
		bad(name, "not an array");
		return;
	}
	seen = json_object();
	json_array_foreach(l, i, o) {
		const char *id = json_string_value(json_object_get(o, "id"));

		at(w, sizeof(w), name, NULL, i);
		check_object(o, fields, w);
		if (id && json_object_get(seen, id))
			bad(w, "id repeats an earlier one of the list");
		else if (id)
			json_object_set_new(seen, id, json_true());
	}
	json_decref(seen);
}

static void check_root(const json_t *root)
{
	static const char *const lists[] = { "version", "checkouts", "builds",
					     "tests", "issues", "incidents" };
	json_t *v, *x;
	const char *k;
	size_t i;

	if (!json_is_object(root)) {
		bad("(top)", "not an object");
		return;
	}
	no_nulls(root, "(top)");
	json_object_foreach((json_t *)root, k, x) {
		for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
			if (!strcmp(k, lists[i]))
				break;
		if (i == sizeof(lists) / sizeof(lists[0]))
			bad(k, "not a top-level property of the schema");
	}
	v = json_object_get(root, "version");
	if (!json_is_object(v)) {
		bad("version", "missing or not an object (required)");
	} else {
		x = json_object_get(v, "major");
		if (!json_is_integer(x) || json_integer_value(x) != 5)
			bad("version.major", "not 5");
		x = json_object_get(v, "minor");
		if (x && (!json_is_integer(x) || json_integer_value(x) < 0))
			bad("version.minor", "not a whole number >= 0");
	}
	check_list(root, "checkouts", checkout_fields);
	check_list(root, "builds", build_fields);
	check_list(root, "tests", test_fields);
}

static void compile(regex_t *re, const char *pat)
{
	if (regcomp(re, pat, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "kcidb_check: bad pattern %s\n", pat);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	json_error_t e;
	json_t *root;
	int i = 1;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: kcidb_check [--origin NAME] FILE\n"
		     "  validate a KCIDB v5 report (the subset thpbench writes);\n"
		     "  exit 0 valid, 1 invalid (one line per violation), 2 usage");
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "--origin")) {
		want_origin = argv[2];
		i = 3;
	}
	if (argc != i + 1) {
		fputs("usage: kcidb_check [--origin NAME] FILE\n", stderr);
		return 2;
	}
	file = argv[i];
	compile(&re_origin, "^[a-z0-9_]+$");
	compile(&re_id, "^[a-z0-9_]+:");
	compile(&re_path, "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$");
	compile(&re_time, "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
		"[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?"
		"([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$");
	root = json_load_file(file, JSON_REJECT_DUPLICATES, &e);
	if (!root) {
		fprintf(stderr, "%s:%d: not JSON: %s\n", file, e.line, e.text);
		return 2;
	}
	check_root(root);
	if (!errors)
		printf("%s: valid KCIDB v5: %zu checkouts, %zu builds, %zu tests\n",
		       file, json_array_size(json_object_get(root, "checkouts")),
		       json_array_size(json_object_get(root, "builds")),
		       json_array_size(json_object_get(root, "tests")));
	json_decref(root);
	regfree(&re_origin);
	regfree(&re_id);
	regfree(&re_path);
	regfree(&re_time);
	return errors ? 1 : 0;
}
