/* SPDX-License-Identifier: GPL-2.0 */
/*
 * values: how the host tools check a value read from a file before they
 * use it (a number of a summary row, a name a guest chose, a decimal field
 * of a trace line) and rank samples of one (percentiles).  Every stage
 * uses them, so they sit here, below all of them.
 */
#ifndef RECLAIMLAB_VALUES_H
#define RECLAIMLAB_VALUES_H

#include <stddef.h>

/* Whether text is a number as the rows carry them: -?[0-9.]+(e[-+]?[0-9]+)? */
int value_is_number(const char *text);

/*
 * Whether name (a file's or a task's, as a guest wrote it) is plain,
 * [A-Za-z0-9._-] and not empty: it may go into a row, a file name or a
 * gnuplot script as it is.
 */
int value_is_plain_name(const char *name);

/*
 * A non-negative decimal number of s[0..len), digits only, at most max;
 * 0, or -1 for anything else.
 */
int value_parse_decimal(const char *s, size_t len, long max, long *out);

/* qsort() comparison of longs, ascending. */
int value_cmp_long(const void *a, const void *b);

/* Nearest rank: the smallest sample with at least pct% at or below it (0 if n is 0). */
long value_percentile(const long *sorted, size_t n, int pct);

#endif
