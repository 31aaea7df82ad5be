// SPDX-License-Identifier: GPL-2.0-only
#include "hypervisor.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

static const struct {
	const char *sig;
	const char *name;
} signatures[] = {
	{ "KVMKVMKVM", "KVM" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen HVM" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "bhyve bhyve", "bhyve" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "lrpepyh  vr", "Parallels" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "QNXQVMBSQG", "QNX" },
	{ "Jailhouse", "Jailhouse" },
};

/* What the kernel log said: the last of each kind of line wins. */
struct klog {
	char detected[64];	/* "Hypervisor detected: X" */
	char booting[64];	/* "Booting paravirtualized kernel on X" */
	char pvm[160];		/* a PVM guest line, as printed */
};

const char *page_tables_name(enum page_tables pt)
{
	return pt == PT_EMULATED ? "emulated" : pt == PT_NESTED ? "nested" :
	       "native";
}

/* s without blanks at either end, into buf. */
static const char *trimmed(const char *s, char *buf, size_t len)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

const char *hypervisor_of_signature(const char *sig)
{
	char a[16], b[16];
	size_t i;

	trimmed(sig, a, sizeof(a));
	for (i = 0; i < ARRAY_SIZE(signatures); i++)
		if (!strcmp(a, trimmed(signatures[i].sig, b, sizeof(b))))
			return signatures[i].name;
	return NULL;
}

/* Printable ASCII of at most len - 1 bytes: log text is not trusted. */
static void copy_clean(char *dst, size_t len, const char *src, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 1 < len; i++)
		dst[k++] = isprint((unsigned char)src[i]) ? src[i] : '?';
	while (k && dst[k - 1] == ' ')
		k--;
	dst[k] = 0;
}

/*
 * The message of one log line: after "[  0.000000] " (dmesg), after
 * "PRI,SEQ,TS,FLAGS;" (/dev/kmsg), else the line. NULL for /dev/kmsg's
 * continuation lines (" KEY=value").
 */
static const char *message(const char *line, size_t n, size_t *mlen)
{
	const char *semi = memchr(line, ';', n), *end = line + n, *p;

	if (n && line[0] == ' ')
		return NULL;
	if (n && line[0] == '[') {
		p = memchr(line, ']', n);
		if (p) {
			p++;
			while (p < end && *p == ' ')
				p++;
			*mlen = (size_t)(end - p);
			return p;
		}
	}
	if (semi && isdigit((unsigned char)line[0]) &&
	    strspn(line, "0123456789,-c") == (size_t)(semi - line)) {
		*mlen = (size_t)(end - semi - 1);
		return semi + 1;
	}
	*mlen = n;
	return line;
}

static bool starts(const char *m, size_t n, const char *prefix, size_t *plen)
{
	*plen = strlen(prefix);
	return n >= *plen && !strncmp(m, prefix, *plen);
}

static bool contains(const char *m, size_t n, const char *word)
{
	char buf[512];

	copy_clean(buf, sizeof(buf), m, n);
	return strcasestr(buf, word) != NULL;
}

/*
 * A line of the PVM guest code: its tag (the text before the first ':')
 * starts with "pvm" ("pvm-guest:", "pvm-pv:", "pvm:"), and it does not
 * say the guest was not found. "kvm-pvm:" is the host's module.
 */
static bool pvm_guest_line(const char *m, size_t n)
{
	const char *colon = memchr(m, ':', n);

	if (!colon || n < 3 || strncasecmp(m, "pvm", 3) ||
	    memchr(m, ' ', (size_t)(colon - m)))
		return false;
	return !contains(m, n, "not detected") && !contains(m, n, "not found") &&
	       !contains(m, n, "disabled") &&
	       (contains(m, n, "detected") || !strncasecmp(m, "pvm-guest:", 10));
}

static void scan_line(const char *line, size_t n, struct klog *k)
{
	size_t mlen, plen;
	const char *m = message(line, n, &mlen);

	if (!m)
		return;
	if (starts(m, mlen, "Hypervisor detected: ", &plen))
		copy_clean(k->detected, sizeof(k->detected), m + plen, mlen - plen);
	else if (starts(m, mlen, "Booting paravirtualized kernel on ", &plen))
		copy_clean(k->booting, sizeof(k->booting), m + plen, mlen - plen);
	else if (pvm_guest_line(m, mlen))
		copy_clean(k->pvm, sizeof(k->pvm), m, mlen);
}

static void scan_log(const char *log, struct klog *k)
{
	const char *p = log, *nl;

	memset(k, 0, sizeof(*k));
	while (p && *p) {
		nl = strchr(p, '\n');
		scan_line(p, nl ? (size_t)(nl - p) : strlen(p), k);
		p = nl ? nl + 1 : NULL;
	}
}

/* A whole word of a space-separated flags list. */
static bool has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = flags;

	while (p && (p = strstr(p, flag))) {
		if ((p == flags || p[-1] == ' ' || p[-1] == '\t') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n' || p[n] == '\t'))
			return true;
		p += n;
	}
	return false;
}

static bool named(struct hv_facts *f, const char *name, const char *fmt,
		  const char *what)
{
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->from, sizeof(f->from), fmt, what);
	f->vm = true;
	return true;
}

/* The name, from the most trusted source that gives one. */
static void name_it(const struct hv_inputs *in, const struct klog *k,
		    struct hv_facts *f)
{
	const char *sig = hypervisor_of_signature(f->cpuid);
	char gt[32] = "", xen[48];

	if (*k->pvm) {
		named(f, "PVM", "kernel log: %s", k->pvm);
		return;
	}
	if (strcasestr(k->detected, "pvm")) {
		named(f, "PVM", "kernel log: Hypervisor detected: %s", k->detected);
		return;
	}
	if (strcasestr(k->booting, "pvm")) {
		named(f, "PVM", "kernel log: Booting paravirtualized kernel on %s",
		      k->booting);
		return;
	}
	if (*k->detected) {
		named(f, k->detected, "kernel log: Hypervisor detected: %s",
		      k->detected);
		return;
	}
	if (in->sys_type && !strcmp(in->sys_type, "xen")) {
		if (in->sys_guest_type)
			copy_clean(gt, sizeof(gt), in->sys_guest_type,
				   strlen(in->sys_guest_type));
		snprintf(xen, sizeof(xen), "Xen%s%s", *gt ? " " : "", gt);
		named(f, xen, "%s", "/sys/hypervisor/type and guest_type");
		return;
	}
	if (in->cpu_flags && has_flag(in->cpu_flags, "kvm_pvm_guest")) {
		named(f, "PVM", "%s", "cpuinfo flag kvm_pvm_guest");
		return;
	}
	if (*k->booting && strcmp(k->booting, "bare hardware")) {
		named(f, k->booting, "kernel log: Booting paravirtualized kernel on %s",
		      k->booting);
		return;
	}
	if (*f->cpuid) {
		named(f, sig ? sig : f->cpuid, "cpuid signature '%s' (the kernel "
		      "log did not say)", f->cpuid);
		return;
	}
	if (in->cpu_flags && has_flag(in->cpu_flags, "hypervisor"))
		named(f, "an unnamed hypervisor", "%s", "cpuinfo flag hypervisor");
	else
		snprintf(f->from, sizeof(f->from), "%s", in->kernel_log ?
			 "no hypervisor in the kernel log, cpuid or cpuinfo" :
			 "no hypervisor flag or cpuid signature (kernel log unreadable)");
}

static void judge_pt(const struct hv_inputs *in, struct hv_facts *f)
{
	bool xen_pv = !strcmp(f->name, "Xen PV") ||
		      (in->sys_guest_type && !strcmp(in->sys_guest_type, "PV") &&
		       !strncmp(f->name, "Xen", 3));

	f->pt = !f->vm ? PT_NATIVE : PT_NESTED;
	if (!strcmp(f->name, "PVM")) {
		f->pt = PT_EMULATED;
		snprintf(f->pt_why, sizeof(f->pt_why), "PVM: the host shadows "
			 "the guest's page tables; page-table writes and TLB "
			 "flushes go through the hypervisor");
	} else if (xen_pv) {
		f->pt = PT_EMULATED;
		snprintf(f->pt_why, sizeof(f->pt_why), "Xen PV: page-table "
			 "updates are hypercalls that Xen validates");
	} else if (!strcmp(f->name, "QEMU TCG")) {
		f->pt = PT_EMULATED;
		snprintf(f->pt_why, sizeof(f->pt_why), "QEMU TCG: the MMU is "
			 "emulated in software");
	} else if (f->vm) {
		snprintf(f->pt_why, sizeof(f->pt_why), "presumed hardware nested "
			 "paging (EPT/NPT) under %s; shadow paging cannot be seen "
			 "from inside (THPBENCH_PAGE_TABLES=emulated says so)",
			 f->name);
	} else {
		snprintf(f->pt_why, sizeof(f->pt_why), "bare metal");
	}
}

static void apply_override(const char *ov, struct hv_facts *f)
{
	char was[sizeof(f->pt_why)];

	if (!ov || !*ov)
		return;
	memcpy(was, f->pt_why, sizeof(was));
	if (!strcmp(ov, "emulated") || !strcmp(ov, "nested")) {
		f->pt = *ov == 'e' ? PT_EMULATED : PT_NESTED;
		snprintf(f->pt_why, sizeof(f->pt_why),
			 "THPBENCH_PAGE_TABLES=%s (detected: %.200s)", ov, was);
		return;
	}
	snprintf(f->pt_why, sizeof(f->pt_why), "%.200s; THPBENCH_PAGE_TABLES "
		 "ignored: not 'emulated' or 'nested'", was);
}

void hypervisor_judge(const struct hv_inputs *in, struct hv_facts *f)
{
	struct klog k;

	memset(f, 0, sizeof(*f));
	scan_log(in->kernel_log, &k);
	if (in->cpuid)
		copy_clean(f->cpuid, sizeof(f->cpuid), in->cpuid,
			   strnlen(in->cpuid, sizeof(f->cpuid) - 1));
	name_it(in, &k, f);
	judge_pt(in, f);
	apply_override(in->override, f);
}
