// SPDX-License-Identifier: GPL-2.0
/*
 * rl-guest-read [--max BYTES] FILE: a file a guest wrote, on stdout, read
 * the way the host tools read one (guest-read.h): a regular file of at
 * most BYTES (default GUEST_MAX_DEFAULT), no symlink followed, no fifo
 * waited on.  For the shell scripts, which would otherwise cat it.
 *
 * Exit status: 0 ok, 1 the file is absent, refused or unreadable (one
 * line on stderr says which and why), 2 bad usage.
 */
#include "lib/cli.h"
#include "lib/guest-read.h"
#include "size.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "rl-guest-read"

enum { OPT_MAX = 256, OPT_HELP };

static const struct option long_options[] = {
	{ "max", required_argument, NULL, OPT_MAX },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	uint64_t max = GUEST_MAX_DEFAULT;
	const char *file;
	char err[1024], bad[8], *text;
	enum rl_size_err e;
	size_t len;
	int c, i;

	/* '+': the options come first, as the usage has them */
	while ((c = getopt_long(argc, argv, "+:", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			printf("usage: " PROG " [--max BYTES] FILE\n"
			       "Prints a file a guest wrote if it is a regular file of at most BYTES\n"
			       "(default %lu; " RL_SIZE_FORMS "); a symlink, fifo, device or\n"
			       "larger file is refused.  Exit status: 0 ok, 1 absent or refused, 2 usage.\n",
			       (unsigned long)GUEST_MAX_DEFAULT);
			return 0;
		case OPT_MAX:
			e = rl_parse_size(optarg, &max);
			if (e != RL_SIZE_OK || max > SIZE_MAX - 1)
				cli_die_usage(PROG, "bad --max '%s': %s (valid: " RL_SIZE_FORMS ")",
					      optarg, e != RL_SIZE_OK ? rl_size_strerror(e) : "too large");
			break;
		case ':':
			cli_die_usage(PROG, "option '%s' needs a value (valid: --max BYTES)",
				      argv[optind - 1]);
		default:
			cli_die_usage(PROG, "unknown option '%s' (valid: --max BYTES --help)",
				      cli_refused_option(argv, bad, sizeof(bad)));
		}
	}
	i = optind;
	if (argc != i + 1 || (argv[i][0] == '-' && argv[i][1] == '-'))
		cli_die_usage(PROG, "usage: " PROG " [--max BYTES] FILE (one file)");
	file = argv[i];
	text = guest_read_file(file, (size_t)max, &len, err, sizeof(err));
	if (!text) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
