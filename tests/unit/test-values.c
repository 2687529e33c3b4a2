// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/lib/values.c: numbers, names and decimals
 * read from files, and the percentiles of sorted samples.
 */
#include "check.h"
#include "lib/values.h"

#include <limits.h>
#include <stdlib.h>

TEST(test_numbers)
{
	CHECK(value_is_number("12"));
	CHECK(value_is_number("-3.5"));
	CHECK(value_is_number("1e-5"));
	CHECK(value_is_number(".5"));
	CHECK(!value_is_number(""));
	CHECK(!value_is_number("absent"));
	CHECK(!value_is_number("1x"));
	CHECK(!value_is_number("1e"));
	CHECK(!value_is_number("$(x)"));
}

TEST(test_safe_names)
{
	CHECK(value_is_plain_name("v1-writer1"));
	CHECK(value_is_plain_name("usemem.2"));
	CHECK(!value_is_plain_name(""));
	CHECK(!value_is_plain_name("a'b"));
	CHECK(!value_is_plain_name("x;system('id')"));
	CHECK(!value_is_plain_name("a b"));
}

TEST(test_decimals)
{
	long v = -1;

	CHECK_EQ_INT(value_parse_decimal("123", 3, 1000, &v), 0);
	CHECK_EQ_INT(v, 123);
	/* only len bytes are read */
	CHECK_EQ_INT(value_parse_decimal("4567", 2, 1000, &v), 0);
	CHECK_EQ_INT(v, 45);
	CHECK_EQ_INT(value_parse_decimal("0", 1, 0, &v), 0);
	CHECK_EQ_INT(v, 0);
	v = 7;
	CHECK_EQ_INT(value_parse_decimal("", 0, 1000, &v), -1);
	CHECK_EQ_INT(value_parse_decimal("-1", 2, 1000, &v), -1);
	CHECK_EQ_INT(value_parse_decimal("+1", 2, 1000, &v), -1);
	CHECK_EQ_INT(value_parse_decimal("1 ", 2, 1000, &v), -1);
	CHECK_EQ_INT(value_parse_decimal("1001", 4, 1000, &v), -1);
	CHECK_EQ_INT(value_parse_decimal("2147483648", 10, INT_MAX, &v), -1);
	/* more than 18 digits could overflow a long: refused whatever max says */
	CHECK_EQ_INT(value_parse_decimal("1234567890123456789", 19, LONG_MAX, &v), -1);
	CHECK_EQ_INT(v, 7);
	CHECK_EQ_INT(value_parse_decimal("123456789012345678", 18, LONG_MAX, &v), 0);
	CHECK(v == 123456789012345678L);
}

TEST(test_percentiles_nearest_rank)
{
	long v[] = { 40, 10, 30, 20, 50, 60, 70, 80, 90, 100 };
	long one[] = { 5 };
	size_t n = sizeof(v) / sizeof(v[0]);

	qsort(v, n, sizeof(v[0]), value_cmp_long);
	CHECK_EQ_INT(v[0], 10);
	CHECK_EQ_INT(v[9], 100);
	CHECK_EQ_INT(value_percentile(v, n, 50), 50);
	CHECK_EQ_INT(value_percentile(v, n, 51), 60);
	CHECK_EQ_INT(value_percentile(v, n, 90), 90);
	CHECK_EQ_INT(value_percentile(v, n, 99), 100);
	CHECK_EQ_INT(value_percentile(v, n, 100), 100);
	/* the smallest sample at 0 */
	CHECK_EQ_INT(value_percentile(v, n, 0), 10);
	CHECK_EQ_INT(value_percentile(one, 1, 50), 5);
	CHECK_EQ_INT(value_percentile(NULL, 0, 50), 0);
}

TEST(test_cmp_long_extremes)
{
	long a = LONG_MIN, b = LONG_MAX;

	/* no subtraction: no overflow at the ends */
	CHECK(value_cmp_long(&a, &b) < 0);
	CHECK(value_cmp_long(&b, &a) > 0);
	CHECK_EQ_INT(value_cmp_long(&a, &a), 0);
}
