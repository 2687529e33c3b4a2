// SPDX-License-Identifier: GPL-2.0
/* Unit tests for rootfs/tools/usemem.c. */
#include "usemem.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

TEST(test_args_valid)
{
	char *a1[] = { "rl-usemem", "6G" };
	char *a2[] = { "rl-usemem", "--touch", "random", "--seed=7", "1M",
		       "--passes", "0", "--hold", "2.5", "--step", "256k",
		       "--progress", "/tmp/p", "--pause", "0.25" };
	char *a3[] = { "rl-usemem", "64M", "--touch", "once" };
	char *a4[] = { "rl-usemem", "64M", "--hold", "-1" };
	char *a5[] = { "rl-usemem", "--help" };
	struct um_opts o;
	char err[256];

	CHECK_EQ_INT(um_parse_args(ARGC(a1), a1, &o, err, sizeof(err)), UM_PARSE_OK);
	CHECK_EQ_INT(o.size, 6ULL << 30);
	CHECK_EQ_INT(o.step, 6ULL << 30);
	CHECK_EQ_INT(o.touch, UM_TOUCH_SEQ);
	CHECK_EQ_INT(o.passes, 1);
	CHECK_NEAR(o.hold, 0, 0);
	CHECK_NEAR(o.pause, 0, 0);
	CHECK_EQ_INT(o.seed, 1);
	CHECK(o.progress == NULL);

	CHECK_EQ_INT(um_parse_args(ARGC(a2), a2, &o, err, sizeof(err)), UM_PARSE_OK);
	CHECK_EQ_INT(o.size, 1 << 20);
	CHECK_EQ_INT(o.step, 256 << 10);
	CHECK_EQ_INT(o.touch, UM_TOUCH_RANDOM);
	CHECK_EQ_INT(o.passes, 0);
	CHECK_NEAR(o.hold, 2.5, 1e-9);
	CHECK_NEAR(o.pause, 0.25, 1e-9);
	CHECK_EQ_INT(o.seed, 7);
	CHECK_STR(o.progress, "/tmp/p");

	/* once: exactly one pass and, unless told, hold until signalled. */
	CHECK_EQ_INT(um_parse_args(ARGC(a3), a3, &o, err, sizeof(err)), UM_PARSE_OK);
	CHECK_EQ_INT(o.touch, UM_TOUCH_ONCE);
	CHECK_EQ_INT(o.passes, 1);
	CHECK_NEAR(o.hold, UM_HOLD_FOREVER, 0);

	CHECK_EQ_INT(um_parse_args(ARGC(a4), a4, &o, err, sizeof(err)), UM_PARSE_OK);
	CHECK_NEAR(o.hold, UM_HOLD_FOREVER, 0);

	CHECK_EQ_INT(um_parse_args(ARGC(a5), a5, &o, err, sizeof(err)), UM_PARSE_HELP);
}

/* Expect a parse error whose message contains want. */
static void expect_err(int argc, char **argv, const char *want)
{
	struct um_opts o;
	char err[256] = "";

	CHECK_EQ_INT(um_parse_args(argc, argv, &o, err, sizeof(err)), UM_PARSE_ERR);
	if (!strstr(err, want)) {
		fprintf(stderr, "  error '%s' lacks '%s'\n", err, want);
		check_failures_in_test++;
	}
	CHECK(!strchr(err, '\n'));
}

TEST(test_args_errors)
{
	char *nosize[] = { "rl-usemem", "--touch", "seq" };
	char *badsize[] = { "rl-usemem", "6X" };
	char *zero[] = { "rl-usemem", "0" };
	char *unknown[] = { "rl-usemem", "1M", "--frob", "1" };
	char *pattern[] = { "rl-usemem", "1M", "--touch", "zigzag" };
	char *bigstep[] = { "rl-usemem", "1M", "--step", "2M" };
	char *zerostep[] = { "rl-usemem", "1M", "--step", "0" };
	char *once[] = { "rl-usemem", "1M", "--touch", "once", "--passes", "3" };
	char *hold[] = { "rl-usemem", "1M", "--hold", "-2" };
	char *passes[] = { "rl-usemem", "1M", "--passes", "-1" };
	char *pause[] = { "rl-usemem", "1M", "--pause", "-1" };
	char *longpause[] = { "rl-usemem", "1M", "--pause", "3601" };
	char *noval[] = { "rl-usemem", "1M", "--touch" };
	char *two[] = { "rl-usemem", "1M", "2M" };
	char *dash[] = { "rl-usemem", "1M", "-x" };

	expect_err(ARGC(nosize), nosize, "missing SIZE");
	expect_err(ARGC(badsize), badsize, "'6X'");
	expect_err(ARGC(badsize), badsize, "k, M, G");
	expect_err(ARGC(zero), zero, "must not be zero");
	expect_err(ARGC(unknown), unknown, "'--frob'");
	expect_err(ARGC(unknown), unknown, "--touch --passes --hold");
	expect_err(ARGC(pattern), pattern, "'zigzag' (valid: seq, random, once)");
	expect_err(ARGC(bigstep), bigstep, "larger than SIZE");
	expect_err(ARGC(zerostep), zerostep, "--step '0'");
	expect_err(ARGC(once), once, "--passes '3'");
	expect_err(ARGC(hold), hold, "--hold '-2'");
	expect_err(ARGC(passes), passes, "--passes '-1'");
	expect_err(ARGC(pause), pause, "--pause '-1' (valid: seconds, 0 to 3600)");
	expect_err(ARGC(longpause), longpause, "--pause '3601'");
	expect_err(ARGC(unknown), unknown, "--hold --pause --step");
	expect_err(ARGC(noval), noval, "--touch needs a value");
	expect_err(ARGC(two), two, "unexpected argument '2M'");
	expect_err(ARGC(dash), dash, "'-x'");
}

/* Every index in [0, n) comes out exactly once. */
static int is_permutation(uint64_t n, uint64_t seed)
{
	unsigned char *seen = calloc(n, 1);
	uint64_t i;
	struct um_perm p;
	int ok = 1;

	if (!seen)
		return 0;
	um_perm_init(&p, n, seed);
	for (i = 0; i < n; i++) {
		uint64_t v = um_perm_at(&p, i);

		if (v >= n || seen[v]) {
			ok = 0;
			break;
		}
		seen[v] = 1;
	}
	free(seen);
	return ok;
}

TEST(test_perm_is_permutation)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 9, 255, 256, 1000, 4097, 65536, 100003 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		CHECK(is_permutation(sizes[i], 1));
		CHECK(is_permutation(sizes[i], 0));
		CHECK(is_permutation(sizes[i], 0xdeadbeefULL));
	}
}

TEST(test_perm_seeded)
{
	struct um_perm a, b, c;
	uint64_t i, same_ab = 0, same_ac = 0, fixed = 0, n = 10000;

	um_perm_init(&a, n, 1);
	um_perm_init(&b, n, 1);
	um_perm_init(&c, n, 2);
	for (i = 0; i < n; i++) {
		uint64_t va = um_perm_at(&a, i);

		same_ab += va == um_perm_at(&b, i);
		same_ac += va == um_perm_at(&c, i);
		fixed += va == i;
	}
	CHECK_EQ_INT(same_ab, n);		/* deterministic */
	CHECK(same_ac < n / 100);		/* another seed, another order */
	CHECK(fixed < n / 100);			/* not the identity */
	/* Passes and steps get their own seeds. */
	CHECK(um_perm_seed(1, 0, 0) != um_perm_seed(1, 1, 0));
	CHECK(um_perm_seed(1, 0, 0) != um_perm_seed(1, 0, 1));
	CHECK(um_perm_seed(1, 0, 0) != um_perm_seed(2, 0, 0));
	CHECK_EQ_INT(um_perm_seed(5, 3, 2), um_perm_seed(5, 3, 2));
}

struct cb_count {
	uint64_t calls, pages;
};

static void count_cb(void *arg, uint64_t delta)
{
	struct cb_count *c = arg;

	c->calls++;
	c->pages += delta;
}

/* Touch a heap "mapping" and check one word per page got stamped. */
static void touch_and_check(enum um_touch order)
{
	enum { PG = 64, PAGES = 1000 };
	static volatile sig_atomic_t no_stop;
	char *buf = calloc(PAGES, PG);
	struct cb_count cc = { 0 };
	struct um_touch_ctl c = {
		.base = buf, .pagesz = PG, .order = order, .seed = 3,
		.stamp = 1ULL << 48, .stop = &no_stop, .cb = count_cb,
		.arg = &cc, .cb_every = 64,
	};
	uint64_t i, stamped = 0;

	CHECK(buf != NULL);
	if (!buf)
		return;
	/* Touch pages [100, 1000) only. */
	CHECK_EQ_INT(um_touch_range(&c, 100, PAGES - 100), PAGES - 100);
	for (i = 0; i < PAGES; i++) {
		uint64_t w;

		memcpy(&w, buf + i * PG, sizeof(w));
		if (i < 100)
			CHECK_EQ_INT(w, 0);
		else
			stamped += w == ((1ULL << 48) ^ i);
	}
	CHECK_EQ_INT(stamped, PAGES - 100);
	CHECK_EQ_INT(cc.pages, PAGES - 100);
	CHECK_EQ_INT(cc.calls, (PAGES - 100) / 64 + 1);
	free(buf);
}

TEST(test_touch_seq_and_random)
{
	touch_and_check(UM_TOUCH_SEQ);
	touch_and_check(UM_TOUCH_RANDOM);
	touch_and_check(UM_TOUCH_ONCE);
}

static volatile sig_atomic_t stop_flag;

static void stop_after_cb(void *arg, uint64_t delta)
{
	struct cb_count *c = arg;

	c->pages += delta;
	if (c->pages >= 32)
		stop_flag = 1;
}

TEST(test_touch_stops_on_flag)
{
	char buf[100 * 8] = { 0 };
	struct cb_count cc = { 0 };
	struct um_touch_ctl c = {
		.base = buf, .pagesz = 8, .order = UM_TOUCH_SEQ, .stamp = 1,
		.stop = &stop_flag, .cb = stop_after_cb, .arg = &cc,
		.cb_every = 16,
	};

	stop_flag = 0;
	CHECK_EQ_INT(um_touch_range(&c, 0, 100), 32);
	CHECK_EQ_INT(cc.pages, 32);
	stop_flag = 1;
	CHECK_EQ_INT(um_touch_range(&c, 0, 100), 0);
}

TEST(test_tick_adjust)
{
	CHECK_EQ_INT(um_tick_adjust(64, 0.001), 128);	/* too often: back off */
	CHECK_EQ_INT(um_tick_adjust(64, 0.2), 32);	/* too rare: read more */
	CHECK_EQ_INT(um_tick_adjust(64, 0.02), 64);	/* in the band */
	CHECK_EQ_INT(um_tick_adjust(1, 1.0), 1);
	CHECK_EQ_INT(um_tick_adjust(1ULL << 16, 0), 1ULL << 16);
}

TEST(test_format_result)
{
	struct um_result r = {
		.bytes = 1 << 20, .passes = 2, .touched = 2 << 20,
		.seconds = 0.5, .majflt = 3, .minflt = 512,
	};
	char line[256];

	um_format_result(line, sizeof(line), &r);
	CHECK_STR(line, "op=usemem bytes=1048576 passes=2 touched=2097152 "
			"seconds=0.500 mbps=4.19 majflt=3 minflt=512");
	r.seconds = 0;
	um_format_result(line, sizeof(line), &r);
	CHECK(strstr(line, " mbps=0.00 ") != NULL);
	r.forks = 20;
	r.fork_failed = 19;
	um_format_result(line, sizeof(line), &r);
	CHECK(strstr(line, " minflt=512 forks=20 fork_failed=19") != NULL);
}

TEST(test_args_forks)
{
	struct um_opts o;
	char err[256];
	char *ok[] = { "rl-usemem", "64M", "--forks", "20", NULL };
	char *bad[] = { "rl-usemem", "64M", "--forks", "-1", NULL };
	char *big[] = { "rl-usemem", "64M", "--forks=1000001", NULL };

	CHECK_EQ_INT(um_parse_args(4, ok, &o, err, sizeof(err)), UM_PARSE_OK);
	CHECK_EQ_INT(o.forks, 20);
	CHECK_EQ_INT(um_parse_args(4, bad, &o, err, sizeof(err)), UM_PARSE_ERR);
	CHECK(strstr(err, "bad --forks '-1' (valid: 0 to 1000000)") != NULL);
	CHECK_EQ_INT(um_parse_args(3, big, &o, err, sizeof(err)), UM_PARSE_ERR);
}
