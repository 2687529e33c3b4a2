// SPDX-License-Identifier: GPL-2.0
/*
 * rl-opbench [-n COUNT] [-d DIR] [OP...]: time each OP (default: all) COUNT
 * times (default 20000; fork_exit_wait a tenth of it) and print one line
 * per op:  op=NAME n=COUNT ns_per_op=X
 */
#include "opbench.h"
#include "size.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: rl-opbench [-n COUNT] [-d DIR] [OP...]  (OP: %s)\n", rl_op_names());
	return 2;
}

static int bench(enum rl_op op, uint64_t n, const char *dir)
{
	uint64_t ns;
	int err;

	if (op == RL_OP_FORK_EXIT_WAIT && n >= 10)
		n /= 10;
	err = rl_op_run(op, n, dir, &ns);
	if (err) {
		fprintf(stderr, "rl-opbench: %s failed: %s\n", rl_op_name(op), strerror(err));
		return 1;
	}
	printf("op=%s n=%" PRIu64 " ns_per_op=%.1f\n", rl_op_name(op), n, (double)ns / (double)n);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = 20000;
	const char *dir = "/tmp";
	int c, rc = 0;

	while ((c = getopt(argc, argv, "n:d:h")) != -1) {
		switch (c) {
		case 'n':
			if (!rl_parse_u64(optarg, &n) || n == 0) {
				fprintf(stderr, "rl-opbench: bad count '%s' (valid: a positive whole number)\n", optarg);
				return 2;
			}
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			return usage();
		}
	}
	if (optind == argc) {
		for (int i = 0; i < RL_NR_OPS; i++)
			rc |= bench((enum rl_op)i, n, dir);
		return rc;
	}
	for (int i = optind; i < argc; i++) {
		enum rl_op op;

		if (!rl_op_by_name(argv[i], &op)) {
			fprintf(stderr, "rl-opbench: unknown op '%s' (valid: %s)\n", argv[i], rl_op_names());
			return 2;
		}
		rc |= bench(op, n, dir);
	}
	return rc;
}
