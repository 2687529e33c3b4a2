/* SPDX-License-Identifier: GPL-2.0 */
/*
 * splats: kernel problem reports ("splats") in a guest console log.
 *
 * A splat starts at a line that names a problem (Oops, BUG:, WARNING:,
 * KASAN:, lockdep, hung task, panic, ...), or at the "[ cut here ]" line
 * just before one, and ends at the kernel's own end marker ("---[ end
 * trace", the "=====" rule closing KASAN and UBSAN reports), at the start
 * of the next splat, at EOF, or after SPLATS_MAX_LINES lines.  Lines are
 * fed one at a time; each finished splat is handed to a callback.
 */
#ifndef RECLAIMLAB_SPLATS_H
#define RECLAIMLAB_SPLATS_H

#include <stddef.h>

/* An excerpt keeps at most this many lines; the rest are counted. */
#define SPLATS_MAX_LINES	80
/* Longer console lines are cut to this many bytes. */
#define SPLATS_LINE_MAX		512

enum splat_kind {
	SPLAT_NONE = -1,
	SPLAT_OOPS,
	SPLAT_BUG,
	SPLAT_WARNING,
	SPLAT_KASAN,
	SPLAT_UBSAN,
	SPLAT_LOCKDEP,
	SPLAT_HUNG_TASK,
	SPLAT_RCU_STALL,
	SPLAT_SOFT_LOCKUP,
	SPLAT_GPF,
	SPLAT_PANIC,
	SPLAT_HOST_MEMORY,
	NR_SPLAT_KINDS,
};

/* "oops", "bug", "warning", ... as written in status files. */
const char *splat_kind_name(enum splat_kind kind);

/* The kind of splat a console line starts, or SPLAT_NONE. */
enum splat_kind splat_line_kind(const char *line);

struct splat {
	enum splat_kind kind;
	/* the line that named the problem, without the printk timestamp */
	char title[SPLATS_LINE_MAX];
	/* the excerpt: lines as read, newline-terminated */
	char *text;
	size_t len, nlines;
	/* lines after SPLATS_MAX_LINES that were not kept */
	size_t dropped;
	/* 1 if the kernel's end marker closed it */
	int complete;
};

typedef int (*splat_cb)(const struct splat *s, void *arg);

struct splat_scanner {
	struct splat cur;
	/* cur holds a splat being read; kind SPLAT_NONE: opened at "[ cut here ]" */
	int open;
	size_t cap;
	size_t count[NR_SPLAT_KINDS];
	size_t total;
	splat_cb cb;
	void *arg;
};

void splat_scanner_init(struct splat_scanner *sc, splat_cb cb, void *arg);
/*
 * Feed one line (with or without its newline).  Returns 0, or the
 * callback's non-zero value, or -1 when out of memory.
 */
int splat_scanner_line(struct splat_scanner *sc, const char *line);
/* Close a splat cut short by EOF; frees the scanner's memory. */
int splat_scanner_finish(struct splat_scanner *sc);

#endif /* RECLAIMLAB_SPLATS_H */
