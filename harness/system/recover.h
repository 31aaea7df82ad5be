/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recover - putting back what a run changed and did not restore, from
 * the state dir (settings.h): the journal a crashed or SIGKILLed run
 * left (journal.h) and the record of knobs that would not go back
 * (unrestored.h). Always with the settings lock held (settings_lock.h).
 *
 * A journal is written back only to knobs this thpbench may change: mm
 * knobs under its own mm root and the allowed sysctl knobs under its own
 * sysctl root, whatever the journal says; a journal for another root is
 * refused, naming the root to run with. Knobs that would not go back are
 * recorded in unrestored.json in place of the journal, which is deleted:
 * they no longer stop anyone, and each later run warns about them until
 * they read what they should again or are forgotten.
 */
#ifndef THPBENCH_RECOVER_H
#define THPBENCH_RECOVER_H

#include <stddef.h>
#include <sys/types.h>

#include "unrestored.h"

struct settings_ctx;

/*
 * settings_begin, lock held: restore a journal a crashed run left (a
 * warning names its pid, start and how many knobs went back), then warn
 * about recorded knobs that still do not read what they should. 0, or -1
 * with err set when the journal cannot be read or is not ours to write.
 */
int recover_crashed(struct settings_ctx *ctx, char *err, size_t errlen);

/*
 * Merge stuck into the record (unrestored.json) in place of the journal:
 * pid and time name the run that changed them. 0, or -1 with err set
 * (the caller then keeps the journal).
 */
int recover_record_stuck(const struct settings_ctx *ctx,
			 const struct unrestored *stuck, pid_t pid, char *err,
			 size_t errlen);

/*
 * `thpbench restore`: if state_dir holds a journal, write its values back,
 * verify, delete it; then try once more the knobs unrestored.json records.
 * Returns 0 and *restored = number of knobs written back (0 and no
 * journal: nothing to do), or -1 with err set (also when recorded knobs
 * still would not go back: err names them and the record stays).
 */
int settings_restore_journal(struct settings_ctx *ctx, int *restored,
			     char *err, size_t errlen);

/* `thpbench restore --forget`: drop the record, keep the current values.
 * 0 and *forgotten knobs, or -1 with err set. */
int settings_forget_unrestored(struct settings_ctx *ctx, size_t *forgotten,
			       char *err, size_t errlen);

#endif
