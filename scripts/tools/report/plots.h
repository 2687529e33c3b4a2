/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plots: the report's figures, each a gnuplot script and its data in the
 * plots folder, drawn by gnuplot (see plots.c); every string in a script
 * is a gnuplot string literal made by gnuplot_quote().
 */
#ifndef RECLAIMLAB_REPORT_PLOTS_H
#define RECLAIMLAB_REPORT_PLOTS_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"

/*
 * A string as one gnuplot string literal, into buf: single-quoted with '
 * doubled, control characters, bytes past ASCII and ` (command
 * substitution) made '?', cut at GNUPLOT_STRING_MAX characters (and to
 * size).  Returns buf.
 */
#define GNUPLOT_STRING_MAX	400
#define GNUPLOT_QUOTED_SIZE	(2 * GNUPLOT_STRING_MAX + 3)
char *gnuplot_quote(char *buf, size_t size, const char *s);

/* The plots of scenario s, each mode's, and their links into f. */
void plots_section(struct report_model *r, struct model_scenario *s, FILE *f, FILE *notes);
/* plots/SCENARIO.MODE.picture.{svg,png}; its name (without .svg), or NULL */
const char *plot_picture(struct report_model *r, const struct picture *p, char *name,
			 size_t size, FILE *notes);

#endif
