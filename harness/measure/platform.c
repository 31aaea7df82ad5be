// SPDX-License-Identifier: GPL-2.0-only
#include "platform.h"

#include <cpuid.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

/* virtio device id of the balloon, and its free page reporting feature
 * bit (include/uapi/linux/virtio_balloon.h, VIRTIO_BALLOON_F_REPORTING). */
#define VIRTIO_ID_BALLOON	5
#define BALLOON_F_REPORTING	5

static const char *rootp(const char *root)
{
	return root ? root : "";
}

static int read_under(const char *root, const char *path, char *buf,
		      size_t len)
{
	char full[4096];

	snprintf(full, sizeof(full), "%s%s", rootp(root), path);
	if (read_file_str(full, buf, len))
		return -1;
	str_trim(buf);
	return 0;
}

/* The hypervisor's cpuid signature (leaf 0x40000000), "" on bare metal. */
static void hypervisor_signature(char *sig, size_t len)
{
	unsigned int a, b, c, d;
	char s[13];

	*sig = 0;
#if defined(__x86_64__) || defined(__i386__)
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(s, &b, 4);
	memcpy(s + 4, &c, 4);
	memcpy(s + 8, &d, 4);
	s[12] = 0;
	snprintf(sig, len, "%s", *s ? s : "hypervisor");
#else
	(void)a, (void)b, (void)c, (void)d, (void)s, (void)len;
#endif
}

static json_t *virt_facts(const char *root)
{
	char sig[16], vendor[128] = "", product[128] = "", how[320];
	json_t *o = json_object();
	bool vm;

	/* A fake tree in a test stands for another machine: no cpuid. */
	if (root && *root)
		*sig = 0;
	else
		hypervisor_signature(sig, sizeof(sig));
	read_under(root, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_under(root, "/sys/class/dmi/id/product_name", product,
		   sizeof(product));
	vm = *sig || strstr(product, "Virtual") || strstr(vendor, "QEMU") ||
	     strstr(product, "KVM");
	if (*sig)
		snprintf(how, sizeof(how), "hypervisor %s, %s%s", sig,
			 *vendor ? "DMI " : "no DMI", vendor);
	else if (*vendor || *product)
		snprintf(how, sizeof(how), "DMI %s %s", vendor, product);
	else
		snprintf(how, sizeof(how), "no hypervisor flag, no DMI");
	json_object_set_new(o, "vm", json_boolean(vm));
	json_object_set_new(o, "how", json_string(how));
	return o;
}

static bool balloon_reports(const char *root, const char *dev)
{
	char path[512], buf[256];
	long id;

	snprintf(path, sizeof(path), "/sys/bus/virtio/devices/%s/device", dev);
	if (read_under(root, path, buf, sizeof(buf)) ||
	    parse_long(buf, &id) || id != VIRTIO_ID_BALLOON)
		return false;
	/* features: one '0'/'1' per bit, bit 0 first. */
	snprintf(path, sizeof(path), "/sys/bus/virtio/devices/%s/features", dev);
	if (read_under(root, path, buf, sizeof(buf)) ||
	    strlen(buf) <= BALLOON_F_REPORTING)
		return false;
	return buf[BALLOON_F_REPORTING] == '1';
}

bool platform_page_reporting(const char *root, long *order)
{
	char path[4096], buf[64];
	struct dirent *de;
	bool on = false;
	DIR *d;

	*order = -1;
	if (!read_under(root, "/sys/module/page_reporting/parameters/page_reporting_order",
			buf, sizeof(buf)))
		parse_long(buf, order);
	snprintf(path, sizeof(path), "%s/sys/bus/virtio/devices", rootp(root));
	d = opendir(path);
	if (!d)
		return false;
	while (!on && (de = readdir(d)))
		if (de->d_name[0] != '.')
			on = balloon_reports(root, de->d_name);
	closedir(d);
	return on;
}

json_t *platform_collect(const char *root)
{
	json_t *o = json_object(), *pr = json_object();
	long order;

	json_object_set_new(o, "virt", virt_facts(root));
	json_object_set_new(pr, "on", json_boolean(platform_page_reporting(root, &order)));
	if (order >= 0)
		json_object_set_new(pr, "order", json_integer(order));
	json_object_set_new(o, "page_reporting", pr);
	return o;
}
