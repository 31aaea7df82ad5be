// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava_job - write a thpbench LAVA job definition (lava_job.h).
 */
#include "lava_job.h"

#include <jansson.h>
#include <string.h>


#define PROMPT "thpbench-lava# "
#define META_VAL_MAX 200

static const char *const boot_names[] = { "qemu", "u-boot", "grub", "ipxe" };

int lava_boot_parse(const char *s)
{
	size_t i;

	for (i = 0; s && i < sizeof(boot_names) / sizeof(boot_names[0]); i++)
		if (!strcmp(s, boot_names[i]))
			return (int)i;
	return -1;
}

static bool only(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return false;
	return true;
}

static bool is_token(const char *s)
{
	return s && *s && only(s, "._-");
}

static bool url_ok(const char *s)
{
	const char *p;

	if (!s || !(*s == '/' || !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8) ||
		    !strncmp(s, "file:///", 8)))
		return false;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || strchr("\"'`\\{}", *p))
			return false;
	return true;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

static int fail(char *err, size_t len, const char *what, const char *val)
{
	snprintf(err, len, "%s \"%.200s\": %s", what, val ? val : "", "refused (lava_job.h says what is allowed)");
	return -1;
}

int lava_job_check(const struct lava_job *j, char *err, size_t len)
{
	size_t i;

	if (!is_token(j->name))
		return fail(err, len, "job name", j->name);
	if (!is_token(j->device_type))
		return fail(err, len, "device type", j->device_type);
	if (!url_ok(j->kernel))
		return fail(err, len, "kernel", j->kernel);
	if (!url_ok(j->ramdisk))
		return fail(err, len, "ramdisk", j->ramdisk);
	if (j->cmdline && !only(j->cmdline, "._,=:/+- "))
		return fail(err, len, "kernel command line", j->cmdline);
	if (!j->label || !*j->label || !only(j->label, "._,=:/+-"))
		return fail(err, len, "label", j->label);
	if (!is_token(j->arch))
		return fail(err, len, "arch", j->arch);
	if (j->timeout_min < 1 || j->timeout_min > 10080)
		return fail(err, len, "timeout", "");
	if (j->nmeta > LAVA_JOB_META_MAX)
		return fail(err, len, "metadata", "more than 16 keys");
	for (i = 0; i < j->nmeta; i++) {
		if (!is_token(j->meta_key[i]))
			return fail(err, len, "metadata key", j->meta_key[i]);
		if (!j->meta_val[i] || strlen(j->meta_val[i]) > META_VAL_MAX ||
		    !printable(j->meta_val[i]))
			return fail(err, len, "metadata value", j->meta_val[i]);
	}
	return 0;
}

static json_t *minutes(int m)
{
	return json_pack("{s:i}", "minutes", m);
}

static json_t *image(const char *loc, const char *arg)
{
	char url[4096];

	snprintf(url, sizeof(url), "%s%s", *loc == '/' ? "file://" : "", loc);
	return arg ? json_pack("{s:s,s:s}", "image_arg", arg, "url", url)
		   : json_pack("{s:s}", "url", url);
}

static json_t *ramdisk(const struct lava_job *j)
{
	json_t *r = image(j->ramdisk, j->boot == LAVA_BOOT_QEMU ? "-initrd {ramdisk}" : NULL);

	json_object_set_new(r, "compression", json_string("gz"));
	if (j->boot == LAVA_BOOT_QEMU) {
		json_object_set_new(r, "format", json_string("cpio.newc"));
		json_object_set_new(r, "overlays", json_pack("{s:b}", "lava", 1));
	} else {
		json_object_set_new(r, "install_overlay", json_true());
		json_object_set_new(r, "install_modules", json_false());
	}
	return r;
}

static void cmdline(const struct lava_job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s%sthpbench.shell=1 thpbench.label=%s",
		 j->cmdline ? j->cmdline : "", j->cmdline && *j->cmdline ? " " : "", j->label);
}

static json_t *deploy(const struct lava_job *j)
{
	char arg[2048], cl[1536];
	json_t *img, *d;

	cmdline(j, cl, sizeof(cl));
	if (j->boot == LAVA_BOOT_QEMU) {
		snprintf(arg, sizeof(arg), "-kernel {kernel} -append \"%s\"", cl);
		img = json_pack("{s:o,s:o}", "kernel", image(j->kernel, arg), "ramdisk", ramdisk(j));
		return json_pack("{s:{s:s,s:o,s:o}}", "deploy", "to", "tmpfs", "timeout", minutes(10),
				 "images", img);
	}
	d = json_pack("{s:s,s:o,s:o,s:o}", "to", "tftp", "timeout", minutes(10),
		      "kernel", image(j->kernel, NULL), "ramdisk", ramdisk(j));
	json_object_set_new(json_object_get(d, "kernel"), "type",
			    json_string(strcmp(j->arch, "arm64") ? "bzimage" : "image"));
	json_object_set_new(d, "os", json_string("oe"));
	return json_pack("{s:o}", "deploy", d);
}

static json_t *boot(const struct lava_job *j)
{
	json_t *b = json_pack("{s:s,s:o,s:[s]}", "method", boot_names[j->boot],
			      "timeout", minutes(10), "prompts", PROMPT);

	if (j->boot == LAVA_BOOT_QEMU)
		json_object_set_new(b, "media", json_string("tmpfs"));
	else
		json_object_set_new(b, "commands", json_string("ramdisk"));
	return json_pack("{s:o}", "boot", b);
}

static json_t *test(const struct lava_job *j)
{
	json_t *def = json_pack(
		"{s:s,s:s,s:s,s:{s:{s:s,s:s,s:s},s:{s:[s]}}}",
		"from", "inline", "name", "thpbench", "path", "inline/thpbench.yaml",
		"repository", "metadata", "format", "Lava-Test Test Definition 1.0",
		"name", "thpbench", "description", "thpbench suite (kernel-patches/init/lava-test.sh)",
		"run", "steps", "/bin/thpbench-lava-test");

	return json_pack("{s:{s:o,s:[o]}}", "test", "timeout", minutes(j->timeout_min),
			 "definitions", def);
}

static json_t *job(const struct lava_job *j)
{
	json_t *meta = json_object(), *o;
	char cl[1536];
	size_t i;

	for (i = 0; i < j->nmeta; i++)
		json_object_set_new(meta, j->meta_key[i], json_string(j->meta_val[i]));
	json_object_set_new(meta, "thpbench.label", json_string(j->label));
	o = json_pack("{s:s,s:s,s:s,s:s,s:{s:o,s:o,s:o},s:{s:s,s:b},s:o,s:[o,o,o]}",
			 "device_type", j->device_type, "job_name", j->name,
			 "priority", "medium", "visibility", "public",
			 "timeouts", "job", minutes(j->timeout_min + 30),
			 "action", minutes(j->timeout_min), "connection", minutes(5),
			 "context", "arch", j->arch, "no_kvm", j->no_kvm, "metadata", meta,
			 "actions", deploy(j), boot(j), test(j));
	if (o && j->boot != LAVA_BOOT_QEMU) {
		cmdline(j, cl, sizeof(cl));
		json_object_set_new(json_object_get(o, "context"), "extra_kernel_args",
				    json_string(cl));
	}
	return o;
}

int lava_job_write(FILE *f, const struct lava_job *j, char *err, size_t len)
{
	json_t *o;
	int rc;

	if (lava_job_check(j, err, len))
		return -1;
	o = job(j);
	if (!o) {
		snprintf(err, len, "cannot build the job document (out of memory)");
		return -1;
	}
	rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(o);
	if (rc || fputc('\n', f) == EOF) {
		snprintf(err, len, "cannot write the job: %s", "write error");
		return -1;
	}
	return 0;
}
