/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kconfig - the running kernel's configuration: /proc/config.gz (the
 * kernel's own, CONFIG_IKCONFIG_PROC) or else /boot/config-RELEASE (plain
 * text or gzip), read below `root` ("" or NULL: the real machine).
 */
#ifndef THPBENCH_KCONFIG_H
#define THPBENCH_KCONFIG_H

#include <jansson.h>
#include <stddef.h>

/* The config text (NUL-terminated, free() it) and the path it came from;
 * NULL when neither file can be read. */
char *kconfig_read(const char *root, const char *release, size_t *len,
		   char *source, size_t source_len);

/*
 * The value of option `name` ("CONFIG_HAVE_MOVE_PMD") in config text: "y",
 * "m", a string as written, or "n" for "# CONFIG_X is not set" and for an
 * option the text does not mention (Kconfig writes every visible option;
 * a selected-only one such as HAVE_MOVE_PMD is absent when unselected).
 */
const char *kconfig_value(const char *text, const char *name, char *buf,
			  size_t len);

/*
 * {"source": PATH, "options": {NAME: VALUE, ...}} for the names asked,
 * or {"source": null, "unknown": "..."} when no config can be read:
 * what a claim about the kernel's configuration is judged by.
 */
json_t *kconfig_options(const char *root, const char *release,
			const char *const *names, size_t n);

#endif
