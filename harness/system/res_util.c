// SPDX-License-Identifier: GPL-2.0-only
/* res_util - what the resource kinds share (resource.h); system calls
 * only where the signal path uses them. */
#include "resource.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool res_under(const char *path, const char *dir, const char *prefix)
{
	size_t n = strlen(dir), m = strlen(prefix);

	if (!n || strncmp(path, dir, n) || path[n] != '/' ||
	    strncmp(path + n + 1, prefix, m) || !path[n + 1 + m])
		return false;
	/* One name under dir: no further '/', so no ".." either. */
	return !strchr(path + n + 1, '/');
}

/* Does a line of the file start with word followed by a blank? */
static bool file_has_field(const char *path, const char *word, int field)
{
	static char buf[65536];	/* the signal path may not allocate */
	size_t wl = strlen(word);
	char *line, *p;
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), f;

	if (fd < 0)
		return false;
	while (got < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got > 0 ? got : 0] = '\0';
	for (line = buf; line && *line; line = p ? p + 1 : NULL) {
		p = strchr(line, '\n');
		for (f = 0; f < field && line; f++) {
			line = strchr(line, ' ');
			if (line)
				line++;
		}
		if (line && !strncmp(line, word, wl) &&
		    (line[wl] == ' ' || line[wl] == '\t'))
			return true;
	}
	return false;
}

bool res_in_swaps(const struct res_env *e, const char *dev)
{
	char path[RES_PATH + 16];

	snprintf(path, sizeof(path), "%s/swaps", e->proc_root);
	return file_has_field(path, dev, 0);
}

bool res_is_mount(const struct res_env *e, const char *path)
{
	char mi[RES_PATH + 32];

	snprintf(mi, sizeof(mi), "%s/self/mountinfo", e->proc_root);
	/* Field 5 (from 0: 4) is the mount point; ours have no blanks. */
	return file_has_field(mi, path, 4);
}

int res_run(char *const argv[])
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void res_nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}
