// SPDX-License-Identifier: GPL-2.0
/* Unit tests for rootfs/tools/size.c. */
#include "size.h"
#include "check.h"

#include <stdint.h>

TEST(test_parse_size_valid)
{
	uint64_t v = 0;

	CHECK_EQ_INT(rl_parse_size("1", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 1);
	CHECK_EQ_INT(rl_parse_size("4096", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 4096);
	CHECK_EQ_INT(rl_parse_size("4k", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 4096);
	CHECK_EQ_INT(rl_parse_size("64k", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 65536);
	CHECK_EQ_INT(rl_parse_size("16M", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 16ULL << 20);
	CHECK_EQ_INT(rl_parse_size("256M", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 256ULL << 20);
	CHECK_EQ_INT(rl_parse_size("2G", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 2ULL << 30);
	CHECK_EQ_INT(rl_parse_size("6G", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 6ULL << 30);
	CHECK_EQ_INT(rl_parse_size("1g", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 1ULL << 30);
}

TEST(test_parse_size_overflow)
{
	uint64_t v = 0;

	CHECK_EQ_INT(rl_parse_size("9223372036854775807", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, INT64_MAX);
	CHECK_EQ_INT(rl_parse_size("9223372036854775808", &v), RL_SIZE_OVERFLOW);
	CHECK_EQ_INT(rl_parse_size("99999999999999999999", &v), RL_SIZE_OVERFLOW);
	CHECK_EQ_INT(rl_parse_size("9007199254740992k", &v), RL_SIZE_OVERFLOW);
	/* Largest off_t in G is accepted, one more is not. */
	CHECK_EQ_INT(rl_parse_size("8589934591G", &v), RL_SIZE_OK);
	CHECK_EQ_INT(v, 8589934591ULL << 30);
	CHECK_EQ_INT(rl_parse_size("8589934592G", &v), RL_SIZE_OVERFLOW);
}

TEST(test_parse_size_errors)
{
	uint64_t v = 0;

	CHECK_EQ_INT(rl_parse_size("9223372036854775807", &v), RL_SIZE_OK);
	CHECK_EQ_INT(rl_parse_size("0", &v), RL_SIZE_ZERO);
	CHECK_EQ_INT(rl_parse_size("000k", &v), RL_SIZE_ZERO);
	CHECK_EQ_INT(rl_parse_size("0M", &v), RL_SIZE_ZERO);
	CHECK_EQ_INT(rl_parse_size(NULL, &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("k", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("M", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("+4k", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("-1", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size(" 1", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("4 k", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("4KiB", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("0x10", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("1.5G", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("1T", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("1kk", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(rl_parse_size("12x", &v), RL_SIZE_GARBAGE);
	CHECK_EQ_INT(v, INT64_MAX);	/* untouched on error */
}

TEST(test_size_strerror)
{
	CHECK_STR(rl_size_strerror(RL_SIZE_GARBAGE), "not a size");
	CHECK_STR(rl_size_strerror(RL_SIZE_OVERFLOW), "too large");
	CHECK_STR(rl_size_strerror(RL_SIZE_ZERO), "must not be zero");
	CHECK_STR(RL_SIZE_FORMS, "bytes, or a number with suffix k, M, G");
}

TEST(test_parse_u64)
{
	uint64_t v = 7;

	CHECK(rl_parse_u64("0", &v) && v == 0);
	CHECK(rl_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
	v = 7;
	CHECK(!rl_parse_u64("18446744073709551616", &v));
	CHECK(!rl_parse_u64("", &v));
	CHECK(!rl_parse_u64("-1", &v));
	CHECK(!rl_parse_u64("12k", &v));
	CHECK(!rl_parse_u64(" 1", &v));
	CHECK_EQ_INT(v, 7);
}
