/* SPDX-License-Identifier: GPL-2.0 */
/*
 * markdown: report.md, written section by section from the model of the
 * matrix (model.h), with the plots' links (plots.h).  What a guest or a
 * run folder wrote goes in as plain text (md_text()), never as markup.
 */
#ifndef RECLAIMLAB_REPORT_MARKDOWN_H
#define RECLAIMLAB_REPORT_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"

/* Numbers for people: whole above 1000 or when whole, else 3 digits. */
void format_readable(char *buf, size_t size, double v);

/* Writes a guest-written string into report.md as plain text: see markdown.c. */
void md_text(FILE *f, const char *s);

/*
 * Writes report.md of r to f; the plots it links are drawn into
 * r->out_dir/plots on the way (notes: what could not be drawn).  0, or -1.
 */
int report_markdown(struct report_model *r, FILE *f, FILE *notes);

#endif
