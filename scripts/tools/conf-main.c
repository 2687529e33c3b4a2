// SPDX-License-Identifier: GPL-2.0
/*
 * rl-conf: one value of a key=value file (run.conf, matrix.conf, status)
 * for the shell scripts, read by the same function the report reads them
 * with (rep_conf_value()), so the files have one reader.  The file may be
 * a guest's or a user's: it is only read, never sourced, and read as a
 * guest's file is (guest-read.h): a regular file of at most CONF_MAX.
 *
 * Prints the value of the last KEY= line (quotes of folders from before
 * 2026-12 removed), nothing when the file or the key is absent.
 * Exit status: 0 ok, 1 out of memory, write error or a file refused (not
 * a regular file, or larger than CONF_MAX), 2 bad usage.
 */
#include "guest-read.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-conf"

/* Run folders' key=value files are small; a larger one is not one of them. */
#define CONF_MAX (1 << 20)

int main(int argc, char **argv)
{
	char *text, *value, err[1024];

	if (argc != 3 || !argv[2][0] || strchr(argv[2], '=') || strchr(argv[2], '\n')) {
		fprintf(stderr, "usage: " PROG " FILE KEY\n");
		return 2;
	}
	text = guest_read_file(argv[1], CONF_MAX, NULL, err, sizeof(err));
	if (!text) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	value = rep_conf_value(text, argv[2]);
	free(text);
	if (value)
		printf("%s\n", value);
	free(value);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
