// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/summarize/completion.c: writeback_end_batch lines, fed
 * one by one and through rl-tracestat's line reader, with known answers.
 *
 * Percentiles are nearest-rank (sample ceil(p * n / 100) of n sorted).
 */
#include "check.h"
#include "summarize/completion.h"
#include "summarize/tracestat.h"

#include <string.h>

#define END_LINE(ts, fields) \
	"kworker/u8:2-41   [001] ..s1.  " ts ": writeback_end_batch: " fields

TEST(parse_good_event)
{
	struct completion_event ev;

	CHECK_EQ_INT(completion_parse("bdi 98:0: ino=12 unit=io_end folios=256 "
				      "bytes=1048576 reclaim=17 gap_us=10250", &ev), 0);
	CHECK_STR(ev.bdi, "98:0");
	CHECK_STR(ev.unit, "io_end");
	CHECK_EQ_INT(ev.ino, 12);
	CHECK_EQ_INT(ev.folios, 256);
	CHECK_EQ_INT(ev.bytes, 1048576);
	CHECK_EQ_INT(ev.reclaim, 17);
	CHECK_EQ_INT(ev.gap_us, 10250);
	/* a field a later kernel adds is skipped; a name bdi is fine */
	CHECK_EQ_INT(completion_parse("bdi btrfs-1: ino=1 unit=bio folios=1 bytes=4096 "
				      "reclaim=0 gap_us=0 zone=2", &ev), 0);
	CHECK_STR(ev.bdi, "btrfs-1");
}

TEST(parse_bad_events)
{
	struct completion_event ev;

	/* a field missing, a bad number, no bdi, an overlong word */
	CHECK_EQ_INT(completion_parse("bdi 98:0: ino=12 unit=bio folios=2 bytes=8192 "
				      "reclaim=0", &ev), -1);
	CHECK_EQ_INT(completion_parse("bdi 98:0: ino=12 unit=bio folios=-2 bytes=8192 "
				      "reclaim=0 gap_us=1", &ev), -1);
	CHECK_EQ_INT(completion_parse("ino=12 unit=bio folios=2 bytes=8192 reclaim=0 "
				      "gap_us=1", &ev), -1);
	CHECK_EQ_INT(completion_parse("bdi 98:0: ino=1 unit=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
				      "folios=2 bytes=8192 reclaim=0 gap_us=1", &ev), -1);
	CHECK_EQ_INT(completion_parse("bdi 98:0: ino=1 unit=bio folios=2x bytes=8192 "
				      "reclaim=0 gap_us=1", &ev), -1);
}

/*
 * Five events on one bdi over 2 s: folios 1 2 3 4 100 (p50 = 3rd = 3,
 * p90 = 5th = 100), gaps after the first 1000 2000 3000 30000 us (p50 =
 * 2nd = 2 ms, p90 = 4th = 30 ms); 10 reclaim folios in 2 s = 5/s.
 */
TEST(metrics_through_the_trace_reader)
{
	static const char *const lines[] = {
		END_LINE("100.000000", "bdi 98:0: ino=5 unit=bio folios=1 bytes=4096 reclaim=0 gap_us=0"),
		END_LINE("100.001000", "bdi 98:0: ino=5 unit=bio folios=2 bytes=8192 reclaim=1 gap_us=1000"),
		END_LINE("100.003000", "bdi 98:0: ino=5 unit=bio folios=3 bytes=12288 reclaim=2 gap_us=2000"),
		END_LINE("100.006000", "bdi 98:0: ino=5 unit=ioend folios=4 bytes=16384 reclaim=3 gap_us=3000"),
		END_LINE("100.036000", "bdi 98:0: ino=5 unit=ioend folios=100 bytes=409600 reclaim=4 gap_us=30000"),
	};
	struct tracestat ts;
	size_t i;

	tracestat_init(&ts);
	tracestat_set_duration(&ts, 2.0);
	CHECK_EQ_INT(tracestat_series(&ts, 100.0, 102.0, 0.1), 0);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		CHECK_EQ_INT(tracestat_feed_line(&ts, lines[i]), TRACESTAT_COMPLETION);
	/* a broken completion line is malformed, not a wait */
	CHECK_EQ_INT(tracestat_feed_line(&ts, END_LINE("100.5", "bdi 98:0: folios=x")),
		     TRACESTAT_MALFORMED);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 0);
	CHECK_EQ_INT(ts.completions.events, 5);
	CHECK_EQ_INT(ts.completions.folios, 110);
	CHECK_EQ_INT(ts.completions.folios_p50, 3);
	CHECK_EQ_INT(ts.completions.folios_p90, 100);
	CHECK_EQ_INT(ts.completions.folios_max, 100);
	CHECK_NEAR(ts.completions.gap_ms_p50, 2.0, 1e-9);
	CHECK_NEAR(ts.completions.gap_ms_p90, 30.0, 1e-9);
	CHECK_NEAR(ts.completions.events_per_s, 2.5, 1e-9);
	CHECK_NEAR(ts.completions.reclaim_folios_per_s, 5.0, 1e-9);
	CHECK_NEAR(ts.completions.mb_per_s, 450560 / 1e6 / 2, 1e-9);
	CHECK_EQ_INT(ts.completions.nunits, 2);
	CHECK_STR(ts.completions.units[1].name, "ioend");
	CHECK_EQ_INT(ts.completions.units[1].events, 2);
	/* 10 ms bins: 1 at 0 ms, 2 at 1 ms, 3 at 3 ms, 4 at 6 ms -> bin 0 */
	CHECK_EQ_INT(ts.completions.series[0], 10);
	CHECK_EQ_INT(ts.completions.series[3], 100);
	tracestat_free(&ts);
}

TEST(gap_of_each_bdis_first_event_left_out)
{
	struct completion_stats c;
	struct completion_event a = { .bdi = "98:0", .unit = "bio", .folios = 1, .gap_us = 0 };
	struct completion_event b = { .bdi = "98:16", .unit = "bio", .folios = 1, .gap_us = 0 };

	completion_init(&c);
	CHECK_EQ_INT(completion_add(&c, 1.0, &a), 0);
	CHECK_EQ_INT(completion_add(&c, 1.1, &b), 0);
	a.gap_us = 0;	/* two completions in the same microsecond */
	CHECK_EQ_INT(completion_add(&c, 1.2, &a), 0);
	completion_finish(&c, 0);
	CHECK_EQ_INT(c.ngap, 1);
	CHECK_NEAR(c.gap_ms_p50, 0, 1e-9);
	/* no duration: no rates, never a division by zero */
	CHECK_NEAR(c.events_per_s, 0, 1e-9);
	completion_free(&c);
}

TEST(series_and_rows_printed)
{
	struct completion_stats c;
	struct completion_event a = { .bdi = "98:0", .unit = "bio", .folios = 7, .bytes = 28672 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	completion_init(&c);
	/* nothing seen: no rows at all, so a kernel without the event adds none */
	f = open_memstream(&buf, &len);
	completion_print(f, 1, &c);
	fclose(f);
	CHECK_EQ_INT(len, 0);
	free(buf);
	CHECK_EQ_INT(completion_series(&c, 10.0, 10.03), 0);
	CHECK_EQ_INT(completion_add(&c, 10.015, &a), 0);
	CHECK_EQ_INT(completion_add(&c, 11.0, &a), 0);	/* after the window */
	completion_finish(&c, 1.0);
	f = open_memstream(&buf, &len);
	completion_print_series(f, &c);
	fclose(f);
	CHECK_STR(buf, "start_s\tfolios\n0.00\t0\n0.01\t7\n0.02\t0\n");
	free(buf);
	f = open_memstream(&buf, &len);
	completion_print(f, 1, &c);
	fclose(f);
	CHECK(strstr(buf, "completion.events\t2\n") != NULL);
	CHECK(strstr(buf, "completion.unit.bio.events\t2\n") != NULL);
	free(buf);
	completion_free(&c);
}
