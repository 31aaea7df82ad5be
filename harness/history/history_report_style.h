/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_report_style - the style sheet of the report page, inline (the
 * page loads nothing from anywhere). Layout rules it keeps: the verdict a
 * full-width banner at the top; cards in one column up to about 1800 px
 * of window, two beyond; kernel ids, p-values and bisect lines never
 * wrap (a line too long for its card scrolls inside it, never the page).
 */
#ifndef THPBENCH_HISTORY_REPORT_STYLE_H
#define THPBENCH_HISTORY_REPORT_STYLE_H

extern const char history_report_css[];

#endif
