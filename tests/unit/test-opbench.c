// SPDX-License-Identifier: GPL-2.0
/* Unit tests for rootfs/tools/opbench.c: names, and every op really runs. */
#include "check.h"
#include "opbench.h"

#include <errno.h>
#include <stdlib.h>

TEST(test_names_round_trip)
{
	for (int i = 0; i < RL_NR_OPS; i++) {
		enum rl_op op;

		CHECK(rl_op_name((enum rl_op)i) != NULL);
		CHECK(rl_op_by_name(rl_op_name((enum rl_op)i), &op));
		CHECK_EQ_INT(op, i);
		CHECK(strstr(rl_op_names(), rl_op_name((enum rl_op)i)) != NULL);
	}
	CHECK(rl_op_name(RL_NR_OPS) == NULL);
}

TEST(test_unknown_op_refused)
{
	enum rl_op op = RL_OP_WRITE_1K;
	uint64_t ns = 7;

	CHECK(!rl_op_by_name("nosuch", &op));
	CHECK(!rl_op_by_name("", &op));
	CHECK_EQ_INT(op, RL_OP_WRITE_1K);
	CHECK_EQ_INT(rl_op_run(RL_NR_OPS, 1, "/tmp", &ns), EINVAL);
	CHECK_EQ_INT(ns, 7);
}

TEST(test_every_op_runs_and_takes_time)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	for (int i = 0; i < RL_NR_OPS; i++) {
		uint64_t ns = 0;

		CHECK_EQ_INT(rl_op_run((enum rl_op)i, 50, dir, &ns), 0);
		CHECK(ns > 0);
	}
}

TEST(test_write_into_missing_dir_fails)
{
	uint64_t ns = 3;

	CHECK_EQ_INT(rl_op_run(RL_OP_WRITE_1K, 1, "/nonexistent/dir", &ns), ENOENT);
	CHECK_EQ_INT(ns, 3);
}
