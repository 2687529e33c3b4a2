/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench: the figures of the benchmarks scripts/bench-clock.sh and
 * scripts/bench-disks.sh, from what their guests and the host's rl-opbench
 * wrote.  Those are lines of KEY=VALUE words ("op=write ... seconds=1.2
 * mbps=10.50", the status file's "wall_seconds=.51") and the ubd.model
 * values of a device profile ("name=hdd,rbw=95000,..."), read as data: a
 * value is taken only if it is a plain decimal number, and kept as written
 * for printing.
 */
#ifndef RECLAIMLAB_BENCH_H
#define RECLAIMLAB_BENCH_H

#include <stddef.h>
#include <stdio.h>

/* Longer values are not numbers; longer lines are not result lines. */
#define BENCH_VALUE_MAX	63
#define BENCH_LINE_MAX	4096

/* Word separators of a result line and of a profile's values. */
#define BENCH_LINE_SEPS	" \t\r\n"
#define BENCH_LIST_SEPS	",\r\n"

struct bench_value {
	char text[BENCH_VALUE_MAX + 1];	/* as written */
	double num;
};

/*
 * The value of the first word KEY=VALUE of words (separated by any of
 * seps) into buf, at most len - 1 characters; 0, or -1 if there is no such
 * word or its value does not fit.
 */
int bench_word_text(const char *words, const char *seps, const char *key,
		    char *buf, size_t len);

/* Whether text is a decimal number: [-+]digits[.digits][e[-+]digits] */
int bench_is_decimal(const char *text);

/* bench_word_text() of a decimal number; -1 if absent or not a number. */
int bench_word(const char *words, const char *seps, const char *key,
	       struct bench_value *out);

/*
 * The first line of f with the number KEY=VALUE and, if op is not NULL,
 * the word op=OP; 0, or -1 if there is none (over-long lines are skipped).
 */
int bench_find(FILE *f, const char *op, const char *key,
	       struct bench_value *out);

/*
 * Wall nanoseconds per operation, from the wall seconds of a boot that ran
 * n_big operations and of one that ran fewer, n_small: the boot's own cost
 * cancels.
 */
double bench_wall_ns_per_op(double wall_big, double n_big, double wall_small,
			    double n_small);

/* How far achieved MB/s are off configured kB/s (of 1000 bytes), in percent. */
double bench_off_pct(double mbps, double kbps);

/*
 * Operations per second of the ubd timing model (patch 0004) for random
 * writes of bytes each: 1 / (seek + bytes / write bandwidth), plus half a
 * revolution of rotational latency on a disk with a spindle speed (patch
 * 0021: rpm > 0; its seeks then average the profile's seek).
 */
double bench_model_iops(double seek_us, double rpm, double wbw_kbps,
			double bytes);

/*
 * The write bandwidth a device sustains in kB/s: its write bandwidth, with
 * an erase stall of erase_us every erase_kb KiB (patch 0021) averaged in.
 */
double bench_sustained_kbps(double wbw_kbps, double erase_kb, double erase_us);

#endif
