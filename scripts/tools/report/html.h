/* SPDX-License-Identifier: GPL-2.0 */
/*
 * html: report.html, the markdown the report wrote as one self-contained
 * page, every SVG of plots_dir it links inline (see html.c).
 */
#ifndef RECLAIMLAB_REPORT_HTML_H
#define RECLAIMLAB_REPORT_HTML_H

#include <stdio.h>

int report_html(const char *markdown, const char *title, const char *plots_dir,
		FILE *out);

#endif
