// SPDX-License-Identifier: GPL-2.0-only
#include "platform.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hypervisor.h"
#include "util/util.h"

/* Enough for any boot's early lines; a log longer than this is cut. */
#define KERNEL_LOG_MAX	(8u << 20)

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
	snprintf(sig, len, "%s", s);
#else
	(void)a, (void)b, (void)c, (void)d, (void)s, (void)len;
#endif
}

/*
 * The kernel log: /dev/kmsg read without blocking (one record a read,
 * EAGAIN at the end, EPIPE where records were overwritten), or a plain
 * file of that name below a fake root. NULL when it cannot be read.
 */
static char *read_kernel_log(const char *root)
{
	size_t len = 0, cap = 1 << 16;
	char path[4096], *buf;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/dev/kmsg", rootp(root));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	while (len < KERNEL_LOG_MAX) {
		if (cap - len < 8192)
			buf = xrealloc(buf, cap *= 2);
		n = read(fd, buf + len, cap - len - 1);
		if (n > 0)
			len += (size_t)n;
		else if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		else
			break;
	}
	close(fd);
	buf[len] = 0;
	return buf;
}

/* The value of the first "flags" line of cpuinfo, "" when none. */
static void cpu_flags(const char *root, char *buf, size_t len)
{
	char path[4096], line[8192];
	FILE *f;

	*buf = 0;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", rootp(root));
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strchr(line, ':')) {
			snprintf(buf, len, "%s", str_trim(strchr(line, ':') + 1));
			break;
		}
	fclose(f);
}

static json_t *virt_facts(const char *root, struct hv_facts *hv)
{
	char sig[16] = "", vendor[128] = "", product[128] = "", how[320];
	char flags[8192], type[64] = "", guest[64] = "";
	char *klog = read_kernel_log(root);
	struct hv_inputs in = { 0 };
	json_t *o = json_object();
	bool vm;

	/* A fake tree in a test stands for another machine: no cpuid. */
	if (!root || !*root)
		hypervisor_signature(sig, sizeof(sig));
	read_under(root, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_under(root, "/sys/class/dmi/id/product_name", product,
		   sizeof(product));
	cpu_flags(root, flags, sizeof(flags));
	in.kernel_log = klog;
	in.sys_type = read_under(root, "/sys/hypervisor/type", type,
				 sizeof(type)) ? NULL : type;
	in.sys_guest_type = read_under(root, "/sys/hypervisor/guest_type", guest,
				       sizeof(guest)) ? NULL : guest;
	in.cpu_flags = flags;
	in.cpuid = sig;
	in.override = getenv("THPBENCH_PAGE_TABLES");
	hypervisor_judge(&in, hv);
	free(klog);
	vm = hv->vm || strstr(product, "Virtual") || strstr(vendor, "QEMU") ||
	     strstr(product, "KVM");
	if (*vendor || *product)
		snprintf(how, sizeof(how), "DMI %s %s", vendor, product);
	else
		snprintf(how, sizeof(how), "no DMI");
	json_object_set_new(o, "vm", json_boolean(vm));
	json_object_set_new(o, "how", json_string(how));
	json_object_set_new(o, "hypervisor", json_string(hv->vm ? hv->name :
				vm ? "unnamed" : ""));
	json_object_set_new(o, "from", json_string(hv->from));
	json_object_set_new(o, "cpuid", json_string(hv->cpuid));
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
	json_t *o = json_object(), *pr = json_object(), *pt = json_object();
	struct hv_facts hv;
	long order;

	if (!root)
		root = getenv("THPBENCH_PLATFORM_ROOT");
	json_object_set_new(o, "virt", virt_facts(root, &hv));
	json_object_set_new(pt, "mode", json_string(page_tables_name(hv.pt)));
	json_object_set_new(pt, "why", json_string(hv.pt_why));
	json_object_set_new(o, "page_tables", pt);
	json_object_set_new(pr, "on", json_boolean(platform_page_reporting(root, &order)));
	if (order >= 0)
		json_object_set_new(pr, "order", json_integer(order));
	json_object_set_new(o, "page_reporting", pr);
	return o;
}
