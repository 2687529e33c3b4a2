// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for rootfs/tools/iostat.c (rl-iostat's logic).
 *
 * Fixtures in tests/fixtures/iostat/ are hand-written /proc/diskstats reads:
 *   t0, t1, t2        kernel 6.12 layout (17 statistics), 1000 ms apart.
 *                     t0->t1: ubda writes 178 requests of 89568 kB (the
 *                     linux-mm 2012 iostat line), ubdb reads only, ubdc idle.
 *                     t1->t2: ubda writes 100 requests of 128 kB.
 *   old14, k418       11 and 15 statistics (before 4.18, before 5.5).
 *   malformed         9 bad lines among 3 good ones and a blank line.
 *   reset-before/-after  ubda's counters restart from zero; ubdb's
 *                     io_ticks alone drops.
 */
#include "iostat.h"
#include "check.h"

#include <stdlib.h>

/* Read tests/fixtures/iostat/NAME into snap; false (and a note) on failure. */
static bool load(const char *name, struct iostat_snap *snap)
{
	const char *dir = getenv("RL_FIXTURES");
	char path[4096], *buf = NULL;
	size_t len = 0;
	FILE *f;
	bool ok = false;

	iostat_snap_init(snap);
	if (!dir) {
		fprintf(stderr, "  RL_FIXTURES is not set\n");
		return false;
	}
	snprintf(path, sizeof(path), "%s/iostat/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "  cannot open %s\n", path);
		return false;
	}
	buf = malloc(65536);
	if (buf) {
		len = fread(buf, 1, 65536, f);
		ok = iostat_parse(snap, buf, len) == 0;
	}
	free(buf);
	fclose(f);
	return ok;
}

/* Row for device dev between fixtures a and b, 1000 ms apart. */
static bool row_between(const char *a, const char *b, const char *dev,
			double ms, struct iostat_row *row)
{
	struct iostat_snap sa, sb;
	const struct iostat_dev *da, *db;
	bool ok = false;

	if (load(a, &sa) && load(b, &sb)) {
		da = iostat_find(&sa, dev);
		db = iostat_find(&sb, dev);
		if (da && db) {
			iostat_row(da, db, ms, row);
			ok = true;
		}
	}
	iostat_snap_free(&sa);
	iostat_snap_free(&sb);
	return ok;
}

TEST(test_parse_20_fields)
{
	struct iostat_snap s;
	const struct iostat_dev *d;

	CHECK(load("t0.diskstats", &s));
	CHECK_EQ_INT(s.ndevs, 5);
	CHECK_EQ_INT(s.rejected, 0);
	d = iostat_find(&s, "ubda");
	CHECK(d != NULL);
	if (d) {
		CHECK_EQ_INT(d->major, 98);
		CHECK_EQ_INT(d->minor, 0);
		CHECK_EQ_INT(d->nfields, 17);
		CHECK_EQ_INT(d->rd_ios, 5321);
		CHECK_EQ_INT(d->rd_merges, 1204);
		CHECK_EQ_INT(d->rd_sectors, 412866);
		CHECK_EQ_INT(d->rd_ticks, 3101);
		CHECK_EQ_INT(d->wr_ios, 20432);
		CHECK_EQ_INT(d->wr_merges, 8821);
		CHECK_EQ_INT(d->wr_sectors, 4133456);
		CHECK_EQ_INT(d->wr_ticks, 912345);
		CHECK_EQ_INT(d->in_flight, 0);
		CHECK_EQ_INT(d->io_ticks, 80210);
		CHECK_EQ_INT(d->time_in_queue, 915446);
		CHECK_EQ_INT(d->fl_ios, 1543);
		CHECK_EQ_INT(d->fl_ticks, 1034);
	}
	/* Partition and loop lines are parsed too; selection happens later. */
	CHECK(iostat_find(&s, "ubda1") != NULL);
	CHECK(iostat_find(&s, "loop0") != NULL);
	CHECK(iostat_find(&s, "ubdz") == NULL);
	iostat_snap_free(&s);
}

TEST(test_parse_14_fields)
{
	struct iostat_snap s;
	const struct iostat_dev *d;

	CHECK(load("old14.diskstats", &s));
	CHECK_EQ_INT(s.ndevs, 3);
	CHECK_EQ_INT(s.rejected, 0);
	d = iostat_find(&s, "ubda");
	CHECK(d != NULL);
	if (d) {
		CHECK_EQ_INT(d->nfields, 11);
		CHECK_EQ_INT(d->wr_sectors, 64000);
		CHECK_EQ_INT(d->time_in_queue, 4500);
		/* No discard or flush columns: they read as zero. */
		CHECK_EQ_INT(d->dc_ios, 0);
		CHECK_EQ_INT(d->fl_ticks, 0);
	}
	iostat_snap_free(&s);
}

TEST(test_parse_18_fields)
{
	struct iostat_snap s;
	const struct iostat_dev *d;

	CHECK(load("k418.diskstats", &s));
	CHECK_EQ_INT(s.ndevs, 2);
	CHECK_EQ_INT(s.rejected, 0);
	d = iostat_find(&s, "ubda");
	CHECK(d != NULL);
	if (d) {
		CHECK_EQ_INT(d->nfields, 15);
		CHECK_EQ_INT(d->in_flight, 2);
		CHECK_EQ_INT(d->dc_ios, 50);
		CHECK_EQ_INT(d->dc_merges, 1);
		CHECK_EQ_INT(d->dc_sectors, 40960);
		CHECK_EQ_INT(d->dc_ticks, 12);
		CHECK_EQ_INT(d->fl_ios, 0);
	}
	iostat_snap_free(&s);
}

/*
 * Rejected: too few fields (ubdb), 14 statistics (ubdc), "12x" (ubdd),
 * "-1" (ubde), 2^64 overflow (ubdf), major "ab" (ubdg), a lone major, prose,
 * a 34-character name = 9.  Kept: ubda (17), loop0 (19: a newer kernel's
 * extra fields are ignored), sda (11) = 3.  The blank line is not counted.
 */
TEST(test_parse_malformed_counted)
{
	struct iostat_snap s;
	const struct iostat_dev *d;

	CHECK(load("malformed.diskstats", &s));
	CHECK_EQ_INT(s.ndevs, 3);
	CHECK_EQ_INT(s.rejected, 9);
	CHECK(iostat_find(&s, "ubda") != NULL);
	CHECK(iostat_find(&s, "ubdb") == NULL);
	CHECK(iostat_find(&s, "ubdd") == NULL);
	CHECK(iostat_find(&s, "ubdf") == NULL);
	d = iostat_find(&s, "loop0");
	CHECK(d != NULL);
	if (d)
		CHECK_EQ_INT(d->nfields, 17);
	d = iostat_find(&s, "sda");
	CHECK(d != NULL);
	if (d)
		CHECK_EQ_INT(d->rd_sectors, 80);
	iostat_snap_free(&s);
}

/* No trailing newline, CRLF, tabs, and reparsing into a used snapshot. */
TEST(test_parse_buffer_edges)
{
	static const char a[] = "\n98\t0\tubda 1 0 8 1 0 0 0 0 0 1 1\r\n\n"
				"98 16 ubdb 2 0 16 2 0 0 0 0 0 2 2";
	static const char b[] = "98 0 ubda 1 0 8 1 0 0 0 0 0 1 1\nbad\n";
	struct iostat_snap s;
	const struct iostat_dev *d;

	iostat_snap_init(&s);
	CHECK_EQ_INT(iostat_parse(&s, a, sizeof(a) - 1), 0);
	CHECK_EQ_INT(s.ndevs, 2);
	CHECK_EQ_INT(s.rejected, 0);
	d = iostat_find(&s, "ubdb");
	CHECK(d != NULL);
	if (d)
		CHECK_EQ_INT(d->time_in_queue, 2);
	/* Only the first len bytes count: cut ubdb's last field off. */
	CHECK_EQ_INT(iostat_parse(&s, a, sizeof(a) - 3), 0);
	CHECK_EQ_INT(s.ndevs, 1);
	CHECK_EQ_INT(s.rejected, 1);
	CHECK_EQ_INT(iostat_parse(&s, b, sizeof(b) - 1), 0);
	CHECK_EQ_INT(s.ndevs, 1);
	CHECK_EQ_INT(s.rejected, 1);
	CHECK(iostat_find(&s, "ubdb") == NULL);
	CHECK_EQ_INT(iostat_parse(&s, "", 0), 0);
	CHECK_EQ_INT(s.ndevs, 0);
	iostat_snap_free(&s);
}

TEST(test_whole_ubd_names)
{
	CHECK(iostat_is_whole_ubd("ubda"));
	CHECK(iostat_is_whole_ubd("ubdp"));
	CHECK(iostat_is_whole_ubd("ubdab"));
	CHECK(!iostat_is_whole_ubd("ubda1"));
	CHECK(!iostat_is_whole_ubd("ubd"));
	CHECK(!iostat_is_whole_ubd("ubdA"));
	CHECK(!iostat_is_whole_ubd("sda"));
	CHECK(!iostat_is_whole_ubd("loop0"));
}

/*
 * t0->t1 ubda, 1000 ms, the 2012 linux-mm line:
 *   w/s    = 20610 - 20432 = 178
 *   wkB/s  = (4312592 - 4133456) / 2 = 179136 / 2 = 89568
 *   avgrq  = 179136 / 178 = 1006.382
 *   avgqu  = (989796 - 915446) / 1000 = 74350 / 1000 = 74.35
 *   await  = (0 + 986697 - 912345) / 178 = 74352 / 178 = 417.708
 *   svctm  = (81064 - 80210) / 178 = 854 / 178 = 4.798
 *   %util  = 854 / 1000 * 100 = 85.40
 */
TEST(test_row_write_burst)
{
	struct iostat_row r;

	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubda", 1000.0, &r));
	CHECK_NEAR(r.rrqm_s, 0.0, 1e-9);
	CHECK_NEAR(r.wrqm_s, 0.0, 1e-9);
	CHECK_NEAR(r.r_s, 0.0, 1e-9);
	CHECK_NEAR(r.w_s, 178.0, 1e-9);
	CHECK_NEAR(r.rkb_s, 0.0, 1e-9);
	CHECK_NEAR(r.wkb_s, 89568.0, 1e-9);
	CHECK_NEAR(r.avgrq_sz, 1006.382, 1e-3);
	CHECK_NEAR(r.avgqu_sz, 74.35, 1e-9);
	CHECK_NEAR(r.await, 417.708, 1e-3);
	CHECK_NEAR(r.svctm, 4.798, 1e-3);
	CHECK_NEAR(r.util, 85.40, 1e-9);
	CHECK_EQ_INT(r.wr_ios, 178);
	CHECK_EQ_INT(r.wr_sectors, 179136);
	CHECK_EQ_INT(r.rd_ios, 0);
}

/*
 * t0->t1 ubdb, 1000 ms, reads only:
 *   r/s 1062-812 = 250, rrqm/s 22-10 = 12, rkB/s (129432-65432)/2 = 32000
 *   avgrq 64000/250 = 256, await (1901-401)/250 = 6, svctm 600/250 = 2.4,
 *   %util 600/1000 = 60, avgqu 1500/1000 = 1.5.  Same interval over 500 ms
 *   doubles every rate and queue length but not the per-request times.
 */
TEST(test_row_read_only)
{
	struct iostat_row r;

	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubdb", 1000.0, &r));
	CHECK_NEAR(r.r_s, 250.0, 1e-9);
	CHECK_NEAR(r.rrqm_s, 12.0, 1e-9);
	CHECK_NEAR(r.rkb_s, 32000.0, 1e-9);
	CHECK_NEAR(r.w_s, 0.0, 1e-9);
	CHECK_NEAR(r.wkb_s, 0.0, 1e-9);
	CHECK_NEAR(r.avgrq_sz, 256.0, 1e-9);
	CHECK_NEAR(r.avgqu_sz, 1.5, 1e-9);
	CHECK_NEAR(r.await, 6.0, 1e-9);
	CHECK_NEAR(r.svctm, 2.4, 1e-9);
	CHECK_NEAR(r.util, 60.0, 1e-9);

	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubdb", 500.0, &r));
	CHECK_NEAR(r.r_s, 500.0, 1e-9);
	CHECK_NEAR(r.rkb_s, 64000.0, 1e-9);
	CHECK_NEAR(r.avgqu_sz, 3.0, 1e-9);
	CHECK_NEAR(r.util, 100.0, 1e-9);	/* 600 busy ms in 500: clamped */
	CHECK_NEAR(r.await, 6.0, 1e-9);
	CHECK_NEAR(r.avgrq_sz, 256.0, 1e-9);
}

static bool row_is_zero(const struct iostat_row *r)
{
	double v[] = { r->rrqm_s, r->wrqm_s, r->r_s, r->w_s, r->rkb_s,
		       r->wkb_s, r->avgrq_sz, r->avgqu_sz, r->await,
		       r->svctm, r->util };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] != 0.0)	/* false for NaN as well */
			return false;
	return true;
}

/* ubdc is identical in t0 and t1: zero requests, all columns 0, no NaN. */
TEST(test_row_idle_no_nan)
{
	struct iostat_row r;

	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubdc", 1000.0, &r));
	CHECK(row_is_zero(&r));
	/* ubdb is idle t1->t2 after its busy interval. */
	CHECK(row_between("t1.diskstats", "t2.diskstats", "ubdb", 1000.0, &r));
	CHECK(row_is_zero(&r));
}

/* Zero or NaN elapsed time gives no rates, never inf or NaN. */
TEST(test_row_zero_elapsed)
{
	struct iostat_row r;

	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubda", 0.0, &r));
	CHECK_NEAR(r.w_s, 0.0, 1e-9);
	CHECK_NEAR(r.util, 0.0, 1e-9);
	CHECK_NEAR(r.avgqu_sz, 0.0, 1e-9);
	/* Per-request columns do not depend on time. */
	CHECK_NEAR(r.avgrq_sz, 1006.382, 1e-3);
	CHECK_NEAR(r.await, 417.708, 1e-3);
	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubda", NAN, &r));
	CHECK_NEAR(r.wkb_s, 0.0, 1e-9);
	CHECK(!isnan(r.util));
}

/*
 * reset-before -> reset-after, 1000 ms.
 * ubda restarted from zero, so the deltas are the new values:
 *   r/s 50, rkB/s 400/2 = 200, w/s 10, wkB/s 80/2 = 40,
 *   avgrq (400+80)/60 = 8, await (20+5)/60 = 0.4167, svctm 25/60 = 0.4167,
 *   %util 25/1000 = 2.5, avgqu 25/1000 = 0.025; rrqm/s 0 (1204 -> 0).
 * ubdb: only io_ticks fell (4294967000 -> 200), read as 200 busy ms:
 *   r/s 100, avgrq 800/100 = 8, await 50/100 = 0.5, svctm 200/100 = 2,
 *   %util 20.
 */
TEST(test_row_counter_reset)
{
	struct iostat_row r;

	CHECK(row_between("reset-before.diskstats", "reset-after.diskstats",
			  "ubda", 1000.0, &r));
	CHECK_NEAR(r.r_s, 50.0, 1e-9);
	CHECK_NEAR(r.rrqm_s, 0.0, 1e-9);
	CHECK_NEAR(r.rkb_s, 200.0, 1e-9);
	CHECK_NEAR(r.w_s, 10.0, 1e-9);
	CHECK_NEAR(r.wkb_s, 40.0, 1e-9);
	CHECK_NEAR(r.avgrq_sz, 8.0, 1e-9);
	CHECK_NEAR(r.await, 25.0 / 60.0, 1e-9);
	CHECK_NEAR(r.svctm, 25.0 / 60.0, 1e-9);
	CHECK_NEAR(r.util, 2.5, 1e-9);
	CHECK_NEAR(r.avgqu_sz, 0.025, 1e-9);

	CHECK(row_between("reset-before.diskstats", "reset-after.diskstats",
			  "ubdb", 1000.0, &r));
	CHECK_NEAR(r.r_s, 100.0, 1e-9);
	CHECK_NEAR(r.avgrq_sz, 8.0, 1e-9);
	CHECK_NEAR(r.await, 0.5, 1e-9);
	CHECK_NEAR(r.svctm, 2.0, 1e-9);
	CHECK_NEAR(r.util, 20.0, 1e-9);
	CHECK(r.util >= 0 && r.svctm >= 0);
}

/*
 * t0->t2 ubda over 2000 ms:
 *   writes 20710-20432 = 278, sectors 4338192-4133456 = 204736
 *   written_mb = 204736 / 2048 = 99.96875, read_mb = 0
 *   w/s 139, avgrq 204736/278 = 736.460, await (987197-912345)/278 =
 *   74852/278 = 269.252, avgqu (990396-915446)/2000 = 37.475,
 *   %util (81364-80210)/2000 = 1154/2000 = 57.70, wrqm/s 20/2 = 10
 */
TEST(test_summary_first_last)
{
	struct iostat_snap s0, s2;
	struct iostat_summary sum;

	CHECK(load("t0.diskstats", &s0));
	CHECK(load("t2.diskstats", &s2));
	if (iostat_find(&s0, "ubda") && iostat_find(&s2, "ubda")) {
		iostat_summary(iostat_find(&s0, "ubda"), iostat_find(&s2, "ubda"),
			       2000.0, &sum);
		CHECK_EQ_INT(sum.row.wr_ios, 278);
		CHECK_EQ_INT(sum.row.rd_ios, 0);
		CHECK_NEAR(sum.written_mb, 99.96875, 1e-9);
		CHECK_NEAR(sum.read_mb, 0.0, 1e-9);
		CHECK_NEAR(sum.row.w_s, 139.0, 1e-9);
		CHECK_NEAR(sum.row.wrqm_s, 10.0, 1e-9);
		CHECK_NEAR(sum.row.avgrq_sz, 736.460, 1e-3);
		CHECK_NEAR(sum.row.await, 269.252, 1e-3);
		CHECK_NEAR(sum.row.avgqu_sz, 37.475, 1e-9);
		CHECK_NEAR(sum.row.util, 57.70, 1e-9);
		CHECK_NEAR(sum.row.elapsed_ms, 2000.0, 1e-9);
	} else {
		CHECK(!"ubda missing from t0 or t2");
	}
	iostat_snap_free(&s0);
	iostat_snap_free(&s2);
}

static struct iostat_row mkrow(unsigned long long ios, double avgrq,
			       double await, double util)
{
	struct iostat_row r;

	memset(&r, 0, sizeof(r));
	r.elapsed_ms = 1000.0;
	r.wr_ios = ios;
	r.w_s = (double)ios;
	r.avgrq_sz = avgrq;
	r.wareq_sz = avgrq / 2;	/* writes only: sectors of 512 bytes -> KiB */
	r.await = await;
	r.util = util;
	return r;
}

/*
 * avgrq 8 over 3 requests and 24 over 1, plus an idle interval:
 *   weighted mean (3*8 + 1*24) / 4 = 12
 *   variance (3*(8-12)^2 + 1*(24-12)^2) / 4 = (48 + 144) / 4 = 48
 *   sd sqrt(48) = 6.9282
 * Other columns average all 3 intervals: w/s (3+1+0)/3 = 1.3333,
 * util (30+10+0)/3 = 13.333; await only the 2 busy ones: (2+6)/2 = 4.
 */
TEST(test_acc_known_values)
{
	struct iostat_acc acc;
	struct iostat_acc_result res;
	struct iostat_row a = mkrow(3, 8.0, 2.0, 30.0);
	struct iostat_row b = mkrow(1, 24.0, 6.0, 10.0);
	struct iostat_row idle = mkrow(0, 0.0, 0.0, 0.0);

	iostat_acc_init(&acc);
	iostat_acc_add(&acc, &a);
	iostat_acc_add(&acc, &idle);
	iostat_acc_add(&acc, &b);
	iostat_acc_result(&acc, &res);
	CHECK_EQ_INT(res.intervals, 3);
	CHECK_EQ_INT(res.ios, 4);
	CHECK_NEAR(res.mean.avgrq_sz, 12.0, 1e-9);
	CHECK_NEAR(res.avgrq_sz_sd, sqrt(48.0), 1e-9);
	CHECK_NEAR(res.wareq_sz_mean, 6.0, 1e-9);
	CHECK_NEAR(res.wareq_sz_sd, sqrt(48.0) / 2, 1e-9);
	CHECK_NEAR(res.mean.w_s, 4.0 / 3.0, 1e-9);
	CHECK_NEAR(res.mean.util, 40.0 / 3.0, 1e-9);
	CHECK_NEAR(res.mean.await, 4.0, 1e-9);
	CHECK_NEAR(res.mean.elapsed_ms, 1000.0, 1e-9);
}

/*
 * Reads beside the writes (swap-in beside swap-out): avgrq-sz mixes them,
 * wareq-sz is the writes' alone.  Interval a: 10 reads, 2 writes of 256
 * KiB; b: 2 writes of 64 KiB, no read.  Write-weighted: mean (2 * 256 +
 * 2 * 64) / 4 = 160, sd |256 - 64| * sqrt(2 * 2) / 4 = 96.
 */
TEST(test_acc_writes_apart_from_reads)
{
	struct iostat_acc acc;
	struct iostat_acc_result res;
	struct iostat_row a = mkrow(2, 40.0, 1.0, 10.0), b = mkrow(2, 128.0, 1.0, 10.0);

	a.rd_ios = 10;
	a.wareq_sz = 256;
	iostat_acc_init(&acc);
	iostat_acc_add(&acc, &a);
	iostat_acc_add(&acc, &b);
	iostat_acc_result(&acc, &res);
	CHECK_NEAR(res.wareq_sz_mean, 160.0, 1e-9);
	CHECK_NEAR(res.wareq_sz_sd, 96.0, 1e-9);
	/* and from diskstats: 179136 sectors in 178 writes */
	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubda", 1000.0, &a));
	CHECK_NEAR(a.wareq_sz, 179136.0 / 2 / 178, 1e-9);
}

/* Empty, idle-only and constant inputs: zeros, never NaN. */
TEST(test_acc_degenerate)
{
	struct iostat_acc acc;
	struct iostat_acc_result res;
	struct iostat_row idle = mkrow(0, 0.0, 0.0, 0.0);
	struct iostat_row same = mkrow(7, 0.1, 1.0, 5.0);
	int i;

	iostat_acc_init(&acc);
	iostat_acc_result(&acc, &res);
	CHECK_EQ_INT(res.intervals, 0);
	CHECK(row_is_zero(&res.mean));
	CHECK_NEAR(res.avgrq_sz_sd, 0.0, 0.0);

	iostat_acc_add(&acc, &idle);
	iostat_acc_add(&acc, &idle);
	iostat_acc_result(&acc, &res);
	CHECK_EQ_INT(res.intervals, 2);
	CHECK(row_is_zero(&res.mean));
	CHECK_NEAR(res.avgrq_sz_sd, 0.0, 0.0);

	/* 0.1 is inexact in binary; the sd must still come out 0, not NaN. */
	iostat_acc_init(&acc);
	for (i = 0; i < 1000; i++)
		iostat_acc_add(&acc, &same);
	iostat_acc_result(&acc, &res);
	CHECK_NEAR(res.mean.avgrq_sz, 0.1, 1e-12);
	CHECK_NEAR(res.avgrq_sz_sd, 0.0, 1e-9);
	CHECK(!isnan(res.avgrq_sz_sd));
}

/*
 * The two intervals of ubda (t0->t1, t1->t2):
 *   avgrq 1006.382 over 178 requests, 256 over 100
 *   weighted mean 204736/278 = 736.460 (the whole-run avgrq-sz)
 *   sd of two points = |x1 - x2| * sqrt(w1*w2) / (w1 + w2)
 *      = 750.382 * sqrt(17800) / 278 = 750.382 * 133.417 / 278 = 360.120
 *   await mean (417.708 + 5) / 2 = 211.354; util (85.4 + 30) / 2 = 57.7;
 *   avgqu (74.35 + 0.6) / 2 = 37.475
 */
TEST(test_acc_over_fixtures)
{
	struct iostat_acc acc;
	struct iostat_acc_result res;
	struct iostat_row r;

	iostat_acc_init(&acc);
	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubda", 1000.0, &r));
	iostat_acc_add(&acc, &r);
	CHECK(row_between("t1.diskstats", "t2.diskstats", "ubda", 1000.0, &r));
	CHECK_NEAR(r.avgrq_sz, 256.0, 1e-9);
	CHECK_NEAR(r.await, 5.0, 1e-9);
	iostat_acc_add(&acc, &r);
	iostat_acc_result(&acc, &res);
	CHECK_EQ_INT(res.ios, 278);
	CHECK_NEAR(res.mean.avgrq_sz, 736.460, 1e-3);
	CHECK_NEAR(res.avgrq_sz_sd, 360.120, 1e-3);
	CHECK_NEAR(res.mean.await, 211.354, 1e-3);
	CHECK_NEAR(res.mean.util, 57.7, 1e-9);
	CHECK_NEAR(res.mean.avgqu_sz, 37.475, 1e-9);
	CHECK_NEAR(res.mean.w_s, 139.0, 1e-9);
}

/* The table row prints as iostat -kx printed it in the 2012 thread. */
TEST(test_format_table)
{
	struct iostat_row r;
	char line[256];

	CHECK(row_between("t0.diskstats", "t1.diskstats", "ubda", 1000.0, &r));
	iostat_format_row(line, sizeof(line), "sda", &r);
	CHECK_STR(line, "sda               0.00     0.00    0.00  178.00"
			"     0.00 89568.00  1006.38    74.35  417.71   4.80  85.40\n");
	/* Every column ends where its header ends. */
	CHECK_EQ_INT(strlen(line), strlen(iostat_table_header));
	CHECK(strncmp(iostat_table_header, "Device:", 7) == 0);
}

TEST(test_format_tsv_and_summary)
{
	struct iostat_row r = mkrow(3, 8.0, 2.0, 30.0);
	struct iostat_summary sum;
	struct iostat_acc acc;
	struct iostat_acc_result res;
	char buf[1024];

	iostat_format_tsv(buf, sizeof(buf), 1.5, "ubda", &r);
	CHECK_STR(buf, "1.500\tubda\t0.000\t0.000\t0.000\t3.000\t0.000\t0.000"
		       "\t8.000\t0.000\t2.000\t0.000\t30.000\n");
	CHECK_STR(iostat_tsv_header, "time_s\tdevice\trrqm_s\twrqm_s\tr_s\tw_s"
		  "\trkB_s\twkB_s\tavgrq_sz\tavgqu_sz\tawait\tsvctm\tutil\n");

	memset(&sum, 0, sizeof(sum));
	sum.row.rd_ios = 12;
	sum.row.wr_ios = 278;
	sum.row.elapsed_ms = 2000.0;
	sum.read_mb = 0.5;
	sum.written_mb = 99.96875;
	iostat_acc_init(&acc);
	iostat_acc_add(&acc, &r);
	iostat_acc_result(&acc, &res);
	iostat_format_summary(buf, sizeof(buf), "ubda", &sum, &res);
	CHECK_STR(buf, "device=ubda\nreads=12\nwrites=278\nread_mb=0.500\n"
		       "written_mb=99.969\navgrq_sz_mean=8.000\n"
		       "avgrq_sz_sd=0.000\nwareq_sz_mean=4.000\n"
		       "wareq_sz_sd=0.000\navgqu_sz_mean=0.000\n"
		       "await_mean=2.000\nutil_mean=30.000\nseconds=2.000\n"
		       "intervals=1\n");
}
