/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report: report.md, report.html and the plots of a comparison matrix.
 *
 * Reads only the saved run folders (MATRIX/runs/NAME/: each run's record,
 * record.h: run.conf, status and derived/summary.tsv, joined here; the
 * params, knobs and clock are run.conf's, recorded by run.sh before boot;
 * derived/ files of summarize-run.sh; the guest's kernel-release,
 * workload-seconds and *.progress in guest/, read through guest-read.h),
 * MATRIX/matrix.conf, MATRIX/NAME.err
 * and the scenario files (scenario.c).  The statistics and the checks are
 * aggregate-stats.c's and aggregate-checks.c's; summary rows are read by metric name.  Plots are gnuplot
 * scripts and data written into the plots folder and drawn by gnuplot.
 * The same runs give the same report.
 */
#ifndef RECLAIMLAB_REPORT_H
#define RECLAIMLAB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "lib/conf.h"

struct report_opts {
	const char *matrix;		/* the matrix folder */
	const char *scenarios;		/* folder of NAME.scn */
	const char *fs_order;		/* "ext4 xfs ...": the catalogue's order */
	const char *mode_order;		/* "patched vanilla ..." */
	const char *png_term;		/* gnuplot's png terminal, NULL: no plots */
};

/* Numbers for people: whole above 1000 or when whole, else 3 digits. */
void format_readable(char *buf, size_t size, double v);

/* A compare.sh error line without "reclaimlab: " and a trailing "; .../path". */
void strip_error_line(char *line);

/* Writes a guest-written string into report.md as plain text: see report.c. */
void md_text(FILE *f, const char *s);

/* Whether a guest-written name may go into a gnuplot script: [A-Za-z0-9._-]. */
int is_gnuplot_safe_name(const char *name);

#endif
