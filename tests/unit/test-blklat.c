// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/summarize/blklat.c: a blktrace's records into D2C and
 * Q2C per direction.  tests/fixtures/blktrace/ holds a real trace of a
 * guest (see its README); the rest is built here, record by record.
 */
#include <stdint.h>

#include "check.h"
#include "summarize/blklat.h"
#include "lib/util.h"

#define W (2u << 16)		/* BLK_TC_WRITE as a category bit */
#define R (1u << 16)		/* BLK_TC_READ */
#define QUEUE (1u | (1u << 20))	/* __BLK_TA_QUEUE | BLK_TC_QUEUE */
#define SPLIT 13u
#define ISSUE (7u | (1u << 22))
#define COMPLETE (8u | (1u << 23))
#define NOTE_PROCESS (1u << 26)	/* BLK_TC_NOTIFY, __BLK_TN_PROCESS */
#define DISCARD (1u << 29)	/* BLK_TC_DISCARD */

struct trace {
	unsigned char buf[4096];
	size_t len;
};

/* one struct blk_io_trace, then pdu bytes of pdu_len */
static void rec(struct trace *t, uint64_t ns, uint64_t sector, uint32_t bytes,
		uint32_t action, uint16_t pdu_len)
{
	uint32_t magic = 0x65617407u, zero = 0, dev = 98u << 20;
	unsigned char *p = t->buf + t->len;

	memset(p, 0, 48 + pdu_len);
	memcpy(p, &magic, 4);
	memcpy(p + 4, &zero, 4);
	memcpy(p + 8, &ns, 8);
	memcpy(p + 16, &sector, 8);
	memcpy(p + 24, &bytes, 4);
	memcpy(p + 28, &action, 4);
	memcpy(p + 36, &dev, 4);
	memcpy(p + 46, &pdu_len, 2);
	t->len += 48 + pdu_len;
}

/*
 * A 1 MiB write bio split into two 512 KiB requests (one Q, an X, two D),
 * completed 10 and 20 ms after its queueing; a read whose D came 1 ms after
 * its Q; a process note with its name as data; a flush without data.
 */
TEST(test_split_bio_has_one_queue_event)
{
	struct trace t = { .len = 0 };
	struct blklat lat;
	char err[128];

	rec(&t, 0, 0, 0, NOTE_PROCESS, 16);
	rec(&t, 1000000, 2048, 1048576, QUEUE | W, 0);
	rec(&t, 1000000, 2048, 0, SPLIT | W, 8);
	rec(&t, 1000100, 2048, 524288, ISSUE | W, 0);
	rec(&t, 1000200, 3072, 524288, ISSUE | W, 0);
	rec(&t, 2000000, 100, 4096, QUEUE | R, 0);
	rec(&t, 3000000, 100, 4096, ISSUE | R, 0);
	rec(&t, 5000000, 100, 4096, COMPLETE | R, 0);
	rec(&t, 11000000, 2048, 524288, COMPLETE | W, 0);
	rec(&t, 21000000, 3072, 524288, COMPLETE | W, 0);
	rec(&t, 22000000, 0, 0, COMPLETE | W, 0);
	CHECK_EQ_INT(blklat_read(t.buf, t.len, &lat, err, sizeof(err)), 0);
	CHECK_EQ_INT(lat.records, 11);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].completions, 2);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].dispatched, 2);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].nd2c, 2);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].nq2c, 2);
	if (lat.dir[BLKLAT_WRITE].nq2c == 2) {
		/* both pieces from the one Q: 10 and 20 ms */
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].q2c_ns[0], 10000000);
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].q2c_ns[1], 20000000);
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].d2c_ns[0], 9999900);
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].d2c_ns[1], 19999800);
	}
	CHECK_EQ_INT(lat.dir[BLKLAT_READ].completions, 1);
	CHECK_EQ_INT(lat.dir[BLKLAT_READ].nd2c, 1);
	CHECK_EQ_INT(lat.dir[BLKLAT_READ].nq2c, 1);
	if (lat.dir[BLKLAT_READ].nq2c == 1) {
		CHECK_EQ_INT(lat.dir[BLKLAT_READ].d2c_ns[0], 2000000);
		CHECK_EQ_INT(lat.dir[BLKLAT_READ].q2c_ns[0], 3000000);
	}
	blklat_free(&lat);
}

/*
 * The same sector written twice: each completion takes the earliest
 * dispatch before it that no completion took (the device completes them
 * in order), and the latest Q; a completion of the other direction at the
 * same sector takes neither; a completion with no D or Q before it (the
 * trace began after them) counts unmatched; a discard of the whole disk
 * is no request.
 */
TEST(test_rewrites_and_unmatched)
{
	struct trace t = { .len = 0 };
	struct blklat lat;
	char err[128];

	rec(&t, 100, 500, 4096, COMPLETE | W, 0);
	rec(&t, 500, 0, 0xfffffe00u, QUEUE | W | DISCARD, 0);
	rec(&t, 1000, 8, 4096, QUEUE | W, 0);
	rec(&t, 2000, 8, 4096, ISSUE | W, 0);
	rec(&t, 3000, 8, 4096, QUEUE | W, 0);
	rec(&t, 4000, 8, 4096, ISSUE | W, 0);
	rec(&t, 5000, 8, 4096, COMPLETE | W, 0);
	rec(&t, 9000, 8, 4096, COMPLETE | W, 0);
	rec(&t, 9500, 8, 4096, COMPLETE | R, 0);
	CHECK_EQ_INT(blklat_read(t.buf, t.len, &lat, err, sizeof(err)), 0);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].completions, 3);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].nd2c, 2);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].nq2c, 2);
	if (lat.dir[BLKLAT_WRITE].nd2c == 2) {
		/* 5000 - 2000 and 9000 - 4000 */
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].d2c_ns[0], 3000);
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].d2c_ns[1], 5000);
		/* 5000 - 3000 and 9000 - 3000 */
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].q2c_ns[0], 2000);
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].q2c_ns[1], 6000);
	}
	CHECK_EQ_INT(lat.dir[BLKLAT_READ].completions, 1);
	CHECK_EQ_INT(lat.dir[BLKLAT_READ].nd2c, 0);
	CHECK_EQ_INT(lat.dir[BLKLAT_READ].nq2c, 0);
	blklat_free(&lat);
}

TEST(test_bad_traces_name_the_record)
{
	struct trace t = { .len = 0 };
	struct blklat lat;
	char err[160];
	uint32_t bad = 0x12345678u;

	CHECK_EQ_INT(blklat_read(t.buf, 0, &lat, err, sizeof(err)), 0);
	CHECK_EQ_INT(lat.records, 0);
	blklat_free(&lat);

	rec(&t, 0, 8, 4096, QUEUE | W, 0);
	rec(&t, 10, 8, 4096, ISSUE | W, 0);
	CHECK_EQ_INT(blklat_read(t.buf, t.len - 1, &lat, err, sizeof(err)), -1);
	CHECK(strstr(err, "record 2 at byte 48 is cut short (47 of 48 bytes)") != NULL);

	memcpy(t.buf + 48, &bad, 4);
	CHECK_EQ_INT(blklat_read(t.buf, t.len, &lat, err, sizeof(err)), -1);
	CHECK(strstr(err, "record 2 at byte 48: magic 0x12345678 is not blktrace's version 7") != NULL);

	t.len = 0;
	rec(&t, 0, 0, 0, NOTE_PROCESS, 16);
	CHECK_EQ_INT(blklat_read(t.buf, t.len - 1, &lat, err, sizeof(err)), -1);
	CHECK(strstr(err, "record 1 at byte 0: its 16 bytes of data are cut short") != NULL);
}

/*
 * The real thing: the blktrace of an fs-completion run (64M on ext4, hdd
 * profile; tests/fixtures/blktrace/README.md).  Its 48 write completions
 * are pieces of 13 split bios; btt matched 3 completions of 83 requests
 * to a Q.  The figures are those of an independent reading of the same
 * records in python (the README's script).
 */
TEST(test_guest_blktrace)
{
	const char *fixtures = getenv("RL_FIXTURES");
	const struct blklat_dir_stats *w, *r;
	struct blklat lat;
	char path[4096], err[128], *text;
	size_t len = 0;

	CHECK(fixtures != NULL);
	if (!fixtures)
		return;
	snprintf(path, sizeof(path), "%s/blktrace/ubda.blktrace.bin", fixtures);
	text = read_whole_file(path, &len);
	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_EQ_INT(blklat_read((unsigned char *)text, len, &lat, err, sizeof(err)), 0);
	free(text);
	CHECK_EQ_INT(lat.records, 639);
	w = &lat.dir[BLKLAT_WRITE];
	r = &lat.dir[BLKLAT_READ];
	CHECK_EQ_INT(w->completions, 48);
	CHECK_EQ_INT(w->dispatched, 80);
	CHECK_EQ_INT(w->nd2c, 48);
	CHECK_EQ_INT(w->nq2c, 48);
	if (w->nd2c == 48 && w->nq2c == 48) {
		CHECK_EQ_INT(w->d2c_ns[23], 140446720);	/* p50: rank 24 */
		CHECK_EQ_INT(w->d2c_ns[47], 184594944);
		CHECK_EQ_INT(w->q2c_ns[23], 140448768);
		CHECK_EQ_INT(w->q2c_ns[43], 250821120);	/* p90: rank 44 */
		CHECK_EQ_INT(w->q2c_ns[47], 272896000);
	}
	CHECK_EQ_INT(r->completions, 3);
	CHECK_EQ_INT(r->nd2c, 3);
	CHECK_EQ_INT(r->nq2c, 3);
	if (r->nq2c == 3)
		CHECK_EQ_INT(r->q2c_ns[2], 8043776);
	blklat_free(&lat);
}

/*
 * Records out of time order (a merge of per-CPU files gone wrong) are
 * matched by their times: the completion listed first but later in time
 * takes the later dispatch of its sector.
 */
TEST(test_completions_matched_in_time_order)
{
	struct trace t = { .len = 0 };
	struct blklat lat;
	char err[128];

	rec(&t, 1000, 8, 4096, ISSUE | W, 0);
	rec(&t, 2000, 8, 4096, ISSUE | W, 0);
	rec(&t, 9000, 8, 4096, COMPLETE | W, 0);
	rec(&t, 3000, 8, 4096, COMPLETE | W, 0);
	CHECK_EQ_INT(blklat_read(t.buf, t.len, &lat, err, sizeof(err)), 0);
	CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].nd2c, 2);
	if (lat.dir[BLKLAT_WRITE].nd2c == 2) {
		/* 3000 - 1000 and 9000 - 2000 */
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].d2c_ns[0], 2000);
		CHECK_EQ_INT(lat.dir[BLKLAT_WRITE].d2c_ns[1], 7000);
	}
	blklat_free(&lat);
}
