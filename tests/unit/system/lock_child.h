/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lock_child - a child process that takes a settings lock file and either
 * dies holding it (as a SIGKILLed run would: the kernel drops the flock,
 * the file stays) or holds it until the parent closes *release. For the
 * lock and settings tests; include after cmocka.h.
 */
#ifndef THPBENCH_TEST_LOCK_CHILD_H
#define THPBENCH_TEST_LOCK_CHILD_H

#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "system/lock.h"

static inline pid_t child_takes_lock(const char *path, bool hold,
				     int *release)
{
	int ready[2], go[2];
	pid_t holder, pid;
	char c;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(ready[0]);
		close(go[1]);
		if (lock_take(path, &holder) < 0)
			_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		if (hold && read(go[0], &c, 1) < 0)
			_exit(5);
		_exit(0);	/* no release: as if killed */
	}
	close(ready[1]);
	close(go[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*release = go[1];
	return pid;
}

#endif
