/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * axes - the dimensions a case runs along besides the THP mode: the mTHP
 * sizes (system/mthp.h) and the state memory is put in before each
 * repetition (memstate.h).
 *
 * Suite keys, in [suite] (every case) or [case NAME] (that case), and
 * the run options that override both:
 *   mthp = 16K,64K,2M       --mthp        mTHP choices, one case each
 *   mthp_shmem = MODE       --mthp-shmem  shmem_enabled of the chosen
 *                                         sizes (always, inherit,
 *                                         within_size, advise, never);
 *                                         absent: shmem left as found
 *   memory_state = fresh,compacted,fragmented
 *                           --memory-state  one case each
 *   fragment_share = 0.9    --fragment-share  share of the free memory in
 *                                         2 MiB blocks the fragmenter
 *                                         breaks up (0-0.99; memstate.h)
 * A case's id names each dimension it has, before the THP mode:
 * "NAME/mthp=64K/mem=fragmented/thp=always"; results keep them in the
 * case's "dims" object ({"mthp": "64K", "mem": "fragmented"}), which
 * compare and plot pair on and can compare along (--by mthp, --by mem).
 */
#ifndef THPBENCH_AXES_H
#define THPBENCH_AXES_H

#include <stdbool.h>
#include <stddef.h>

#include "system/mthp.h"

/* MEM_PINNED: the fragmenter breaks up every free 2 MiB block it can get
 * and mlocks the page it keeps in each (memstate.h). */
enum mem_state { MEM_FRESH, MEM_COMPACTED, MEM_FRAGMENTED, MEM_PINNED };

#define FRAGMENT_SHARE_DEFAULT 0.9
#define FRAGMENT_SHARE_MAX 0.99

struct axes {
	struct mthp_choice *mthp;	/* NULL: not an axis */
	size_t nmthp;
	char *mthp_shmem;		/* NULL: shmem knobs as found */
	enum mem_state *mem;		/* NULL: not an axis */
	size_t nmem;
	double fragment_share;		/* < 0: not given */
};

/* An empty set (nothing given). */
void axes_init(struct axes *a);
void axes_free(struct axes *a);

/*
 * key = val of a suite section, or a run option without its dashes
 * ("mthp", "memory-state" and "memory_state" alike). 1 taken, 0 not an
 * axis key, -1 a bad value (err says why, without file or line).
 */
int axes_key(struct axes *a, const char *key, const char *val, char *err,
	     size_t errlen);

/* What a case runs along: each field from cli, else kase, else suite
 * (copies; free with axes_free). */
void axes_resolve(const struct axes *suite, const struct axes *kase,
		  const struct axes *cli, struct axes *out);

const char *mem_state_name(enum mem_state st);
/* The share the fragmenter aims at for these axes. */
double axes_fragment_share(const struct axes *a);

#endif
