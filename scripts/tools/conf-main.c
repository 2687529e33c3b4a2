// SPDX-License-Identifier: GPL-2.0
/*
 * rl-conf: one value of a key=value file (run.conf, matrix.conf, status)
 * for the shell scripts, read by the same function the report reads them
 * with (rep_conf_value()), so the files have one reader.  The file may be
 * a guest's or a user's: it is only read, never sourced.
 *
 * Prints the value of the last KEY= line (quotes of folders from before
 * 2026-12 removed), nothing when the file or the key is absent.
 * Exit status: 0 ok, 1 out of memory or write error, 2 bad usage.
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-conf"

/* Run folders' files are small; a larger one is not one of them. */
#define CONF_MAX (1 << 20)

int main(int argc, char **argv)
{
	char *text, *value;
	size_t n;
	FILE *f;

	if (argc != 3 || !argv[2][0] || strchr(argv[2], '=') || strchr(argv[2], '\n')) {
		fprintf(stderr, "usage: " PROG " FILE KEY\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f)
		return 0;
	text = malloc(CONF_MAX + 1);
	if (!text) {
		fclose(f);
		return 1;
	}
	n = fread(text, 1, CONF_MAX, f);
	fclose(f);
	text[n] = '\0';
	value = rep_conf_value(text, argv[2]);
	free(text);
	if (value)
		printf("%s\n", value);
	free(value);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
