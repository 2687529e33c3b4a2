// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/lib/guest-read.c: what a guest may leave in its
 * run folder instead of a file (a fifo, a symlink, a directory, a sparse
 * giant) is refused, fast and without blocking, with a message naming the
 * file and what it is; a good file is read whole and never past the cap.
 */
#include "check.h"
#include "lib/guest-read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static const char *tmp_path(const char *name)
{
	static char path[128];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/rl-guest-read.XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

TEST(test_regular_file_read_whole)
{
	char err[256] = "";
	size_t len = 0;
	char *t;

	write_file(tmp_path("workload-seconds"), "1.5 12.25\n");
	t = guest_read_file(tmp_path("workload-seconds"), 10, &len, err, sizeof(err));
	CHECK_STR(t, "1.5 12.25\n");
	CHECK_EQ_INT(len, 10);
	free(t);
	/* one byte over the cap */
	t = guest_read_file(tmp_path("workload-seconds"), 9, &len, err, sizeof(err));
	CHECK(!t);
	CHECK_EQ_INT(errno, EFBIG);
	CHECK(strstr(err, "workload-seconds: refused: 10 bytes, more than the 9") != NULL);
	free(t);
}

TEST(test_absent_is_enoent)
{
	char err[256] = "";

	CHECK(!guest_read_file(tmp_path("no-such-file"), 100, NULL, err, sizeof(err)));
	CHECK_EQ_INT(errno, ENOENT);
	CHECK(strstr(err, "no-such-file") != NULL);
}

TEST(test_fifo_refused_without_blocking)
{
	char err[256] = "";
	time_t t0 = time(NULL);

	CHECK_EQ_INT(mkfifo(tmp_path("trace.txt"), 0600), 0);
	/* no writer: an open without O_NONBLOCK, or a read, would hang here */
	CHECK(!guest_read_file(tmp_path("trace.txt"), 1 << 20, NULL, err, sizeof(err)));
	CHECK(errno != ENOENT);
	CHECK(strstr(err, "trace.txt: refused: it is a fifo") != NULL);
	CHECK(!guest_fopen(tmp_path("trace.txt"), 1 << 20, err, sizeof(err)));
	CHECK(strstr(err, "a fifo") != NULL);
	CHECK(time(NULL) - t0 < 5);
	unlink(tmp_path("trace.txt"));
}

TEST(test_symlink_refused)
{
	char err[256] = "", target[128];

	write_file(tmp_path("target"), "secret\n");
	snprintf(target, sizeof(target), "%s", tmp_path("target"));
	CHECK_EQ_INT(symlink(target, tmp_path("knobs")), 0);
	CHECK(!guest_read_file(tmp_path("knobs"), 1 << 20, NULL, err, sizeof(err)));
	CHECK(errno != ENOENT);
	CHECK(strstr(err, "knobs: refused: it is a symbolic link") != NULL);
	/* dangling: refused as a link too, not taken for an absent file */
	CHECK_EQ_INT(symlink("/nonexistent/x", tmp_path("params")), 0);
	CHECK(!guest_read_file(tmp_path("params"), 1 << 20, NULL, err, sizeof(err)));
	CHECK(errno != ENOENT);
	CHECK(strstr(err, "a symbolic link") != NULL);
	unlink(tmp_path("knobs"));
	unlink(tmp_path("params"));
	unlink(tmp_path("target"));
}

TEST(test_directory_and_device_refused)
{
	char err[256] = "";

	CHECK_EQ_INT(mkdir(tmp_path("iostat.json"), 0700), 0);
	CHECK(!guest_read_file(tmp_path("iostat.json"), 1 << 20, NULL, err, sizeof(err)));
	CHECK(strstr(err, "iostat.json: refused: it is a directory") != NULL);
	rmdir(tmp_path("iostat.json"));
	CHECK(!guest_read_file("/dev/zero", 1 << 20, NULL, err, sizeof(err)));
	CHECK(strstr(err, "/dev/zero: refused: it is a character device") != NULL);
}

TEST(test_sparse_giant_refused_fast)
{
	char err[256] = "";
	time_t t0 = time(NULL);
	int fd = open(tmp_path("DEV.blktrace.bin"), O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0);
	/* a terabyte that takes no disk: refused on its size, not read */
	CHECK_EQ_INT(ftruncate(fd, 1LL << 40), 0);
	close(fd);
	CHECK(!guest_read_file(tmp_path("DEV.blktrace.bin"), GUEST_MAX_BLKTRACE, NULL,
			       err, sizeof(err)));
	CHECK_EQ_INT(errno, EFBIG);
	CHECK(strstr(err, "DEV.blktrace.bin: refused: 1099511627776 bytes") != NULL);
	CHECK(!guest_fopen(tmp_path("DEV.blktrace.bin"), GUEST_MAX_TRACE, err, sizeof(err)));
	CHECK(time(NULL) - t0 < 5);
	unlink(tmp_path("DEV.blktrace.bin"));
}

TEST(test_stream_stops_at_cap)
{
	char err[256] = "", buf[256];
	size_t got;
	FILE *f, *w;

	write_file(tmp_path("console.log"), "0123456789");
	f = guest_fopen(tmp_path("console.log"), 10, err, sizeof(err));
	CHECK(f != NULL);
	if (!f)
		return;
	/* the file grows after the size check: the stream still stops at 10 */
	w = fopen(tmp_path("console.log"), "a");
	fputs("more text that the cap does not allow", w);
	fclose(w);
	got = fread(buf, 1, sizeof(buf), f);
	CHECK_EQ_INT(got, 10);
	CHECK(!memcmp(buf, "0123456789", 10));
	fclose(f);
	unlink(tmp_path("console.log"));
	unlink(tmp_path("workload-seconds"));
	rmdir(dir);
}
