/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resource - what the harness makes on the machine for a case besides
 * knobs (a zram swap device, a mount, a loop device with a filesystem
 * image, a cgroup), journalled like the knobs and undone however the run
 * ends.
 *
 * One module per kind (res_swap.c, res_mount.c, res_loop.c,
 * res_cgroup.c, res_zswap.c: zswap's enabled, a knob outside the mm tree,
 * res_service.c: a throwaway redis or postgres), each a struct res_kind, found by name in a registry
 * (res_kind_find). A resource is a struct res of fixed size, no
 * pointers but its kind: the signal path undoes it with system calls
 * only (umount2, swapoff, ioctl, rmdir, open/read/write).
 *
 * The journal, state_dir/resources.json, is a state file (state_file.h)
 * whose root is the state dir and whose "knobs" are the resources, in
 * the order they were made:
 *   { "kind": "zram", "dev": "/dev/zram0", "num": 0, "size": 1073741824,
 *     "added": true, "boot_id": "...", "opt": "lzo-rle" }
 *   { "kind": "loop", "dev": "/dev/loop3", "num": 3,
 *     "path": "/run/thpbench/img-123-1", "size": 536870912, ... }
 *   { "kind": "mount", "path": "/run/thpbench/mnt-123-2",
 *     "dev": "/dev/loop3", "opt": "xfs" }
 *   { "kind": "cgroup", "path": "/sys/fs/cgroup/thpbench-123-3", "num": 2 }
 *     (num: the cgroup version; 1: under the v1 memory mount)
 *   { "kind": "zswap", "path": "/sys/module/zswap/parameters/enabled",
 *     "dev": "Y", "opt": "N" }            (wanted, found)
 *   { "kind": "service", "path": "/run/thpbench/svc-123-4",
 *     "dev": "/run/thpbench/svc-123-4/redis.sock", "opt": "redis",
 *     "num": 4242, "size": 98765 }        (server pid, its start time)
 * Each entry is written BEFORE its resource is made (with what is known
 * then: a zram device is journalled by number before its disksize is
 * set, a loop device before it is bound), so a crash at any point leaves
 * a journal that names everything made. A knob journal written before
 * resources existed has no resources.json: it reads as before.
 *
 * Undo, in reverse order: at settings_end, on a signal (settings_guard),
 * by the next run's settings_begin and by `thpbench restore`
 * (res_recover). A journal is trusted only as far as each entry carries
 * our marker (res_kind.owned): a mount point or image under our state dir
 * (STATE/mnt-*, STATE/img-*), a loop device whose backing file is that
 * image, a zram device of this boot whose disksize is the one we set and
 * that is swap by its /dev name, a cgroup directory named thpbench-*
 * under the root of the hierarchy its num names (v2, or v1 memory), zswap's enabled file with Y or N to put back. Anything else is left alone and said so.
 */
#ifndef THPBENCH_RESOURCE_H
#define THPBENCH_RESOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "settings_say.h"

/* Per run; configs/thp-paths.conf alone asks for 19 (6 zram swaps, 6
 * memcgs, 5 mounts, 2 loop devices): at 16 its last cases were not run. */
#define RES_MAX 32
#define RES_PATH 256
#define RES_ROOT 160	/* a root path; longer ones are refused */
#define RES_FILE "resources.json"

/* Where the kinds find the machine: the real roots, or a fake tree. */
struct res_env {
	char state_dir[RES_ROOT];	/* ours: mnt-* and img-* go here */
	char sys_root[RES_ROOT];	/* /sys, or $THPBENCH_RES_SYS_ROOT */
	char dev_root[RES_ROOT];	/* /dev, or $THPBENCH_RES_DEV_ROOT */
	char proc_root[RES_ROOT];	/* /proc (swaps, mountinfo) */
	char cgroup_root[RES_ROOT];	/* cgroup v2 mount, or "" when none */
	char memcg_v1_root[RES_ROOT];	/* cgroup v1 memory mount, or "" */
	char boot_id[40];
};

struct res_kind;

struct res {
	const struct res_kind *kind;
	char dev[RES_PATH];	/* /dev/zramN, /dev/loopN, a mount's source */
	char path[RES_PATH];	/* mount point, image file, cgroup dir */
	char opt[RES_PATH];	/* fs type and options, compressor, memcg limit */
	int num;		/* zram/loop device number, cgroup version; -1 none */
	long long size;		/* bytes: disksize, image size */
	bool added;		/* a zram device we hot-added */
	bool gone;		/* undone, or left alone: dropped from the journal */
	char boot_id[40];
};

struct res_kind {
	const char *name;
	/* Make r (journalled already; the kind may call res_journal_sync
	 * once it knows more, e.g. the device number). 0, or -1 with err. */
	int (*make)(struct res *r, const struct res_env *e,
		    int (*sync)(void *arg), void *arg, char *err,
		    size_t errlen);
	/* Undo what of r is there; idempotent, system calls only. 0, or -1
	 * when something of it stays. */
	int (*undo)(const struct res *r, const struct res_env *e);
	/* A journalled r (perhaps hostile or stale) is ours to undo? 1 yes,
	 * 0 no with why set. */
	int (*owned)(const struct res *r, const struct res_env *e,
		     char *why, size_t len);
};

extern const struct res_kind res_kind_zram, res_kind_mount, res_kind_loop,
	res_kind_cgroup, res_kind_zswap, res_kind_service;

/* The kind named name, or NULL. */
const struct res_kind *res_kind_find(const char *name);

/* What this run made, in order; fixed size for the signal path. */
struct res_set {
	struct res v[RES_MAX];
	size_t n;
	char journal[RES_PATH + 32];	/* state_dir/resources.json */
	struct res_env env;
};

/* The roots from the environment (tests: THPBENCH_RES_*_ROOT). */
void res_env_init(struct res_env *e, const char *state_dir);

void res_set_init(struct res_set *set, const char *state_dir);

/*
 * Journal proto, then make it. 0 with *made pointing at the set's copy,
 * or -1 with err set (what of it was made is undone, and dropped from
 * the journal).
 */
int res_set_make(struct res_set *set, const struct res *proto,
		 const struct res **made, char *err, size_t errlen);

/* Undo everything, newest first; system calls only. How many stay. */
int res_set_undo(struct res_set *set);

/* res_set_undo, then delete the journal when nothing stayed (else
 * rewrite it with what did, for `thpbench restore`). Not signal-safe. */
int res_set_end(struct res_set *set, const struct settings_sink *say);

/*
 * A crashed run's resources.json in state_dir: each entry that is ours
 * (res_kind.owned) undone newest first, the rest told to say and
 * dropped. *undone counts them. 0 (also: no journal), or -1 with err set
 * (journal unreadable, or something of ours would not go: then kept).
 */
int res_recover(const char *state_dir, const struct settings_sink *say,
		int *undone, char *err, size_t errlen);

/* Journal I/O (res_journal.c). */
int res_journal_write(const struct res_set *set, char *err, size_t errlen);
/* 1 and set filled, 0 none, -1 err. */
int res_journal_read(const char *state_dir, struct res_set *set, char *err,
		     size_t errlen);

/* Helpers the kinds share (resource.c). */
bool res_under(const char *path, const char *dir, const char *prefix);
/* Files are read and written with util.h's read_file_str and
 * write_file_str (system calls only: the signal path uses them too). */
/* Is dev (a /dev path) a line of /proc/swaps? Signal-safe. */
bool res_in_swaps(const struct res_env *e, const char *dev);
/* Is path a mount point in /proc/self/mountinfo? Signal-safe. */
bool res_is_mount(const struct res_env *e, const char *path);
/* 20 ms (nanosleep: the signal path may not usleep). */
void res_nap(void);
/* Run argv (execvp, output to stderr) and wait. Its exit status, -1. */
int res_run(char *const argv[]);

#endif
