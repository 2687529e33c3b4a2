// SPDX-License-Identifier: GPL-2.0
/* Unit tests for rootfs/tools/dd.c. */
#include "dd.h"
#include "check.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

TEST(test_args_valid)
{
	char *w[] = { "rl-dd", "write", "/tmp/f", "--size", "1G", "--bs=1M",
		      "--rate", "12.5", "--seed", "42", "--fsync", "--direct",
		      "--progress", "/tmp/p" };
	char *r[] = { "rl-dd", "read", "/tmp/f" };
	char *v[] = { "rl-dd", "verify", "--size", "8k", "/tmp/f" };
	char *s[] = { "rl-dd", "sparse", "/tmp/f", "--size", "100G" };
	char *h[] = { "rl-dd", "write", "--help" };
	struct dd_opts o;
	char err[256];

	CHECK_EQ_INT(dd_parse_args(ARGC(w), w, &o, err, sizeof(err)), DD_PARSE_OK);
	CHECK_EQ_INT(o.op, DD_WRITE);
	CHECK_STR(o.file, "/tmp/f");
	CHECK_EQ_INT(o.size, 1ULL << 30);
	CHECK_EQ_INT(o.bs, 1 << 20);
	CHECK_NEAR(o.rate, 12.5, 1e-12);
	CHECK_EQ_INT(o.seed, 42);
	CHECK(o.fsync && o.direct);
	CHECK_STR(o.progress, "/tmp/p");

	CHECK_EQ_INT(dd_parse_args(ARGC(r), r, &o, err, sizeof(err)), DD_PARSE_OK);
	CHECK_EQ_INT(o.op, DD_READ);
	CHECK_EQ_INT(o.size, 0);		/* until EOF */
	CHECK_EQ_INT(o.bs, DD_DEFAULT_BS);
	CHECK_EQ_INT(o.seed, 1);
	CHECK(!o.fsync && !o.direct && !o.progress);
	CHECK_NEAR(o.rate, 0, 0);

	/* The default block size shrinks to a small --size. */
	CHECK_EQ_INT(dd_parse_args(ARGC(v), v, &o, err, sizeof(err)), DD_PARSE_OK);
	CHECK_EQ_INT(o.op, DD_VERIFY);
	CHECK_EQ_INT(o.bs, 8192);

	CHECK_EQ_INT(dd_parse_args(ARGC(s), s, &o, err, sizeof(err)), DD_PARSE_OK);
	CHECK_EQ_INT(o.op, DD_SPARSE);
	CHECK_EQ_INT(o.size, 100ULL << 30);

	CHECK_EQ_INT(dd_parse_args(ARGC(h), h, &o, err, sizeof(err)), DD_PARSE_HELP);
}

static void expect_err(int argc, char **argv, const char *want)
{
	struct dd_opts o;
	char err[256] = "";

	CHECK_EQ_INT(dd_parse_args(argc, argv, &o, err, sizeof(err)), DD_PARSE_ERR);
	if (!strstr(err, want)) {
		fprintf(stderr, "  error '%s' lacks '%s'\n", err, want);
		check_failures_in_test++;
	}
	CHECK(!strchr(err, '\n'));
}

TEST(test_args_errors)
{
	char *none[] = { "rl-dd" };
	char *cmd[] = { "rl-dd", "copy", "f" };
	char *nofile[] = { "rl-dd", "write", "--size", "1M" };
	char *nosize[] = { "rl-dd", "write", "f" };
	char *badsize[] = { "rl-dd", "write", "f", "--size", "12Q" };
	char *bs0[] = { "rl-dd", "write", "f", "--size", "1M", "--bs", "0" };
	char *bsbig[] = { "rl-dd", "write", "f", "--size", "1M", "--bs", "2M" };
	char *bsmax[] = { "rl-dd", "read", "f", "--bs", "2G" };
	char *unk[] = { "rl-dd", "write", "f", "--size", "1M", "--frob" };
	char *notfor[] = { "rl-dd", "read", "f", "--fsync" };
	char *sparse_bs[] = { "rl-dd", "sparse", "f", "--size", "1M", "--bs", "4k" };
	char *dbs[] = { "rl-dd", "write", "f", "--size", "1M", "--bs", "1000", "--direct" };
	char *dsize[] = { "rl-dd", "read", "f", "--size", "5000", "--bs", "4k", "--direct" };
	char *rate[] = { "rl-dd", "write", "f", "--size", "1M", "--rate", "-3" };
	char *rate0[] = { "rl-dd", "write", "f", "--size", "1M", "--rate", "0" };
	char *flagval[] = { "rl-dd", "write", "f", "--size", "1M", "--fsync=yes" };
	char *noval[] = { "rl-dd", "write", "f", "--size" };
	char *seed[] = { "rl-dd", "verify", "f", "--size", "1M", "--seed", "x" };
	char *two[] = { "rl-dd", "read", "f", "g" };

	expect_err(ARGC(none), none, "missing command (valid: write, read, verify, sparse)");
	expect_err(ARGC(cmd), cmd, "unknown command 'copy' (valid: write, read, verify, sparse)");
	expect_err(ARGC(nofile), nofile, "missing FILE");
	expect_err(ARGC(nosize), nosize, "write needs --size");
	expect_err(ARGC(badsize), badsize, "bad --size '12Q': not a size");
	expect_err(ARGC(bs0), bs0, "bad --bs '0': must not be zero");
	expect_err(ARGC(bsbig), bsbig, "bad --bs '2M': larger than --size '1M'");
	expect_err(ARGC(bsmax), bsmax, "1G maximum");
	expect_err(ARGC(unk), unk, "unknown option '--frob' for write (valid: --size --bs --rate --seed --fsync --direct --progress)");
	expect_err(ARGC(notfor), notfor, "unknown option '--fsync' for read");
	expect_err(ARGC(sparse_bs), sparse_bs, "(valid: --size)");
	expect_err(ARGC(dbs), dbs, "bad --bs '1000' for --direct (valid: a multiple of 4096)");
	expect_err(ARGC(dsize), dsize, "bad --size '5000' for --direct");
	expect_err(ARGC(rate), rate, "bad --rate '-3'");
	expect_err(ARGC(rate0), rate0, "bad --rate '0'");
	expect_err(ARGC(flagval), flagval, "--fsync takes no value");
	expect_err(ARGC(noval), noval, "--size needs a value");
	expect_err(ARGC(seed), seed, "bad --seed 'x'");
	expect_err(ARGC(two), two, "unexpected argument 'g'");
}

TEST(test_pattern_regenerates)
{
	unsigned char a[3 * DD_CHUNK], b[3 * DD_CHUNK], c[100];
	size_t off;

	dd_pattern_fill(7, 8 * DD_CHUNK, a, sizeof(a));
	dd_pattern_fill(7, 8 * DD_CHUNK, b, sizeof(b));
	CHECK(!memcmp(a, b, sizeof(a)));
	/* Any sub-range, aligned or not, regenerates the same bytes. */
	for (off = 0; off + sizeof(c) <= sizeof(a); off += 997) {
		dd_pattern_fill(7, 8 * DD_CHUNK + off, c, sizeof(c));
		CHECK(!memcmp(a + off, c, sizeof(c)));
	}
	/* Across a chunk boundary, in odd pieces. */
	dd_pattern_fill(7, 9 * DD_CHUNK - 3, c, 7);
	CHECK(!memcmp(a + DD_CHUNK - 3, c, 7));
	dd_pattern_fill(7, 9 * DD_CHUNK - 1, c, 1);
	CHECK_EQ_INT(c[0], a[DD_CHUNK - 1]);
	dd_pattern_fill(7, 9 * DD_CHUNK, c, 1);
	CHECK_EQ_INT(c[0], a[DD_CHUNK]);
}

/* Count equal bytes; random data matches about 1 byte in 256. */
static size_t same_bytes(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i, same = 0;

	for (i = 0; i < n; i++)
		same += a[i] == b[i];
	return same;
}

TEST(test_pattern_differs)
{
	unsigned char a[DD_CHUNK], b[DD_CHUNK];
	size_t i, ones = 0;

	dd_pattern_fill(1, 0, a, DD_CHUNK);
	dd_pattern_fill(2, 0, b, DD_CHUNK);
	CHECK(same_bytes(a, b, DD_CHUNK) < 64);		/* other seed */
	dd_pattern_fill(1, DD_CHUNK, b, DD_CHUNK);
	CHECK(same_bytes(a, b, DD_CHUNK) < 64);		/* next chunk */
	dd_pattern_fill(0, DD_CHUNK, b, DD_CHUNK);
	CHECK(same_bytes(a, b, DD_CHUNK) < 64);		/* seed ^ chunk alike */
	dd_pattern_fill(1, 1ULL << 40, b, DD_CHUNK);
	CHECK(same_bytes(a, b, DD_CHUNK) < 64);		/* far offset */
	/* Not constant, not zero: about half the bits set. */
	for (i = 0; i < DD_CHUNK; i++)
		ones += (size_t)__builtin_popcount(a[i]);
	CHECK(ones > DD_CHUNK * 8 * 45 / 100 && ones < DD_CHUNK * 8 * 55 / 100);
}

TEST(test_pace_arithmetic)
{
	struct timespec t = { .tv_sec = 10, .tv_nsec = 900000000 }, u;

	/* 1 MB at 1 MB/s is due after one second; 10^6 bytes = 1 MB. */
	CHECK_EQ_INT(dd_pace_ns(1000000, 1.0), 1000000000ULL);
	CHECK_EQ_INT(dd_pace_ns(0, 5.0), 0);
	CHECK_EQ_INT(dd_pace_ns(65536, 20.0), 3276800);
	CHECK_EQ_INT(dd_pace_ns(256ULL << 20, 21.74), 12347537075ULL);
	CHECK_EQ_INT(dd_pace_ns(1ULL << 40, 0.5), 2199023255552000ULL);

	u = dd_ts_add_ns(t, 200000000);
	CHECK_EQ_INT(u.tv_sec, 11);
	CHECK_EQ_INT(u.tv_nsec, 100000000);
	u = dd_ts_add_ns(t, 3000000000ULL);
	CHECK_EQ_INT(u.tv_sec, 13);
	CHECK_EQ_INT(u.tv_nsec, 900000000);
	CHECK_NEAR(dd_ts_diff(u, t), 3.0, 1e-9);
	CHECK_NEAR(dd_ts_diff(t, u), -3.0, 1e-9);

	CHECK_EQ_INT(dd_tick_adjust(1, 0.0001), 2);
	CHECK_EQ_INT(dd_tick_adjust(8, 0.5), 4);
	CHECK_EQ_INT(dd_tick_adjust(8, 0.03), 8);
	CHECK_EQ_INT(dd_tick_adjust(4096, 0), 4096);
}

TEST(test_verify_flipped_byte)
{
	enum { LEN = 16 * DD_CHUNK };
	unsigned char *buf = malloc(LEN);
	struct dd_verify v;
	size_t off;

	CHECK(buf != NULL);
	if (!buf)
		return;
	dd_pattern_fill(9, 0, buf, LEN);
	dd_verify_init(&v);
	dd_verify_buf(&v, 9, 0, buf, LEN);
	CHECK_EQ_INT(v.bad_chunks, 0);
	CHECK_EQ_INT(v.first_bad, -1);

	buf[5 * DD_CHUNK + 17] ^= 0x01;
	dd_verify_init(&v);
	dd_verify_buf(&v, 9, 0, buf, LEN);
	CHECK_EQ_INT(v.bad_chunks, 1);
	CHECK_EQ_INT(v.first_bad, 5 * DD_CHUNK);

	/* Odd-sized pieces split the bad chunk; it still counts once. */
	dd_verify_init(&v);
	for (off = 0; off < LEN; off += 3000) {
		size_t n = LEN - off < 3000 ? LEN - off : 3000;

		dd_verify_buf(&v, 9, off, buf + off, n);
	}
	CHECK_EQ_INT(v.bad_chunks, 1);
	CHECK_EQ_INT(v.first_bad, 5 * DD_CHUNK);

	/* Last byte of one chunk and first of another. */
	buf[12 * DD_CHUNK - 1] ^= 0x80;
	buf[15 * DD_CHUNK] ^= 0x80;
	dd_verify_init(&v);
	dd_verify_buf(&v, 9, 0, buf, LEN);
	CHECK_EQ_INT(v.bad_chunks, 3);
	CHECK_EQ_INT(v.first_bad, 5 * DD_CHUNK);

	/* Wrong seed: everything is bad. */
	dd_verify_init(&v);
	dd_verify_buf(&v, 10, 0, buf, LEN);
	CHECK_EQ_INT(v.bad_chunks, 16);
	CHECK_EQ_INT(v.first_bad, 0);
	free(buf);
}

TEST(test_verify_missing)
{
	struct dd_verify v;

	dd_verify_init(&v);
	dd_verify_missing(&v, 3 * DD_CHUNK, 10 * DD_CHUNK);
	CHECK_EQ_INT(v.bad_chunks, 7);
	CHECK_EQ_INT(v.first_bad, 3 * DD_CHUNK);

	/* File ends mid-chunk: that chunk and the rest are lost. */
	dd_verify_init(&v);
	dd_verify_missing(&v, 3 * DD_CHUNK + 100, 5 * DD_CHUNK + 1);
	CHECK_EQ_INT(v.bad_chunks, 3);
	CHECK_EQ_INT(v.first_bad, 3 * DD_CHUNK);

	/* A chunk already counted bad is not counted again. */
	dd_verify_init(&v);
	{
		unsigned char junk[100] = { 0 };

		dd_verify_buf(&v, 1, 3 * DD_CHUNK, junk, sizeof(junk));
	}
	dd_verify_missing(&v, 3 * DD_CHUNK + 100, 4 * DD_CHUNK);
	CHECK_EQ_INT(v.bad_chunks, 1);
	dd_verify_missing(&v, 4 * DD_CHUNK, 4 * DD_CHUNK);
	CHECK_EQ_INT(v.bad_chunks, 1);
}

static char *temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char *path = malloc(256);
	int fd;

	if (!path)
		return NULL;
	snprintf(path, 256, "%s/test-dd-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

struct samples {
	unsigned int n;
	uint64_t last;
};

static void count_progress(void *arg, double t, uint64_t done)
{
	struct samples *s = arg;

	(void)t;
	s->n++;
	s->last = done;
}

/* Write size bytes of seed's pattern to path through the library loop. */
static int write_file(const char *path, uint64_t size, size_t bs, uint64_t seed)
{
	struct dd_xfer x = { .size = size, .bs = bs, .seed = seed, .fsync = true };
	int ret;

	x.fd = open(path, O_WRONLY | O_TRUNC);
	x.buf = malloc(bs);
	if (x.fd < 0 || !x.buf) {
		free(x.buf);
		return -1;
	}
	ret = dd_write_fd(&x);
	close(x.fd);
	free(x.buf);
	return ret || x.done != size ? -1 : 0;
}

/* Read-and-verify path through the library loop; returns the xfer. */
static struct dd_xfer verify_file(const char *path, uint64_t size, size_t bs,
				  uint64_t seed)
{
	struct dd_xfer x = { .size = size, .bs = bs, .seed = seed, .verify = true };

	x.fd = open(path, O_RDONLY);
	x.buf = malloc(bs);
	if (x.fd >= 0 && x.buf)
		dd_read_fd(&x);
	else
		x.err = -1;
	if (x.fd >= 0)
		close(x.fd);
	free(x.buf);
	x.buf = NULL;
	return x;
}

TEST(test_write_verify_file)
{
	char *path = temp_file();
	uint64_t size = 300 * 1000;		/* not chunk-aligned */
	struct dd_xfer x;
	int fd;

	CHECK(path != NULL);
	if (!path)
		return;
	CHECK_EQ_INT(write_file(path, size, 10000, 77), 0);

	x = verify_file(path, size, 65536, 77);
	CHECK_EQ_INT(x.err, 0);
	CHECK_EQ_INT(x.done, size);
	CHECK_EQ_INT(x.v.bad_chunks, 0);
	CHECK_EQ_INT(x.v.first_bad, -1);

	/* A different block size reads the same content. */
	x = verify_file(path, size, 4096, 77);
	CHECK_EQ_INT(x.v.bad_chunks, 0);

	x = verify_file(path, size, 65536, 78);
	CHECK_EQ_INT(x.v.bad_chunks, (size + DD_CHUNK - 1) / DD_CHUNK);

	/* Corrupt one byte on disk, as a lost or torn page would. */
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0);
	CHECK_EQ_INT(pwrite(fd, "\0\0\0\0", 4, 20 * DD_CHUNK + 4094), 4);
	x = verify_file(path, size, 65536, 77);
	CHECK_EQ_INT(x.v.bad_chunks, 2);
	CHECK_EQ_INT(x.v.first_bad, 20 * DD_CHUNK);

	/* Truncate: the tail is missing, from the chunk holding the end. */
	CHECK_EQ_INT(ftruncate(fd, 50 * DD_CHUNK + 10), 0);
	close(fd);
	x = verify_file(path, size, 65536, 77);
	CHECK_EQ_INT(x.done, 50 * DD_CHUNK + 10);
	CHECK_EQ_INT(x.v.bad_chunks, 2 + (size + DD_CHUNK - 1) / DD_CHUNK - 50);
	CHECK_EQ_INT(x.v.first_bad, 20 * DD_CHUNK);

	unlink(path);
	free(path);
}

TEST(test_read_to_eof_and_pacing)
{
	char *path = temp_file();
	struct samples s = { 0 };
	struct dd_xfer x = { .bs = 65536, .rate = 2.0, .progress = count_progress,
			     .arg = &s };

	CHECK(path != NULL);
	if (!path)
		return;
	CHECK_EQ_INT(write_file(path, 200000, 65536, 1), 0);

	/* size 0: read to EOF; 200 kB at 2 MB/s takes at least 0.1 s. */
	x.fd = open(path, O_RDONLY);
	x.buf = malloc(x.bs);
	CHECK(x.fd >= 0 && x.buf);
	CHECK_EQ_INT(dd_read_fd(&x), 0);
	CHECK_EQ_INT(x.done, 200000);
	CHECK(x.seconds >= 0.0999);
	CHECK(x.seconds < 2.0);
	CHECK(s.n >= 1);			/* at least the final sample */
	CHECK_EQ_INT(s.last, 200000);
	close(x.fd);
	free(x.buf);
	unlink(path);
	free(path);
}

TEST(test_format_result)
{
	char *w[] = { "rl-dd", "write", "/mnt/f", "--size", "256M", "--bs", "1k" };
	char *v[] = { "rl-dd", "verify", "/mnt/f", "--size", "256M" };
	char *s[] = { "rl-dd", "sparse", "/mnt/f", "--size", "1G" };
	struct dd_xfer x = { .done = 268435456, .seconds = 12.345 };
	struct dd_opts o;
	char err[256], line[512];

	CHECK_EQ_INT(dd_parse_args(ARGC(w), w, &o, err, sizeof(err)), DD_PARSE_OK);
	dd_format_result(line, sizeof(line), &o, &x);
	CHECK_STR(line, "op=write file=/mnt/f bytes=268435456 bs=1024 "
			"seconds=12.345 mbps=21.74 seed=1");

	o.op = DD_READ;
	dd_format_result(line, sizeof(line), &o, &x);
	CHECK_STR(line, "op=read file=/mnt/f bytes=268435456 bs=1024 "
			"seconds=12.345 mbps=21.74");

	CHECK_EQ_INT(dd_parse_args(ARGC(v), v, &o, err, sizeof(err)), DD_PARSE_OK);
	dd_verify_init(&x.v);
	x.v.bad_chunks = 2;
	x.v.first_bad = 8192;
	dd_format_result(line, sizeof(line), &o, &x);
	CHECK_STR(line, "op=verify file=/mnt/f bytes=268435456 bs=65536 "
			"seconds=12.345 mbps=21.74 seed=1 bad_chunks=2 "
			"first_bad_offset=8192");

	CHECK_EQ_INT(dd_parse_args(ARGC(s), s, &o, err, sizeof(err)), DD_PARSE_OK);
	dd_format_result(line, sizeof(line), &o, &x);
	CHECK_STR(line, "op=sparse file=/mnt/f bytes=1073741824");
}
