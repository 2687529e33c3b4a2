// SPDX-License-Identifier: GPL-2.0
/*
 * rl-conf: one value of a key=value file (run.conf, status, matrix.conf),
 * or of key=value text on stdin (FILE -: rl-scenario-info's output), for
 * the shell scripts, read by conf_value() (conf.h), the one reader the C
 * tools use too: one rule for every such file.  The file may be a guest's
 * or a user's: it is only read, never sourced, and read as a guest's file
 * is (guest-read.h): a regular file of at most CONF_MAX.
 *
 * Prints the value of the last KEY= line (quotes of folders from before
 * 2026-12 removed), nothing when the file or the key is absent.
 * Exit status: 0 ok, 1 out of memory, write error or a file refused (not
 * a regular file, or larger than CONF_MAX), 2 bad usage.
 */
#include "lib/conf.h"
#include "lib/guest-read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-conf"

/* Run folders' key=value files are small; a larger one is not one of them. */
#define CONF_MAX (1 << 20)

/* stdin, at most CONF_MAX bytes; NULL (err set) if it has more */
static char *read_stdin(char *err, size_t errlen)
{
	char *text = malloc(CONF_MAX + 1);
	size_t n;

	if (!text) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	n = fread(text, 1, CONF_MAX + 1, stdin);
	if (n > CONF_MAX || ferror(stdin)) {
		snprintf(err, errlen, "stdin: %s", n > CONF_MAX ? "more than 1 MiB" : strerror(errno));
		free(text);
		return NULL;
	}
	text[n] = '\0';
	return text;
}

int main(int argc, char **argv)
{
	char *text, *value, err[1024];

	if (argc != 3 || !argv[2][0] || strchr(argv[2], '=') || strchr(argv[2], '\n')) {
		fprintf(stderr, "usage: " PROG " FILE|- KEY\n");
		return 2;
	}
	if (!strcmp(argv[1], "-"))
		text = read_stdin(err, sizeof(err));
	else
		text = guest_read_file(argv[1], CONF_MAX, NULL, err, sizeof(err));
	if (!text) {
		if (errno == ENOENT && strcmp(argv[1], "-"))
			return 0;
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	value = conf_value(text, argv[2]);
	free(text);
	if (value)
		printf("%s\n", value);
	free(value);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
