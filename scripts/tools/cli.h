/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every host tool's main does with bad usage: one line on stderr,
 * "PROG: message" naming the bad value and the valid ones, then exit 2;
 * and how their libraries report an error to the caller.
 */
#ifndef RECLAIMLAB_CLI_H
#define RECLAIMLAB_CLI_H

#include <stddef.h>

void cli_die_usage(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * How the host tools' libraries fail: the message into err (if err is not
 * NULL and errlen not 0), then -1 for the caller to return.
 */
int cli_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
