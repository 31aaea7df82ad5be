// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tiny static /init for the thpbench A/B guest.
 *
 * Contract (relied on by mkinitramfs.sh and extract-results.sh):
 * - mounts proc, sysfs, devtmpfs, debugfs, a tmpfs on /tmp and hugetlbfs on
 *   /mnt/huge, and makes
 *   /dev/console its stdin/stdout/stderr;
 * - runs the command in /etc/thpbench/argv (one argument per line), with
 *   every "@LABEL@" replaced by thpbench.label= from the kernel command
 *   line and every "@BOOT@" by thpbench.boot=, environment from
 *   /etc/thpbench/env (NAME=VALUE lines);
 * - then sends /tmp/out/results.json over the console as
 *     THPBENCH-RESULT-BEGIN name=results.json bytes=N cksum=C status=S
 *     base64, 76 characters a line
 *     THPBENCH-RESULT-END
 *   where C is the POSIX cksum(1) CRC of the file, so the host can prove
 *   the transfer complete; or "THPBENCH-RESULT-MISSING status=S" when the
 *   run wrote no file;
 * - then, when the run kept kernel gcov data (/tmp/out/kgcov, run
 *   --kernel-gcov), the same block for it as one newc cpio, name=kgcov.cpio;
 * - with thpbench.probe=1 on the command line it only prints
 *   "thpbench-init: probe ok" (the host testing an accelerator);
 * - with thpbench.shell=1 it runs nothing itself: it starts /bin/sh -i
 *   (busybox, mkinitramfs.sh --busybox) on the console with the
 *   environment of /etc/thpbench/env and the prompt "thpbench-lava# ",
 *   for a driver such as LAVA's test shell, and reboots when the shell
 *   exits; that driver runs the suite with "init --run" and sends the
 *   results with "init --emit" (kernel-patches/lava/lava-test.sh);
 * - with thpbench.kexec=SEQ (e.g. ABAB) and thpbench.step=I it is step I
 *   of a chain of kernels in one guest, as on bare metal: after sending
 *   its results (header field step=I) it loads the kernel SEQ[I+1]
 *   (/boot/X.bzImage, its release from /etc/thpbench/kernels: "X RELEASE"
 *   lines) with kexec_file_load(2) and jumps into it, with the same
 *   command line but step, label and boot advanced. The next initramfs is
 *   this one: /boot/payload.cpio (everything but itself) followed by a
 *   one-file archive holding payload.cpio, written to /tmp;
 * - and reboots, which ends a qemu started with -no-reboot.
 * Run by anything but the kernel (pid != 1) it does none of this: only
 * "init --emit FILE STATUS" prints the block above for FILE (and "init
 * --emit-kgcov DIR STATUS" the kgcov.cpio one for DIR), which is how
 * tests/kernel/ checks the host side against the real encoder, and "init
 * --run" runs the argv file as pid 1 would (its label from the running
 * kernel's command line) and exits with the suite's status.
 * A kernel panic (init exiting) would leave the host waiting for a
 * timeout, so every failure path still reaches the reboot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/reboot.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARGV_FILE	"/etc/thpbench/argv"
#define ENV_FILE	"/etc/thpbench/env"
#define RESULT_FILE	"/tmp/out/results.json"
#define KGCOV_DIR	"/tmp/out/kgcov"
#define KGCOV_CPIO	"/tmp/kgcov.cpio"
#define MAX_ARGS	64
#define MAX_LINE	1024

static char label[128] = "guest";
static char boot_nr[32] = "0";
static char probe[8] = "0";
static char kexec_seq[64] = "";
static char step_str[16] = "0";
static char shell[8] = "0";
static char cmdline_all[2048] = "";

static void say(const char *fmt, const char *arg)
{
	printf("thpbench-init: ");
	printf(fmt, arg);
	printf("\n");
	fflush(stdout);
}

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		say("mount %s failed (continuing)", dir);
}

/* Kernel messages in the middle of the base64 would corrupt it. */
static void quiet_kernel_console(void)
{
	int fd = open("/proc/sys/kernel/printk", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, "1\n", 2) != 2)
		say("cannot lower the console log level%s", "");
	close(fd);
}

static void setup_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

/* Copy the value of KEY=value from the kernel command line into @out. */
static void cmdline_value(const char *cmdline, const char *key, char *out,
			  size_t size)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		size_t n;

		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, " \n");
			if (n >= size)
				n = size - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return;
		}
		p += klen;
	}
}

static void read_cmdline(void)
{
	char buf[2048] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	cmdline_value(buf, "thpbench.label", label, sizeof(label));
	cmdline_value(buf, "thpbench.boot", boot_nr, sizeof(boot_nr));
	cmdline_value(buf, "thpbench.probe", probe, sizeof(probe));
	cmdline_value(buf, "thpbench.kexec", kexec_seq, sizeof(kexec_seq));
	cmdline_value(buf, "thpbench.step", step_str, sizeof(step_str));
	cmdline_value(buf, "thpbench.shell", shell, sizeof(shell));
	snprintf(cmdline_all, sizeof(cmdline_all), "%s", buf);
	cmdline_all[strcspn(cmdline_all, "\n")] = '\0';
}

/* Return a copy of @s with @LABEL@ and @BOOT@ replaced. */
static char *expand(const char *s)
{
	char out[MAX_LINE];
	size_t o = 0;

	while (*s && o < sizeof(out) - 1) {
		const char *val = NULL;
		size_t skip = 0;

		if (!strncmp(s, "@LABEL@", 7)) {
			val = label;
			skip = 7;
		} else if (!strncmp(s, "@BOOT@", 6)) {
			val = boot_nr;
			skip = 6;
		}
		if (val) {
			size_t n = strlen(val);

			if (o + n >= sizeof(out))
				break;
			memcpy(out + o, val, n);
			o += n;
			s += skip;
		} else {
			out[o++] = *s++;
		}
	}
	out[o] = '\0';
	return strdup(out);
}

/* Read one line per entry from @path into @list; returns the count. */
static int read_lines(const char *path, char **list, int max)
{
	char line[MAX_LINE];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			list[n++] = expand(line);
	}
	fclose(f);
	list[n] = NULL;
	return n;
}

static int run_suite(void)
{
	char *argv[MAX_ARGS + 1], *env[MAX_ARGS + 1];
	int status;
	pid_t pid;

	if (read_lines(ARGV_FILE, argv, MAX_ARGS) == 0) {
		say("%s is empty or missing", ARGV_FILE);
		return 127;
	}
	read_lines(ENV_FILE, env, MAX_ARGS);
	say("running %s", argv[0]);
	pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, env);
		say("cannot execute %s", argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 126;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * thpbench.shell=1: an interactive shell on the console for a test driver
 * (LAVA waits for its prompt, then types its commands). Its status is
 * that of the shell; init reboots after it either way.
 */
static int run_shell(void)
{
	char *argv[] = { "/bin/sh", "-i", NULL }, *env[MAX_ARGS + 2];
	int n = read_lines(ENV_FILE, env, MAX_ARGS), status;
	pid_t pid;

	env[n++] = "PS1=thpbench-lava# ";
	env[n] = NULL;
	say("shell on the console (thpbench.shell=1)%s", "");
	pid = fork();
	if (pid == 0) {
		setsid();
		execve(argv[0], argv, env);
		say("cannot execute %s (built without --busybox?)", argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* POSIX cksum(1): CRC-32 (poly 0x04c11db7, MSB first) over data + length. */
static uint32_t crc_byte(uint32_t crc, unsigned char c)
{
	int i;

	crc ^= (uint32_t)c << 24;
	for (i = 0; i < 8; i++)
		crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	return crc;
}

static uint32_t posix_cksum(const unsigned char *buf, size_t len)
{
	uint32_t crc = 0;
	size_t i;

	for (i = 0; i < len; i++)
		crc = crc_byte(crc, buf[i]);
	for (i = len; i; i >>= 8)
		crc = crc_byte(crc, i & 0xff);
	return ~crc;
}

static void put_base64(const unsigned char *buf, size_t len)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;
	int col = 0;

	for (i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)buf[i] << 16;
		size_t left = len - i;

		if (left > 1)
			v |= (uint32_t)buf[i + 1] << 8;
		if (left > 2)
			v |= buf[i + 2];
		putchar(tab[(v >> 18) & 63]);
		putchar(tab[(v >> 12) & 63]);
		putchar(left > 1 ? tab[(v >> 6) & 63] : '=');
		putchar(left > 2 ? tab[v & 63] : '=');
		col += 4;
		if (col == 76) {
			putchar('\n');
			col = 0;
		}
	}
	if (col)
		putchar('\n');
}

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);

		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	*len = got;
	return buf;
}

static int emit_file(const char *path, const char *name, int status)
{
	size_t len = 0;
	unsigned char *buf = slurp(path, &len);

	if (!buf || !len) {
		printf("THPBENCH-RESULT-MISSING status=%d\n", status);
		fflush(stdout);
		return 1;
	}
	printf("THPBENCH-RESULT-BEGIN name=%s bytes=%zu cksum=%u status=%d step=%s\n",
	       name, len, posix_cksum(buf, len), status, step_str);
	put_base64(buf, len);
	printf("THPBENCH-RESULT-END\n");
	fflush(stdout);
	free(buf);
	return 0;
}

/* Append @len bytes of @buf to @fd; 0 or -1. */
static int put_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One newc cpio entry (header, name, data, each padded to 4 bytes). */
static int cpio_entry(int fd, const char *name, unsigned int mode,
		      const void *data, size_t len)
{
	static const char zero[4];
	char hdr[160];
	size_t nlen = strlen(name) + 1;

	/* Sizes are 32-bit in newc: the payload is a few megabytes. */
	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 0u, mode, 0u, 0u, 1u, 0u, (unsigned int)len, 0u, 0u, 0u, 0u,
		 (unsigned int)nlen, 0u);
	if (put_all(fd, hdr, 110) || put_all(fd, name, nlen) ||
	    put_all(fd, zero, (4 - (110 + nlen) % 4) % 4) ||
	    put_all(fd, data, len) || put_all(fd, zero, (4 - len % 4) % 4))
		return -1;
	return 0;
}

/*
 * /tmp/out/kgcov (run --kernel-gcov: one directory of .gcda files per
 * repetition) as one newc archive, names "kgcov/..." and regular files
 * only, so the host gets it in one checked block (name=kgcov.cpio).
 */
static int pack_dir(int fd, const char *dir, const char *name, int depth)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (depth > 32 || !(d = opendir(dir)))
		return depth > 32 ? 0 : -1;
	while (!rc && (de = readdir(d))) {
		char path[PATH_MAX], sub[PATH_MAX];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path) ||
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", name, de->d_name) >= sizeof(sub) ||
		    lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = pack_dir(fd, path, sub, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			size_t len = 0;
			unsigned char *buf = slurp(path, &len);

			rc = !buf || cpio_entry(fd, sub, 0100644, buf, len);
			free(buf);
		}
	}
	closedir(d);
	return rc;
}

static int emit_kgcov(const char *dir, const char *cpio, int status)
{
	struct stat st;
	int fd, rc;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return 0;
	unlink(cpio);
	fd = open(cpio, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return 1;
	rc = pack_dir(fd, dir, "kgcov", 0) ||
	     cpio_entry(fd, "TRAILER!!!", 0, "", 0);
	close(fd);
	if (rc)
		say("cannot pack %s", dir);
	else
		rc = emit_file(cpio, "kgcov.cpio", status);
	unlink(cpio);
	return rc;
}

/* /tmp/next.cpio: the payload, then an archive holding the payload. */
static int write_next_initrd(const char *path)
{
	size_t len = 0;
	unsigned char *payload = slurp("/boot/payload.cpio", &len);
	int fd, rc = -1;

	if (!payload || !len)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && !put_all(fd, payload, len) &&
	    !cpio_entry(fd, "boot/payload.cpio", 0100644, payload, len) &&
	    !cpio_entry(fd, "TRAILER!!!", 0, "", 0))
		rc = 0;
	if (fd >= 0)
		close(fd);
	free(payload);
	return rc;
}

/* The release of kernel @side from /etc/thpbench/kernels into @out. */
static int kernel_release(char side, char *out, size_t size)
{
	char line[256];
	FILE *f = fopen("/etc/thpbench/kernels", "r");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f))
		if (line[0] == side && line[1] == ' ') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%s", line + 2);
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* The command line with KEY=... replaced by KEY=VALUE (appended if absent). */
static void set_param(char *cmd, size_t size, const char *key, const char *value)
{
	char out[2048] = "", *tok, *save = NULL, copy[2048];
	size_t klen = strlen(key);
	int found = 0;

	snprintf(copy, sizeof(copy), "%s", cmd);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		size_t o = strlen(out);

		if (!strncmp(tok, key, klen) && tok[klen] == '=') {
			snprintf(out + o, sizeof(out) - o, "%s%s=%s", o ? " " : "", key, value);
			found = 1;
		} else {
			snprintf(out + o, sizeof(out) - o, "%s%s", o ? " " : "", tok);
		}
	}
	if (!found) {
		size_t o = strlen(out);

		snprintf(out + o, sizeof(out) - o, "%s%s=%s", o ? " " : "", key, value);
	}
	snprintf(cmd, size, "%s", out);
}

/* Step I of thpbench.kexec=SEQ done: jump into kernel SEQ[I+1], if any.
 * Returns only when there is none, or the kexec failed (said). */
static void kexec_next(void)
{
	long step = atol(step_str);
	char next, path[64], rel[256], num[24], cmd[2048];
	int kfd, ifd, n = 0;
	long i;

	if (!kexec_seq[0] || step + 1 >= (long)strlen(kexec_seq))
		return;
	next = kexec_seq[step + 1];
	for (i = 0; i <= step + 1; i++)
		n += kexec_seq[i] == next;
	snprintf(path, sizeof(path), "/boot/%c.bzImage", next);
	if (kernel_release(next, rel, sizeof(rel)) ||
	    write_next_initrd("/tmp/next.cpio")) {
		say("kexec: no kernel %s or no /boot/payload.cpio", path);
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s", cmdline_all);
	snprintf(num, sizeof(num), "%ld", step + 1);
	set_param(cmd, sizeof(cmd), "thpbench.step", num);
	set_param(cmd, sizeof(cmd), "thpbench.label", rel);
	snprintf(num, sizeof(num), "%d", n);
	set_param(cmd, sizeof(cmd), "thpbench.boot", num);
	kfd = open(path, O_RDONLY);
	ifd = open("/tmp/next.cpio", O_RDONLY);
	printf("thpbench-init: kexec into %s (%s), step %ld\n", path, rel, step + 1);
	fflush(stdout);
	sync();
	if (kfd < 0 || ifd < 0 ||
	    syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmd) + 1, cmd, 0UL) ||
	    reboot(LINUX_REBOOT_CMD_KEXEC)) {
		say("kexec failed: %s", strerror(errno));
		return;
	}
}

int main(int argc, char **argv)
{
	char status_str[16];
	int status;

	/*
	 * Outside a guest (pid != 1) never mount or reboot: only the encoder
	 * can be exercised, so the host tests check the real transfer format.
	 */
	if (getpid() != 1) {
		if (argc == 4 && !strcmp(argv[1], "--emit"))
			return emit_file(argv[2], "results.json", atoi(argv[3]));
		if (argc == 4 && !strcmp(argv[1], "--emit-kgcov")) {
			char cpio[] = "/tmp/kgcov-cpio.XXXXXX";
			int fd = mkstemp(cpio);

			if (fd < 0)
				return 1;
			close(fd);
			return emit_kgcov(argv[2], cpio, atoi(argv[3]));
		}
		if (argc == 2 && !strcmp(argv[1], "--run")) {
			read_cmdline();
			return run_suite();
		}
		fprintf(stderr, "usage: %s --emit FILE STATUS | --emit-kgcov DIR STATUS | --run (as pid 1 it is the guest init)\n",
			argv[0]);
		return 2;
	}
	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	mount_one("devtmpfs", "/dev", "devtmpfs");
	mount_one("debugfs", "/sys/kernel/debug", "debugfs");
	mount_one("tracefs", "/sys/kernel/tracing", "tracefs");
	mount_one("tmpfs", "/tmp", "tmpfs");
	/* Where the kernel's own hugetlb selftests put their files (./run.sh
	 * coverage --selftests), as run_vmtests.sh mounts one. */
	mkdir("/mnt", 0755);
	mount_one("none", "/mnt/huge", "hugetlbfs");
	setup_console();
	quiet_kernel_console();
	read_cmdline();
	/* thpbench.probe=1: the host only asks whether this accelerator boots. */
	if (strcmp(probe, "0")) {
		say("probe ok%s", "");
		goto out;
	}
	mkdir("/tmp/out", 0755);
	if (strcmp(shell, "0")) {
		run_shell();
		goto out;
	}
	say("label %s", label);
	status = run_suite();
	snprintf(status_str, sizeof(status_str), "%d", status);
	say("suite exited with status %s", status_str);
	emit_file(RESULT_FILE, "results.json", status);
	emit_kgcov(KGCOV_DIR, KGCOV_CPIO, status);
	kexec_next();
out:
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}
