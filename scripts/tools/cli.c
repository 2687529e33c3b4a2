// SPDX-License-Identifier: GPL-2.0
/* Bad usage of a host tool, and errors of their libraries; see cli.h. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void cli_die_usage(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

int cli_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
