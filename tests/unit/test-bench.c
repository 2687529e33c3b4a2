// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/bench/bench.c: KEY=VALUE words of result lines and
 * profile values, read as data, and the benchmarks' formulas.
 */
#include "check.h"
#include "bench/bench.h"

#include <stdio.h>
#include <string.h>

/* f holding text, for bench_find() */
static FILE *text_file(const char *text)
{
	FILE *f = tmpfile();

	if (f) {
		fputs(text, f);
		rewind(f);
	}
	return f;
}

TEST(test_word_is_whole)
{
	char buf[32];

	CHECK_EQ_INT(bench_word_text("op=write seconds=1.5 mbps=10.50", BENCH_LINE_SEPS,
				     "seconds", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "1.5");
	/* a key that ends another key is not that key */
	CHECK_EQ_INT(bench_word_text("wall_seconds=.5", BENCH_LINE_SEPS, "seconds",
				     buf, sizeof(buf)), -1);
	CHECK_EQ_INT(bench_word_text("secondsx=1", BENCH_LINE_SEPS, "seconds", buf,
				     sizeof(buf)), -1);
	CHECK_EQ_INT(bench_word_text("", BENCH_LINE_SEPS, "seconds", buf, sizeof(buf)), -1);
	/* the first of two */
	CHECK_EQ_INT(bench_word_text("a=1\ta=2\n", BENCH_LINE_SEPS, "a", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "1");
	/* empty value */
	CHECK_EQ_INT(bench_word_text("a= b=2", BENCH_LINE_SEPS, "a", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
}

TEST(test_word_too_long_is_refused)
{
	char buf[4];

	CHECK_EQ_INT(bench_word_text("a=1234", BENCH_LINE_SEPS, "a", buf, sizeof(buf)), -1);
	CHECK_EQ_INT(bench_word_text("a=123", BENCH_LINE_SEPS, "a", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "123");
}

TEST(test_decimal_numbers_only)
{
	CHECK(bench_is_decimal("12"));
	CHECK(bench_is_decimal(".509682600"));
	CHECK(bench_is_decimal("-1.5e3"));
	CHECK(bench_is_decimal("+3."));
	CHECK(!bench_is_decimal(""));
	CHECK(!bench_is_decimal("."));
	CHECK(!bench_is_decimal("1e"));
	CHECK(!bench_is_decimal("0x10"));
	CHECK(!bench_is_decimal("inf"));
	CHECK(!bench_is_decimal("nan"));
	CHECK(!bench_is_decimal("1.2.3"));
	CHECK(!bench_is_decimal("$((1+1))"));
	CHECK(!bench_is_decimal("12 "));
}

TEST(test_word_number_kept_as_written)
{
	struct bench_value v = { "unchanged", 7 };

	CHECK_EQ_INT(bench_word("bytes=1 mbps=10.50", BENCH_LINE_SEPS, "mbps", &v), 0);
	CHECK_STR(v.text, "10.50");
	CHECK_NEAR(v.num, 10.5, 1e-12);
	CHECK_EQ_INT(bench_word("mbps=fast", BENCH_LINE_SEPS, "mbps", &v), -1);
	CHECK_STR(v.text, "10.50");
	CHECK_EQ_INT(bench_word("mbps=1e999", BENCH_LINE_SEPS, "mbps", &v), -1);
	CHECK_NEAR(v.num, 10.5, 1e-12);
}

TEST(test_profile_values)
{
	const char *hdd = "name=hdd,rbw=95000,wbw=95000,seek=8000,req=0,lat=0,qd=32";
	struct bench_value v;
	char name[16];

	CHECK_EQ_INT(bench_word(hdd, BENCH_LIST_SEPS, "seek", &v), 0);
	CHECK_NEAR(v.num, 8000, 0);
	CHECK_EQ_INT(bench_word(hdd, BENCH_LIST_SEPS, "qd", &v), 0);
	CHECK_STR(v.text, "32");
	CHECK_EQ_INT(bench_word_text(hdd, BENCH_LIST_SEPS, "name", name, sizeof(name)), 0);
	CHECK_STR(name, "hdd");
	CHECK_EQ_INT(bench_word(hdd, BENCH_LIST_SEPS, "name", &v), -1);
	/* the words of a profile are separated by commas only */
	CHECK_EQ_INT(bench_word("name=x rbw=1", BENCH_LIST_SEPS, "rbw", &v), -1);
}

TEST(test_find_line_of_op)
{
	FILE *f = text_file("op=null_syscall n=20000 ns_per_op=173.0\n"
			    "op=write_1k n=20000 ns_per_op=1599.2\n"
			    "op=write_1k n=20000 ns_per_op=9\n");
	struct bench_value v;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(bench_find(f, "write_1k", "ns_per_op", &v), 0);
	CHECK_STR(v.text, "1599.2");
	rewind(f);
	CHECK_EQ_INT(bench_find(f, "write", "ns_per_op", &v), -1);
	rewind(f);
	CHECK_EQ_INT(bench_find(f, NULL, "ns_per_op", &v), 0);
	CHECK_STR(v.text, "173.0");
	rewind(f);
	CHECK_EQ_INT(bench_find(f, NULL, "n_per_op", &v), -1);
	fclose(f);
}

TEST(test_find_skips_what_is_not_a_number)
{
	FILE *f = text_file("ok\nrun=x\nwall_seconds=soon\nwall_seconds=.509682600\n");
	struct bench_value v;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(bench_find(f, NULL, "wall_seconds", &v), 0);
	CHECK_STR(v.text, ".509682600");
	CHECK_NEAR(v.num, 0.5096826, 1e-9);
	fclose(f);
}

TEST(test_find_skips_over_long_lines)
{
	static char text[3 * BENCH_LINE_MAX];
	struct bench_value v;
	FILE *f;
	size_t n;

	/* a line too long to read whole, with a word after the cut */
	n = (size_t)snprintf(text, sizeof(text), "seconds=1 ");
	memset(text + n, 'x', BENCH_LINE_MAX);
	n += BENCH_LINE_MAX;
	n += (size_t)snprintf(text + n, sizeof(text) - n, " seconds=2\nseconds=3\n");
	f = text_file(text);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(bench_find(f, NULL, "seconds", &v), 0);
	CHECK_STR(v.text, "3");
	fclose(f);
}

TEST(test_formulas)
{
	/* 20000 ops in 2.0 s of wall time, 2000 in 0.2 s: 100 us an op */
	CHECK_NEAR(bench_wall_ns_per_op(2.0, 20000, 0.2, 2000), 100000, 1e-6);
	CHECK_NEAR(bench_off_pct(6.42, 6500), -1.230769, 1e-5);
	CHECK_NEAR(bench_off_pct(95, 95000), 0, 1e-12);
	/* hdd: 8 ms a seek, 95 MB/s: what scripts/bench-disks.sh used to write out */
	CHECK_NEAR(bench_model_iops(8000, 0, 95000, 4096), 1 / (0.008 + 4096 / 95e6), 1e-9);
	CHECK_NEAR(bench_model_iops(0, 0, 1000, 1000), 1000, 1e-9);
	/* at 7200 rpm, half a revolution (4.17 ms) more per request */
	CHECK_NEAR(bench_model_iops(8000, 7200, 95000, 4096),
		   1 / (0.008 + 30.0 / 7200 + 4096 / 95e6), 1e-9);
	/* usb-stick: 30 ms stalls every 4 MiB at 6817 kB/s sustain 6.5 MB/s */
	CHECK_NEAR(bench_sustained_kbps(6817, 4096, 30000), 6500.06, 0.01);
	CHECK_NEAR(bench_sustained_kbps(6500, 0, 30000), 6500, 1e-9);
	CHECK_NEAR(bench_sustained_kbps(0, 4096, 30000), 0, 1e-9);
}
