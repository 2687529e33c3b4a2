/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every host tool's main does with bad usage: one line on stderr,
 * "PROG: message" naming the bad value and the valid ones, then exit 2.
 */
#ifndef RECLAIMLAB_CLI_H
#define RECLAIMLAB_CLI_H

void cli_die_usage(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#endif
