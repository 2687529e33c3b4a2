/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every host tool's main does with bad usage: one line on stderr,
 * "PROG: message" naming the bad value and the valid ones, then exit 2;
 * and how their libraries report an error to the caller.
 */
#ifndef RECLAIMLAB_CLI_H
#define RECLAIMLAB_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

void cli_die_usage(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * The argument getopt_long() (opterr 0) just refused by returning '?' or
 * ':', as it was typed: "-c" for a short option, else the word itself
 * ("--bogus", "--tsv=1", "--max" without its value).  The tools give
 * their long options values past 255, so optopt tells the two apart.
 */
const char *cli_refused_option(char *const argv[], char *buf, size_t size);

/*
 * How the host tools' libraries fail: the message into err (if err is not
 * NULL and errlen not 0), then -1 for the caller to return.
 */
int cli_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Creates path for writing, as a new file: O_CREAT|O_EXCL|O_NOFOLLOW, so
 * a symlink planted at path is never written through.  A file already
 * there is removed first only if it is a regular file of ours (a stale
 * output or .tmp); anything else fails with a message naming it.  NULL
 * and the message in err on failure.
 */
FILE *cli_create(const char *path, char *err, size_t errlen);

#endif
