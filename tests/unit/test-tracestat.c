// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/summarize/tracestat.c on inline lines and on the traces
 * in tests/fixtures/tracestat/ (found through $RL_FIXTURES).
 *
 * Percentiles are nearest-rank: p of n sorted samples is sample number
 * ceil(p * n / 100), counting from 1.  Histogram buckets are [lo, hi) in ms
 * with edges 0 1 2 5 10 15 20 30 50 75 99 100+, i.e. bucket indexes
 *   0:[0,1) 1:[1,2) 2:[2,5) 3:[5,10) 4:[10,15) 5:[15,20) 6:[20,30)
 *   7:[30,50) 8:[50,75) 9:[75,99) 10:[99,100) 11:[100,inf)
 */
#include "check.h"
#include "summarize/tracestat.h"

#include <stdlib.h>
#include <string.h>

#define RECLAIM_LINE \
	"dd-1234    [000] .....  1360.894605: mm_vmscan_reclaim_wait: " \
	"usec_timeout=100000 usec_delayed=10000 memcg=3 node=0 zone=1 " \
	"reason=writeback class=write"

#define UPSTREAM_LINE \
	"kswapd0-37      [000] d..1.   12.345678: mm_vmscan_throttled: " \
	"nid=0 usec_timeout=100000 usect_delayed=12000 " \
	"reason=VMSCAN_THROTTLE_WRITEBACK"

/* Feeds fixture tracestat/NAME into ts (already initialised). */
static int feed_fixture(struct tracestat *ts, const char *name)
{
	const char *dir = getenv("RL_FIXTURES");
	char path[4096];
	FILE *f;
	int rc;

	if (!dir) {
		fprintf(stderr, "  RL_FIXTURES is not set\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/tracestat/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "  cannot open %s\n", path);
		return -1;
	}
	rc = tracestat_feed_stream(ts, f, NULL);
	fclose(f);
	return rc;
}

/* A fresh accumulator fed with fixture NAME and finished. */
static int load(struct tracestat *ts, const char *name)
{
	int rc;

	tracestat_init(ts);
	rc = feed_fixture(ts, name);
	tracestat_finish(ts);
	return rc;
}

static const struct tracestat_entry *entry(const struct tracestat_table *t,
					   const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	if (!strcmp(name, TRACESTAT_OTHER_NAME))
		return &t->other;
	return NULL;
}

#define CHECK_ENTRY(table, name, cnt, us)				\
	do {								\
		const struct tracestat_entry *e_ = entry(table, name);	\
		CHECK(e_ != NULL);					\
		if (e_) {						\
			CHECK_EQ_INT(e_->count, cnt);			\
			CHECK_EQ_INT(e_->usec, us);			\
		}							\
	} while (0)

#define CHECK_PCT(ts, p10, p25, p50, p75, p90, p99)		\
	do {							\
		CHECK_EQ_INT((ts)->pct_usec[0], p10);		\
		CHECK_EQ_INT((ts)->pct_usec[1], p25);		\
		CHECK_EQ_INT((ts)->pct_usec[2], p50);		\
		CHECK_EQ_INT((ts)->pct_usec[3], p75);		\
		CHECK_EQ_INT((ts)->pct_usec[4], p90);		\
		CHECK_EQ_INT((ts)->pct_usec[5], p99);		\
	} while (0)

/* Runs a printer into memory; the caller frees the text. */
static char *capture(void (*print)(FILE *, const struct tracestat *),
		     const struct tracestat *ts)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	print(f, ts);
	fclose(f);
	return buf;
}

static void print_text_file(FILE *f, const struct tracestat *ts)
{
	tracestat_print_text(f, ts, "ext4.trace");
}

/* True if text holds line as a whole line. */
/* ts counted by task name from trace lines, each one wait, then finished */
static void feed_by_comm(struct tracestat *ts, const char *const *lines, size_t n)
{
	size_t i;

	tracestat_init(ts);
	tracestat_by_comm(ts);
	for (i = 0; i < n; i++)
		CHECK_EQ_INT(tracestat_feed_line(ts, lines[i]), TRACESTAT_WAIT);
	tracestat_finish(ts);
}

static int has_line(const char *text, const char *line)
{
	size_t len = strlen(line);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, line, len) && p[len] == '\n')
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

TEST(test_parse_reclaimlab_line)
{
	struct tracestat_event ev;

	CHECK_EQ_INT(tracestat_parse_line(RECLAIM_LINE, &ev), TRACESTAT_WAIT);
	CHECK_EQ_INT(ev.format, TRACESTAT_FMT_RECLAIMLAB);
	CHECK_STR(ev.comm, "dd");
	CHECK_EQ_INT(ev.pid, 1234);
	CHECK_NEAR(ev.ts, 1360.894605, 1e-9);
	CHECK_EQ_INT(ev.usec_timeout, 100000);
	CHECK_EQ_INT(ev.usec_delayed, 10000);
	CHECK_STR(ev.reason, "writeback");
	CHECK_STR(ev.cls, "write");
	/* a trailing newline (and CR) is part of what fgets returns */
	CHECK_EQ_INT(tracestat_parse_line(RECLAIM_LINE "\r\n", &ev),
		     TRACESTAT_WAIT);
	CHECK_STR(ev.cls, "write");
}

TEST(test_parse_upstream_line)
{
	struct tracestat_event ev;

	CHECK_EQ_INT(tracestat_parse_line(UPSTREAM_LINE, &ev), TRACESTAT_WAIT);
	CHECK_EQ_INT(ev.format, TRACESTAT_FMT_UPSTREAM);
	CHECK_STR(ev.comm, "kswapd0");
	CHECK_EQ_INT(ev.pid, 37);
	CHECK_NEAR(ev.ts, 12.345678, 1e-9);
	CHECK_EQ_INT(ev.usec_timeout, 100000);
	CHECK_EQ_INT(ev.usec_delayed, 12000);
	CHECK_STR(ev.reason, "writeback");
	CHECK_STR(ev.cls, "-");

	/* a kernel with the field name fixed */
	CHECK_EQ_INT(tracestat_parse_line(
		"a-1 [000] ..... 1.5: mm_vmscan_throttled: nid=0 "
		"usec_timeout=20000 usec_delayed=3000 "
		"reason=VMSCAN_THROTTLE_ISOLATED", &ev), TRACESTAT_WAIT);
	CHECK_EQ_INT(ev.usec_delayed, 3000);
	CHECK_STR(ev.reason, "isolated");

	/* words outside the mapping are kept as they are */
	CHECK_EQ_INT(tracestat_parse_line(
		"a-1 [000] ..... 2: mm_vmscan_throttled: nid=0 "
		"usec_timeout=1 usect_delayed=0 reason=VMSCAN_THROTTLE_NONE",
		&ev), TRACESTAT_WAIT);
	CHECK_STR(ev.reason, "VMSCAN_THROTTLE_NONE");
	CHECK_NEAR(ev.ts, 2.0, 1e-9);
}

TEST(test_parse_task_column)
{
	struct tracestat_event ev;

	CHECK_EQ_INT(tracestat_parse_line(
		"   <...>-46385 [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=1 usec_delayed=1 reason=dirty class=clean", &ev),
		TRACESTAT_WAIT);
	CHECK_STR(ev.comm, "<...>");
	CHECK_EQ_INT(ev.pid, 46385);

	/* comm with '-' and ' ', "(tgid)" column, no flags column */
	CHECK_EQ_INT(tracestat_parse_line(
		" my-prog x-77  (   70) [001]   3.25: mm_vmscan_reclaim_wait: "
		"usec_timeout=1 usec_delayed=1 reason=dirty class=clean", &ev),
		TRACESTAT_WAIT);
	CHECK_STR(ev.comm, "my-prog x");
	CHECK_EQ_INT(ev.pid, 77);
	CHECK_NEAR(ev.ts, 3.25, 1e-9);

	/* a "[1]" inside the comm is not taken for the cpu column */
	CHECK_EQ_INT(tracestat_parse_line(
		"weird [1] name-9 [000] ..... 4: mm_vmscan_reclaim_wait: "
		"usec_timeout=1 usec_delayed=1 reason=dirty class=clean", &ev),
		TRACESTAT_WAIT);
	CHECK_STR(ev.comm, "weird [1] name");
	CHECK_EQ_INT(ev.pid, 9);

	/* headers and blank lines are ignored; other events counted */
	CHECK_EQ_INT(tracestat_parse_line("# tracer: nop\n", &ev),
		     TRACESTAT_IGNORED);
	CHECK_EQ_INT(tracestat_parse_line("   \n", &ev), TRACESTAT_IGNORED);
	CHECK_EQ_INT(tracestat_parse_line("", &ev), TRACESTAT_IGNORED);
	CHECK_EQ_INT(tracestat_parse_line(
		"dd-1 [000] ..... 7.5: sched_switch: prev_comm=dd", &ev),
		TRACESTAT_OTHER);
	CHECK_NEAR(ev.ts, 7.5, 1e-9);
	/* function tracer lines have no "event:" word: still other */
	CHECK_EQ_INT(tracestat_parse_line(
		"<idle>-0 [000] d..1. 8.0: do_idle <-cpu_startup_entry", &ev),
		TRACESTAT_OTHER);
	/* the event's name inside another event's text does not count */
	CHECK_EQ_INT(tracestat_parse_line(
		"sh-5 [000] ..... 9.0: tracing_mark_write: "
		"mm_vmscan_reclaim_wait: usec_timeout=1", &ev),
		TRACESTAT_OTHER);
}

TEST(test_parse_malformed)
{
	static const char *const bad[] = {
		/* missing usec_delayed */
		"dd-1 [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=100000 reason=writeback class=write",
		/* missing class */
		"dd-1 [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=100000 usec_delayed=5 reason=writeback",
		/* garbage, negative, empty and too large numbers */
		"dd-1 [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=1e5 usec_delayed=5 reason=writeback class=write",
		"dd-1 [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=100 usec_delayed=-5 reason=writeback class=write",
		"dd-1 [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=100 usec_delayed= reason=writeback class=write",
		"dd-1 [000] ..... 1.0: mm_vmscan_throttled: nid=0 "
		"usec_timeout=100 usect_delayed=99999999999 reason=X",
		/* empty reason */
		"dd-1 [000] ..... 1.0: mm_vmscan_throttled: nid=0 "
		"usec_timeout=100 usect_delayed=9 reason=",
		/* truncated in the fields, at the timestamp, at the task */
		"dd-1 [000] ..... 1.0: mm_vmscan_reclaim_wait: usec_timeout=10",
		"dd-1 [000] ..... 1360.89",
		"dd-1",
		/* no pid, non-numeric pid, bad tgid column, bad timestamp */
		"dd [000] ..... 1.0: mm_vmscan_reclaim_wait: usec_timeout=1 "
		"usec_delayed=1 reason=dirty class=clean",
		"dd-x1 [000] ..... 1.0: mm_vmscan_reclaim_wait: usec_timeout=1 "
		"usec_delayed=1 reason=dirty class=clean",
		"dd-1 (  ab) [000] ..... 1.0: mm_vmscan_reclaim_wait: "
		"usec_timeout=1 usec_delayed=1 reason=dirty class=clean",
		"dd-1 [000] ..... 1.x: mm_vmscan_reclaim_wait: usec_timeout=1 "
		"usec_delayed=1 reason=dirty class=clean",
		/* not a trace line at all */
		"CPU:0 [LOST 12 EVENTS]",
	};
	struct tracestat_event ev;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		if (tracestat_parse_line(bad[i], &ev) != TRACESTAT_MALFORMED) {
			fprintf(stderr, "  accepted: %s\n", bad[i]);
			CHECK(0);
		}
	}
}

/* > TRACESTAT_LINE_MAX is malformed even if it would otherwise parse. */
TEST(test_long_lines)
{
	size_t base = strlen(RECLAIM_LINE);
	char *line = malloc(10240 + 1);
	struct tracestat_event ev;
	struct tracestat ts;

	CHECK(line != NULL);
	if (!line)
		return;
	/* exactly 4096 chars plus newline: still fine */
	memcpy(line, RECLAIM_LINE, base);
	memset(line + base, ' ', TRACESTAT_LINE_MAX - base);
	strcpy(line + TRACESTAT_LINE_MAX, "\n");
	CHECK_EQ_INT(tracestat_parse_line(line, &ev), TRACESTAT_WAIT);
	/* 4097: malformed */
	strcpy(line + TRACESTAT_LINE_MAX, " \n");
	CHECK_EQ_INT(tracestat_parse_line(line, &ev), TRACESTAT_MALFORMED);
	/* 10 KiB through the accumulator */
	memset(line + base, 'x', 10240 - base);
	line[10240] = '\0';
	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_feed_line(&ts, line), TRACESTAT_MALFORMED);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.malformed, 1);
	CHECK_EQ_INT(ts.events, 0);
	tracestat_free(&ts);
	free(line);
}

/*
 * ext4.trace, usec_delayed in file order:
 *   2000 3000 4000 4000 6000 8000 10000 12000 15000 100000 (n = 10)
 * sorted the same; p10 = #1 = 2000, p25 = #ceil(2.5)=3 = 4000,
 * p50 = #5 = 6000, p75 = #ceil(7.5)=8 = 12000, p90 = #9 = 15000,
 * p99 = #ceil(9.9)=10 = 100000.  Sum 164000 usec = 164 ms.
 * Full timeout: only the 100000 one: 1/10 = 0.1.
 * Span: other event at 1359.5 .. last wait at 1369.5 = 10 s, so
 * stalled = 164 / 10 = 16.4 ms/s.
 * reason writeback: 2000+3000+4000+6000+10000+15000+100000 = 7, 140000
 *   dirty 4000, congested 8000, isolated 12000.
 * class write: 2000+3000+6000+10000+15000+100000 = 6, 136000;
 *   kswapd 4000+8000 = 2, 12000; recent_write 4000; clean 12000.
 * task dd-1234: 8 waits, 164000 - 12000 = 152000; kswapd0-37: 2, 12000.
 */
TEST(test_ext4_fixture)
{
	struct tracestat ts;

	CHECK_EQ_INT(load(&ts, "ext4.trace"), 0);
	CHECK_EQ_INT(ts.events, 10);
	CHECK_EQ_INT(ts.other, 2);
	CHECK_EQ_INT(ts.malformed, 0);
	CHECK_EQ_INT(ts.usec_total, 164000);
	CHECK_NEAR(ts.first_ts, 1359.5, 1e-9);
	CHECK_NEAR(ts.last_ts, 1369.5, 1e-9);
	CHECK_PCT(&ts, 2000, 4000, 6000, 12000, 15000, 100000);
	CHECK_EQ_INT(ts.max_usec, 100000);
	CHECK_NEAR(ts.full_timeout_share, 0.1, 1e-12);
	CHECK_EQ_INT(ts.dur_source, TRACESTAT_DUR_TRACE);
	CHECK_NEAR(ts.duration_s, 10.0, 1e-9);
	CHECK_NEAR(ts.stalled_ms_per_s, 16.4, 1e-9);
	CHECK_ENTRY(&ts.reasons, "writeback", 7, 140000);
	CHECK_ENTRY(&ts.reasons, "dirty", 1, 4000);
	CHECK_ENTRY(&ts.reasons, "congested", 1, 8000);
	CHECK_ENTRY(&ts.reasons, "isolated", 1, 12000);
	CHECK_ENTRY(&ts.reasons, "noprogress", 0, 0);
	CHECK_ENTRY(&ts.classes, "write", 6, 136000);
	CHECK_ENTRY(&ts.classes, "kswapd", 2, 12000);
	CHECK_ENTRY(&ts.classes, "recent_write", 1, 4000);
	CHECK_ENTRY(&ts.classes, "clean", 1, 12000);
	CHECK_EQ_INT(ts.tasks.n, 2);
	/* busiest task first */
	CHECK_STR(ts.tasks.v[0].name, "dd-1234");
	CHECK_ENTRY(&ts.tasks, "dd-1234", 8, 152000);
	CHECK_ENTRY(&ts.tasks, "kswapd0-37", 2, 12000);
	tracestat_free(&ts);
}

/*
 * xfs.trace (with the tgid column): 100000 x6, 40000, 99999 (n = 8).
 * sorted: 40000 99999 100000 x6.  p10 = #1 = 40000, p25 = #2 = 99999,
 * p50 = #4, p75 = #6, p90 = #ceil(7.2)=8, p99 = #8: all 100000.
 * Full: 6/8 = 0.75 (99999 < 100000 is not full).
 * Sum 600000 + 40000 + 99999 = 739999; span 100.0 .. 102.0 = 2 s,
 * stalled = 739.999 / 2 = 369.9995 ms/s.
 */
TEST(test_xfs_fixture_tgid)
{
	struct tracestat ts;

	CHECK_EQ_INT(load(&ts, "xfs.trace"), 0);
	CHECK_EQ_INT(ts.events, 8);
	CHECK_EQ_INT(ts.malformed, 0);
	CHECK_PCT(&ts, 40000, 99999, 100000, 100000, 100000, 100000);
	CHECK_NEAR(ts.full_timeout_share, 0.75, 1e-12);
	CHECK_NEAR(ts.duration_s, 2.0, 1e-9);
	CHECK_NEAR(ts.stalled_ms_per_s, 369.9995, 1e-9);
	CHECK_ENTRY(&ts.tasks, "dd-2000", 7, 639999);
	CHECK_ENTRY(&ts.tasks, "kswapd0-37", 1, 100000);
	CHECK_ENTRY(&ts.reasons, "wait_writeback", 1, 40000);
	tracestat_free(&ts);
}

/*
 * vfat.trace: 100000 5000 0 100000 20000 10000 1000 (n = 7)
 * sorted: 0 1000 5000 10000 20000 100000 100000.
 * p10 = #ceil(0.7)=1 = 0, p25 = #ceil(1.75)=2 = 1000,
 * p50 = #ceil(3.5)=4 = 10000, p75 = #ceil(5.25)=6 = 100000,
 * p90 = #ceil(6.3)=7, p99 = #ceil(6.93)=7: 100000.
 * Full: both 100000s plus the noprogress wait of 10000 out of a 10000
 * timeout = 3/7.  Sum 236000 = 236 ms over 10 .. 60 = 50 s: 4.72 ms/s.
 * "fatsync" is no known reason: kept by name.
 */
TEST(test_vfat_fixture)
{
	struct tracestat ts;

	CHECK_EQ_INT(load(&ts, "vfat.trace"), 0);
	CHECK_EQ_INT(ts.events, 7);
	CHECK_EQ_INT(ts.usec_total, 236000);
	CHECK_PCT(&ts, 0, 1000, 10000, 100000, 100000, 100000);
	CHECK_EQ_INT(ts.full_timeout, 3);
	CHECK_NEAR(ts.full_timeout_share, 3.0 / 7, 1e-12);
	CHECK_NEAR(ts.stalled_ms_per_s, 4.72, 1e-9);
	CHECK_ENTRY(&ts.reasons, "fatsync", 1, 1000);
	CHECK_ENTRY(&ts.reasons, "noprogress", 1, 10000);
	CHECK_ENTRY(&ts.reasons, "migrate_writeback", 1, 20000);
	CHECK_ENTRY(&ts.reasons, "writeback", 3, 200000);
	CHECK_ENTRY(&ts.classes, "clean", 2, 30000);
	tracestat_free(&ts);
}

/*
 * upstream.trace: 12000 100000 20000 10000 0 (n = 5), one other event.
 * sorted 0 10000 12000 20000 100000: p10 = #1 = 0, p25 = #2 = 10000,
 * p50 = #3 = 12000, p75 = #4 = 20000, p90 = p99 = #5 = 100000.
 * Full: 100000/100000, 20000/20000, 10000/10000 = 3/5 = 0.6.
 * Sum 142000 over 12.345678 .. 14.345678 = 2 s: 71 ms/s.  Class "-".
 */
TEST(test_upstream_fixture)
{
	struct tracestat ts;

	CHECK_EQ_INT(load(&ts, "upstream.trace"), 0);
	CHECK_EQ_INT(ts.events, 5);
	CHECK_EQ_INT(ts.other, 1);
	CHECK_PCT(&ts, 0, 10000, 12000, 20000, 100000, 100000);
	CHECK_NEAR(ts.full_timeout_share, 0.6, 1e-12);
	CHECK_NEAR(ts.stalled_ms_per_s, 71.0, 1e-6);
	CHECK_ENTRY(&ts.reasons, "writeback", 2, 112000);
	CHECK_ENTRY(&ts.reasons, "isolated", 1, 20000);
	CHECK_ENTRY(&ts.reasons, "noprogress", 1, 10000);
	CHECK_ENTRY(&ts.reasons, "congested", 1, 0);
	CHECK_ENTRY(&ts.classes, "-", 5, 142000);
	CHECK_ENTRY(&ts.classes, "write", 0, 0);
	CHECK_ENTRY(&ts.tasks, "dd-500", 3, 130000);
	tracestat_free(&ts);
}

/*
 * malformed.trace: 2 good waits (10000 writeback, 5000 congested), one
 * other event, and 7 malformed lines: missing usec_delayed, "12abc",
 * truncated fields, truncated at the flags, the 10 KiB line, usect_delayed
 * -5 and a missing reason.  The 10 KiB line ends in text that would parse
 * as a wait of 30000 usec if its tail were read as a line of its own.
 */
TEST(test_malformed_fixture)
{
	struct tracestat ts;

	CHECK_EQ_INT(load(&ts, "malformed.trace"), 0);
	CHECK_EQ_INT(ts.events, 2);
	CHECK_EQ_INT(ts.malformed, 7);
	CHECK_EQ_INT(ts.other, 1);
	CHECK_EQ_INT(ts.usec_total, 15000);
	CHECK_EQ_INT(ts.max_usec, 10000);
	CHECK_ENTRY(&ts.reasons, "congested", 1, 5000);
	CHECK_EQ_INT(ts.tasks.n, 2);
	tracestat_free(&ts);
}

/* comm.trace: odd task columns, usec_delayed 1000 .. 7000 in order. */
TEST(test_comm_fixture)
{
	struct tracestat ts;

	CHECK_EQ_INT(load(&ts, "comm.trace"), 0);
	CHECK_EQ_INT(ts.events, 7);
	CHECK_EQ_INT(ts.malformed, 0);
	CHECK_ENTRY(&ts.tasks, "<...>-46385", 1, 1000);
	CHECK_ENTRY(&ts.tasks, "kworker/u2:1-33", 1, 2000);
	CHECK_ENTRY(&ts.tasks, "my prog-77", 1, 3000);
	CHECK_ENTRY(&ts.tasks, "a-b-c-d-500", 1, 4000);
	CHECK_ENTRY(&ts.tasks, "x-y-600", 1, 5000);
	CHECK_ENTRY(&ts.tasks, "weird [1] name-9", 1, 6000);
	CHECK_ENTRY(&ts.tasks, "dd-1234", 1, 7000);
	/* equal counts: ordered by usec, largest first */
	CHECK_STR(ts.tasks.v[0].name, "dd-1234");
	tracestat_free(&ts);
}

/*
 * ext4 (ms): 2 3 4 4 -> [2,5) = 4; 6 8 -> [5,10) = 2; 10 12 -> [10,15)
 * = 2; 15 -> [15,20) = 1; 100 -> 100+ = 1.
 * xfs: 40 -> [30,50) = 1; 99.999 -> [99,100) = 1; 100 x6 -> 100+ = 6.
 */
TEST(test_histogram)
{
	static const unsigned long ext4[TRACESTAT_NBUCKETS] = {
		0, 0, 4, 2, 2, 1, 0, 0, 0, 0, 0, 1,
	};
	static const unsigned long xfs[TRACESTAT_NBUCKETS] = {
		0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 6,
	};
	struct tracestat ts;
	char *out;
	size_t i;

	CHECK_EQ_INT(load(&ts, "ext4.trace"), 0);
	for (i = 0; i < TRACESTAT_NBUCKETS; i++)
		CHECK_EQ_INT(ts.hist[i], ext4[i]);
	out = capture(tracestat_print_hist, &ts);
	CHECK(out != NULL);
	if (out) {
		CHECK(has_line(out, "bucket_lo_ms\tbucket_hi_ms\tcount\tfraction"));
		CHECK(has_line(out, "0\t1\t0\t0.000000"));
		CHECK(has_line(out, "2\t5\t4\t0.400000"));
		CHECK(has_line(out, "15\t20\t1\t0.100000"));
		CHECK(has_line(out, "100\tinf\t1\t0.100000"));
	}
	free(out);
	tracestat_free(&ts);

	CHECK_EQ_INT(load(&ts, "xfs.trace"), 0);
	for (i = 0; i < TRACESTAT_NBUCKETS; i++)
		CHECK_EQ_INT(ts.hist[i], xfs[i]);
	tracestat_free(&ts);
}

/*
 * vfat sorted: 0 1000 5000 10000 20000 100000 100000, so the CDF is
 * (0, 1/7) (1000, 2/7) (5000, 3/7) (10000, 4/7) (20000, 5/7) (100000, 1).
 */
TEST(test_cdf)
{
	static const long want_usec[] = { 0, 1000, 5000, 10000, 20000, 100000 };
	static const int want_n[] = { 1, 2, 3, 4, 5, 7 };
	struct tracestat ts;
	size_t pos = 0, i = 0;
	long usec;
	double frac;
	char *out;

	CHECK_EQ_INT(load(&ts, "vfat.trace"), 0);
	while (tracestat_cdf_point(&ts, &pos, &usec, &frac)) {
		CHECK(i < 6);
		if (i >= 6)
			break;
		CHECK_EQ_INT(usec, want_usec[i]);
		CHECK_NEAR(frac, want_n[i] / 7.0, 1e-12);
		i++;
	}
	CHECK_EQ_INT(i, 6);
	out = capture(tracestat_print_cdf, &ts);
	CHECK(out != NULL);
	if (out) {
		CHECK(has_line(out, "usec_delayed\tcumulative_fraction"));
		CHECK(has_line(out, "5000\t0.428571"));
		CHECK(has_line(out, "100000\t1.000000"));
	}
	free(out);
	tracestat_free(&ts);
}

/*
 * xfs with --duration 10: 739.999 ms / 10 s = 73.9999 ms/s.
 * A single wait has no span: duration 0, stalled 0, source "none".
 */
TEST(test_duration)
{
	struct tracestat ts;
	char *out;

	tracestat_init(&ts);
	tracestat_set_duration(&ts, 10.0);
	CHECK_EQ_INT(feed_fixture(&ts, "xfs.trace"), 0);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.dur_source, TRACESTAT_DUR_OPTION);
	CHECK_NEAR(ts.stalled_ms_per_s, 73.9999, 1e-9);
	tracestat_free(&ts);

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_feed_line(&ts, RECLAIM_LINE), TRACESTAT_WAIT);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.dur_source, TRACESTAT_DUR_NONE);
	CHECK_NEAR(ts.duration_s, 0, 0);
	CHECK_NEAR(ts.stalled_ms_per_s, 0, 0);
	out = capture(print_text_file, &ts);
	CHECK(out && strstr(out, "stalled_ms_per_s 0.000 (duration is 0"));
	free(out);
	tracestat_free(&ts);
}

/* An empty trace and a header-only one: all zeros, no CDF points. */
TEST(test_empty)
{
	struct tracestat ts;
	size_t i, pos = 0;
	long usec;
	double frac;
	char *out;

	CHECK_EQ_INT(load(&ts, "header-only.trace"), 0);
	CHECK_EQ_INT(ts.events + ts.malformed + ts.other + ts.filtered, 0);
	CHECK_EQ_INT(ts.have_ts, 0);
	CHECK_PCT(&ts, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_INT(ts.max_usec, 0);
	CHECK_NEAR(ts.full_timeout_share, 0, 0);
	CHECK_NEAR(ts.stalled_ms_per_s, 0, 0);
	for (i = 0; i < TRACESTAT_NBUCKETS; i++)
		CHECK_EQ_INT(ts.hist[i], 0);
	CHECK_EQ_INT(tracestat_cdf_point(&ts, &pos, &usec, &frac), 0);
	out = capture(tracestat_print_hist, &ts);
	CHECK(out && has_line(out, "100\tinf\t0\t0.000000"));
	free(out);
	tracestat_free(&ts);

	tracestat_init(&ts);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 0);
	out = capture(tracestat_print_tsv, &ts);
	CHECK(out && has_line(out, "events\t0"));
	CHECK(out && has_line(out, "duration_source\tnone"));
	free(out);
	tracestat_free(&ts);
}

/*
 * ext4 filtered to writeback: 7 waits, sum 140000, 3 filtered out; the
 * span still covers the whole trace (10 s): 14 ms/s.  Filtered to comm
 * kswapd0: 2 waits, 12000.  To "dd-1234": 8 waits.
 */
TEST(test_filters)
{
	struct tracestat ts;

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_filter_reason(&ts, "writebak"), -1);
	CHECK_EQ_INT(tracestat_filter_reason(&ts, ""), -1);
	CHECK_EQ_INT(tracestat_filter_reason(&ts,
			"VMSCAN_THROTTLE_ISOLATED"), 0);
	CHECK_STR(ts.want_reason, "isolated");
	CHECK_EQ_INT(tracestat_filter_task(&ts, ""), -1);
	tracestat_free(&ts);

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_filter_reason(&ts, "writeback"), 0);
	CHECK_EQ_INT(feed_fixture(&ts, "ext4.trace"), 0);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 7);
	CHECK_EQ_INT(ts.filtered, 3);
	CHECK_EQ_INT(ts.usec_total, 140000);
	CHECK_NEAR(ts.stalled_ms_per_s, 14.0, 1e-9);
	CHECK_ENTRY(&ts.reasons, "dirty", 0, 0);
	tracestat_free(&ts);

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_filter_task(&ts, "kswapd0"), 0);
	CHECK_EQ_INT(tracestat_feed_line(&ts, UPSTREAM_LINE), TRACESTAT_WAIT);
	CHECK_EQ_INT(tracestat_feed_line(&ts, RECLAIM_LINE), TRACESTAT_WAIT);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 1);
	CHECK_EQ_INT(ts.filtered, 1);
	CHECK_EQ_INT(ts.usec_total, 12000);
	tracestat_free(&ts);

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_filter_task(&ts, "dd-1234"), 0);
	CHECK_EQ_INT(tracestat_feed_line(&ts, UPSTREAM_LINE), TRACESTAT_WAIT);
	CHECK_EQ_INT(tracestat_feed_line(&ts, RECLAIM_LINE), TRACESTAT_WAIT);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 1);
	CHECK_EQ_INT(ts.usec_total, 10000);
	tracestat_free(&ts);
}

/*
 * 200 tasks with one wait of 1000 usec each: 128 kept by name, the other
 * 72 fold into "(other)" with 72000 usec.  1..200 as samples also checks
 * percentiles on a larger n: p10 = #20, p99 = #198 (of 1000 * pid).
 */
TEST(test_task_fold_and_percentiles)
{
	struct tracestat ts;
	char line[256];
	char *out;
	int pid;

	tracestat_init(&ts);
	for (pid = 1; pid <= 200; pid++) {
		snprintf(line, sizeof(line),
			 "w-%d [000] ..... %d.0: mm_vmscan_reclaim_wait: "
			 "usec_timeout=100000 usec_delayed=%d reason=dirty "
			 "class=clean", pid, pid, pid * 1000);
		CHECK_EQ_INT(tracestat_feed_line(&ts, line), TRACESTAT_WAIT);
	}
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 200);
	CHECK_EQ_INT(ts.tasks.n, TRACESTAT_MAX_TASKS);
	/* tasks 1..128 kept: (129 + ... + 200) * 1000 = 329 * 36 * 1000 */
	CHECK_ENTRY(&ts.tasks, TRACESTAT_OTHER_NAME, 72, 11844000);
	CHECK_PCT(&ts, 20000, 50000, 100000, 150000, 180000, 198000);
	CHECK_EQ_INT(ts.max_usec, 200000);
	/* 100000 .. 200000 reach the timeout: 101 of 200 */
	CHECK_EQ_INT(ts.full_timeout, 101);
	out = capture(tracestat_print_tsv, &ts);
	CHECK(out && has_line(out, "task.(other).count\t72"));
	free(out);
	tracestat_free(&ts);
}

TEST(test_tsv_and_text_output)
{
	struct tracestat ts;
	char *out;

	CHECK_EQ_INT(load(&ts, "ext4.trace"), 0);
	out = capture(tracestat_print_tsv, &ts);
	CHECK(out != NULL);
	if (out) {
		CHECK(has_line(out, "events\t10"));
		CHECK(has_line(out, "malformed\t0"));
		CHECK(has_line(out, "other_events\t2"));
		CHECK(has_line(out, "duration_s\t10.000000"));
		CHECK(has_line(out, "p50_usec\t6000"));
		CHECK(has_line(out, "p99_usec\t100000"));
		CHECK(has_line(out, "max_usec\t100000"));
		CHECK(has_line(out, "full_timeout_share\t0.1000"));
		CHECK(has_line(out, "no_timeout_events\t0"));
		CHECK(has_line(out, "stalled_ms_per_s\t16.400"));
		CHECK(has_line(out, "reason.writeback.count\t7"));
		CHECK(has_line(out, "reason.writeback.usec\t140000"));
		CHECK(has_line(out, "reason.migrate_writeback.count\t0"));
		CHECK(has_line(out, "class.kswapd.usec\t12000"));
		CHECK(has_line(out, "task.dd-1234.count\t8"));
		CHECK(has_line(out, "task.dd-1234.usec\t152000"));
		/* every row is exactly key TAB value */
		CHECK(!strstr(out, " "));
	}
	free(out);
	out = capture(print_text_file, &ts);
	CHECK(out != NULL);
	if (out) {
		static const char head[] =
			"# rl-tracestat: page-reclaim waits in ext4.trace\n";

		CHECK(!strncmp(out, head, strlen(head)));
		CHECK(has_line(out, "events 10"));
		CHECK(has_line(out, "reason writeback 7 (usec 140000)"));
		CHECK(has_line(out, "class write 6 (usec 136000)"));
		CHECK(has_line(out, "task dd-1234 8 (usec 152000)"));
		CHECK(has_line(out, "p50_usec 6000"));
		CHECK(has_line(out, "full_timeout_share 0.1000 (1 of 10 waits with a timeout)"));
		CHECK(has_line(out, "no_timeout_events 0 (usec_timeout=0, a folio writeback wait: not in full_timeout_share)"));
		CHECK(has_line(out, "stalled_ms_per_s 16.400"));
		CHECK(has_line(out, "malformed 0"));
	}
	free(out);
	tracestat_free(&ts);
}

/* A stop flag already set (SIGINT on trace_pipe) reads nothing more. */
TEST(test_stream_stop)
{
	static const char text[] = RECLAIM_LINE "\n" UPSTREAM_LINE "\n";
	volatile sig_atomic_t stop = 1;
	struct tracestat ts;
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

	CHECK(f != NULL);
	if (!f)
		return;
	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_feed_stream(&ts, f, &stop), 0);
	CHECK_EQ_INT(ts.events, 0);
	stop = 0;
	CHECK_EQ_INT(tracestat_feed_stream(&ts, f, &stop), 0);
	CHECK_EQ_INT(ts.events, 2);
	fclose(f);
	tracestat_free(&ts);
}

/* --by-comm: each task name's statistics, as a --task filter gives them. */
TEST(test_by_comm_matches_task_filter)
{
	static struct tracestat all, one;
	static const char *const lines[] = {
		"rl-dd-72  [000] .....  1.000000: mm_vmscan_reclaim_wait: usec_timeout=10000 usec_delayed=10000 memcg=3 node=0 zone=1 reason=writeback class=write",
		"rl-dd-73  [000] .....  1.500000: mm_vmscan_reclaim_wait: usec_timeout=10000 usec_delayed=2000 memcg=3 node=0 zone=1 reason=writeback class=write",
		"kswapd0-37  [000] .....  2.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=50000 memcg=0 node=0 zone=1 reason=congested class=kswapd",
		"rl-dd-72  [000] .....  3.000000: mm_vmscan_reclaim_wait: usec_timeout=10000 usec_delayed=4000 memcg=3 node=0 zone=1 reason=dirty class=write",
	};
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out;

	tracestat_init(&all);
	tracestat_init(&one);
	tracestat_by_comm(&all);
	CHECK_EQ_INT(tracestat_filter_task(&one, "rl-dd"), 0);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		tracestat_feed_line(&all, lines[i]);
		tracestat_feed_line(&one, lines[i]);
	}
	tracestat_finish(&all);
	tracestat_finish(&one);
	CHECK_EQ_INT(all.ncomms, 2);
	out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	tracestat_print_tsv(out, &all);
	fclose(out);
	CHECK(strstr(buf, "\ncomm.kswapd0.events\t1\n") != NULL);
	CHECK(strstr(buf, "\ncomm.rl-dd.events\t3\n") != NULL);
	CHECK(strstr(buf, "\ncomm.rl-dd.p50_usec\t4000\n") != NULL);
	CHECK(strstr(buf, "\ncomm.rl-dd.full_timeout_share\t0.3333\n") != NULL);
	/* both over the whole trace's span, 2 s: 16 ms stalled */
	CHECK(strstr(buf, "\ncomm.rl-dd.stalled_ms_per_s\t8.000\n") != NULL);
	CHECK_NEAR(one.stalled_ms_per_s, 8.0, 1e-9);
	CHECK_EQ_INT(one.pct_usec[2], 4000);
	free(buf);
	tracestat_free(&all);
	tracestat_free(&one);
}

/*
 * A wait without a timeout (usec_timeout=0: folio_wait_writeback() in
 * reclaim) is not a full timeout: counted apart, left out of the share's
 * denominator, printed, and kept in the percentiles.
 */
TEST(test_no_timeout_is_not_a_full_timeout)
{
	static struct tracestat ts;
	static const char *const lines[] = {
		"rl-dd-72  [000] .....  1.000000: mm_vmscan_reclaim_wait: usec_timeout=0 usec_delayed=0 memcg=3 node=0 zone=1 reason=wait_writeback class=write",
		"rl-dd-72  [000] .....  1.100000: mm_vmscan_reclaim_wait: usec_timeout=0 usec_delayed=35 memcg=3 node=0 zone=1 reason=wait_writeback class=write",
		"rl-dd-72  [000] .....  1.200000: mm_vmscan_reclaim_wait: usec_timeout=10000 usec_delayed=10012 memcg=3 node=0 zone=1 reason=writeback class=write",
		"rl-dd-72  [000] .....  1.300000: mm_vmscan_reclaim_wait: usec_timeout=10000 usec_delayed=4000 memcg=3 node=0 zone=1 reason=writeback class=write",
	};
	char *out;
	size_t i;

	tracestat_init(&ts);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		CHECK_EQ_INT(tracestat_feed_line(&ts, lines[i]), TRACESTAT_WAIT);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 4);
	CHECK_EQ_INT(ts.no_timeout, 2);
	CHECK_EQ_INT(ts.full_timeout, 1);
	/* 1 of the 2 waits that had a timeout, not 3 of 4 */
	CHECK_NEAR(ts.full_timeout_share, 0.5, 1e-12);
	CHECK_EQ_INT(ts.pct_usec[2], 35);
	out = capture(tracestat_print_tsv, &ts);
	CHECK(out != NULL);
	if (out) {
		CHECK(has_line(out, "no_timeout_events\t2"));
		CHECK(has_line(out, "full_timeout_share\t0.5000"));
	}
	free(out);
	out = capture(print_text_file, &ts);
	CHECK(out != NULL);
	if (out) {
		CHECK(has_line(out, "full_timeout_share 0.5000 (1 of 2 waits with a timeout)"));
		CHECK(has_line(out, "no_timeout_events 2 (usec_timeout=0, a folio writeback wait: not in full_timeout_share)"));
	}
	free(out);
	tracestat_free(&ts);

	/* only waits without a timeout: no share to speak of, 0 */
	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_feed_line(&ts, lines[0]), TRACESTAT_WAIT);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.full_timeout, 0);
	CHECK_NEAR(ts.full_timeout_share, 0, 0);
	tracestat_free(&ts);
}

/*
 * By comm, each reason of a task's waits has rows of its own (the writer's
 * reason=dirty waits, the series' reclaim_wait(), apart from 6.12's
 * reason=writeback throttle); rows sorted by reason.
 */
TEST(test_by_comm_by_reason)
{
	static struct tracestat ts;
	static const char *const lines[] = {
		"rl-dd-72  [000] .....  1.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=100000 memcg=3 node=0 zone=1 reason=writeback class=write",
		"rl-dd-72  [000] .....  1.500000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=7000 memcg=3 node=0 zone=1 reason=dirty class=write",
		"rl-dd-72  [000] .....  2.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=100000 memcg=3 node=0 zone=1 reason=dirty class=write",
		"rl-dd-72  [000] .....  2.500000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=2000 memcg=3 node=0 zone=1 reason=dirty class=write",
		"rl-dd-72  [000] .....  2.600000: mm_vmscan_reclaim_wait: usec_timeout=0 usec_delayed=900 memcg=3 node=0 zone=1 reason=wait_writeback class=write",
		"kswapd0-37  [000] .....  3.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=50000 memcg=0 node=0 zone=1 reason=congested class=kswapd",
	};
	char *out;

	feed_by_comm(&ts, lines, sizeof(lines) / sizeof(lines[0]));
	out = capture(tracestat_print_tsv, &ts);
	CHECK(out != NULL);
	if (out) {
		/* all the writer's waits: 2 full of 4 with a timeout */
		CHECK(has_line(out, "comm.rl-dd.events\t5"));
		CHECK(has_line(out, "comm.rl-dd.no_timeout_events\t1"));
		CHECK(has_line(out, "comm.rl-dd.full_timeout_share\t0.5000"));
		/* its reason=dirty waits alone: 1 of 3, p50 7 ms */
		CHECK(has_line(out, "comm.rl-dd.reason.dirty.events\t3"));
		CHECK(has_line(out, "comm.rl-dd.reason.dirty.no_timeout_events\t0"));
		CHECK(has_line(out, "comm.rl-dd.reason.dirty.p50_usec\t7000"));
		CHECK(has_line(out, "comm.rl-dd.reason.dirty.full_timeout_share\t0.3333"));
		/* over the whole trace's span, 2 s: 109 ms */
		CHECK(has_line(out, "comm.rl-dd.reason.dirty.stalled_ms_per_s\t54.500"));
		CHECK(has_line(out, "comm.rl-dd.reason.writeback.full_timeout_share\t1.0000"));
		CHECK(has_line(out, "comm.rl-dd.reason.wait_writeback.events\t1"));
		CHECK(has_line(out, "comm.rl-dd.reason.wait_writeback.no_timeout_events\t1"));
		CHECK(has_line(out, "comm.rl-dd.reason.wait_writeback.full_timeout_share\t0.0000"));
		CHECK(has_line(out, "comm.kswapd0.reason.congested.events\t1"));
		/* a reason the task never waited for has no rows */
		CHECK(!strstr(out, "comm.kswapd0.reason.dirty."));
		CHECK(!strstr(out, "comm.rl-dd.reason.congested."));
		/* by reason: dirty, wait_writeback, writeback */
		CHECK(strstr(out, "comm.rl-dd.reason.dirty.events") <
		      strstr(out, "comm.rl-dd.reason.wait_writeback.events"));
		CHECK(strstr(out, "comm.rl-dd.reason.wait_writeback.events") <
		      strstr(out, "comm.rl-dd.reason.writeback.events"));
	}
	free(out);
	tracestat_free(&ts);
}

/*
 * The waits of each task and reason by duration: equal durations on one
 * row with their count, tasks then reasons by name, durations ascending;
 * a header alone without per-task statistics.
 */
TEST(test_task_waits_by_duration)
{
	static struct tracestat ts;
	static const char *const lines[] = {
		"rl-dd-72  [000] .....  1.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=100000 memcg=3 node=0 zone=1 reason=dirty class=write",
		"rl-dd-72  [000] .....  1.500000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=7000 memcg=3 node=0 zone=1 reason=dirty class=write",
		"rl-dd-73  [000] .....  2.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=100000 memcg=3 node=0 zone=1 reason=dirty class=write",
		"rl-dd-72  [000] .....  2.500000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=2000 memcg=3 node=0 zone=1 reason=writeback class=write",
		"kswapd0-37  [000] .....  3.000000: mm_vmscan_reclaim_wait: usec_timeout=100000 usec_delayed=50000 memcg=0 node=0 zone=1 reason=congested class=kswapd",
	};
	static const char want[] =
		"task\treason\tusec_delayed\twaits\n"
		"kswapd0\tcongested\t50000\t1\n"
		"rl-dd\tdirty\t7000\t1\n"
		"rl-dd\tdirty\t100000\t2\n"
		"rl-dd\twriteback\t2000\t1\n";
	char *out;

	feed_by_comm(&ts, lines, sizeof(lines) / sizeof(lines[0]));
	out = capture(tracestat_print_task_waits, &ts);
	CHECK_STR(out, want);
	free(out);
	tracestat_free(&ts);
	/* without tracestat_by_comm(): no task is kept apart */
	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_feed_line(&ts, lines[0]), TRACESTAT_WAIT);
	tracestat_finish(&ts);
	out = capture(tracestat_print_task_waits, &ts);
	CHECK_STR(out, "task\treason\tusec_delayed\twaits\n");
	free(out);
	tracestat_free(&ts);
}

/* --series: waits per bin over the window, empty bins and late waits too. */
TEST(test_series_bins)
{
	static struct tracestat ts;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_series(&ts, 10.0, 10.5, 0.1), 0);
	CHECK_EQ_INT(tracestat_series(&ts, 10.0, 9.0, 0.1), -1);
	CHECK_EQ_INT(tracestat_series(&ts, 10.0, 11.0, 0), -1);
	tracestat_feed_line(&ts, "a-1 [000] ..... 10.050000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=1000 memcg=0 node=0 zone=1 reason=writeback class=write");
	tracestat_feed_line(&ts, "a-1 [000] ..... 10.060000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=500 memcg=0 node=0 zone=1 reason=writeback class=write");
	tracestat_feed_line(&ts, "a-1 [000] ..... 10.750000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=7 memcg=0 node=0 zone=1 reason=writeback class=write");
	/* before the window: counted in the first bin */
	tracestat_feed_line(&ts, "a-1 [000] ..... 9.000000: mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=3 memcg=0 node=0 zone=1 reason=writeback class=write");
	tracestat_finish(&ts);
	out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	tracestat_print_series(out, &ts);
	fclose(out);
	CHECK_STR(buf, "start_s\tevents\tusec\n"
		       "0.000\t3\t1503\n"
		       "0.100\t0\t0\n"
		       "0.200\t0\t0\n"
		       "0.300\t0\t0\n"
		       "0.400\t0\t0\n"
		       "0.500\t0\t0\n"
		       "0.600\t0\t0\n"
		       "0.700\t1\t7\n");
	free(buf);
	tracestat_free(&ts);
}

#define WAIT_TS(ts) \
	"a-1 [000] ..... " ts ": mm_vmscan_reclaim_wait: usec_timeout=1000 usec_delayed=10 memcg=0 node=0 zone=1 reason=writeback class=write"
#define END_TS(ts) \
	"k-2 [000] ..... " ts ": writeback_end_batch: bdi 98:0: ino=1 unit=bio folios=2 bytes=8192 reclaim=0 gap_us=5"

/* Lines of text in buf */
static size_t lines_of(const char *buf)
{
	size_t n = 0;

	for (; buf && *buf; buf++)
		n += *buf == '\n';
	return n;
}

/*
 * Windows and timestamps a guest chose: not finite, negative, or so far
 * out that a bin index would not fit a size_t (a UBSan error before).
 * The series stay within TRACESTAT_SERIES_MAX_S, the waits are counted.
 */
TEST(test_series_out_of_range)
{
	static struct tracestat ts;
	size_t max_bins = (size_t)(TRACESTAT_SERIES_MAX_S / 0.1) + 1;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	tracestat_init(&ts);
	CHECK_EQ_INT(tracestat_series(&ts, NAN, 1, 0.1), -1);
	CHECK_EQ_INT(tracestat_series(&ts, 0, INFINITY, 0.1), -1);
	CHECK_EQ_INT(tracestat_series(&ts, -1, 1, 0.1), -1);
	CHECK_EQ_INT(tracestat_series(&ts, 0, 1, NAN), -1);
	CHECK_EQ_INT(tracestat_series(&ts, 0, 1, 1e-9), -1);	/* 10^13 bins */
	CHECK_EQ_INT(ts.want_series, 0);
	/* "0 1000000": cut to the max, marked */
	CHECK_EQ_INT(tracestat_series(&ts, 0, 1e6, 0.1), 1);
	CHECK_EQ_INT(ts.series_cut, 1);
	CHECK_NEAR(ts.series_end, TRACESTAT_SERIES_MAX_S, 0);
	CHECK_EQ_INT(ts.completions.series_cut, 1);
	CHECK_NEAR(ts.completions.series_end, COMPLETION_SERIES_MAX_S, 0);
	CHECK_EQ_INT(tracestat_feed_line(&ts, WAIT_TS("1.000000")), TRACESTAT_WAIT);
	/* 2*10^8 bins asked for (3.1 GB): not binned, still a wait */
	CHECK_EQ_INT(tracestat_feed_line(&ts, WAIT_TS("20000000.000000")), TRACESTAT_WAIT);
	CHECK_EQ_INT(tracestat_feed_line(&ts, WAIT_TS("999999999.999999")), TRACESTAT_WAIT);
	/* past 1e9 s of uptime, or too many digits for a double's %f: damage */
	CHECK_EQ_INT(tracestat_feed_line(&ts, WAIT_TS("200000000000.000000")), TRACESTAT_MALFORMED);
	CHECK_EQ_INT(tracestat_feed_line(&ts, WAIT_TS("99999999999999999999999999999.0")),
		     TRACESTAT_MALFORMED);
	CHECK_EQ_INT(tracestat_feed_line(&ts, END_TS("1.500000")), TRACESTAT_COMPLETION);
	CHECK_EQ_INT(tracestat_feed_line(&ts, END_TS("20000000.000000")), TRACESTAT_COMPLETION);
	tracestat_finish(&ts);
	CHECK_EQ_INT(ts.events, 3);
	CHECK_EQ_INT(ts.malformed, 2);
	CHECK_EQ_INT(ts.series_dropped, 2);
	CHECK(ts.nbins <= max_bins + 64);
	CHECK(ts.completions.nbins <= COMPLETION_SERIES_MAX_S / COMPLETION_SERIES_BIN_S + 256);
	out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	tracestat_print_series(out, &ts);
	fclose(out);
	CHECK_EQ_INT(lines_of(buf), max_bins - 1 + 1);	/* the header, 72000 bins */
	CHECK(strstr(buf, "\n1.000\t1\t10\n") != NULL);
	free(buf);
	/* an end set past the max by hand: printing still stops at it */
	ts.series_end = 1e300;
	buf = NULL;
	out = open_memstream(&buf, &len);
	tracestat_print_series(out, &ts);
	fclose(out);
	CHECK(lines_of(buf) <= max_bins + 1);
	free(buf);
	ts.completions.series_end = 1e300;
	buf = NULL;
	out = open_memstream(&buf, &len);
	completion_print_series(out, &ts.completions);
	fclose(out);
	CHECK(lines_of(buf) <= COMPLETION_SERIES_MAX_S / COMPLETION_SERIES_BIN_S + 2);
	CHECK(strstr(buf, "\n1.50\t2\n") != NULL);
	free(buf);
	tracestat_free(&ts);
}
