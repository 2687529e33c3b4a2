// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/summarize/memcg-reclaim.c: the reclaim rounds
 * of a memory cgroup's charges, fed one by one and through rl-tracestat's
 * line reader, with known answers.
 */
#include "check.h"
#include "summarize/memcg-reclaim.h"
#include "summarize/tracestat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUND(task, ts, n) \
	task "     [000] .n...     " ts ": mm_vmscan_memcg_reclaim_end: nr_reclaimed=" n

/* memcg_reclaim_print()'s rows of m (malloc'ed) */
static char *printed(const struct memcg_reclaim_stats *m, int tsv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	memcg_reclaim_print(f, tsv, m);
	fclose(f);
	return buf;
}

TEST(parse_fields)
{
	unsigned long nr = 7;

	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=0", &nr), 0);
	CHECK_EQ_INT(nr, 0);
	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=32", &nr), 0);
	CHECK_EQ_INT(nr, 32);
	/* as a line is read from a trace: its newline still there */
	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=12\n", &nr), 0);
	CHECK_EQ_INT(nr, 12);
	/* a field a later kernel adds, before or after, is skipped */
	CHECK_EQ_INT(memcg_reclaim_parse("memcg=5 nr_reclaimed=3 prio=2", &nr), 0);
	CHECK_EQ_INT(nr, 3);
	/* no number, a sign, a tail, only another key's tail: refused */
	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=", &nr), -1);
	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=-1", &nr), -1);
	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=4x", &nr), -1);
	CHECK_EQ_INT(memcg_reclaim_parse("max_nr_reclaimed=4", &nr), -1);
	CHECK_EQ_INT(memcg_reclaim_parse("nr_reclaimed=99999999999999999999999", &nr), -1);
}

/*
 * Two writers interleaved: pid 110 meets 0 0 5 0 0 0 (runs 2 and 3), pid
 * 111 meets 0 0 0 0 (a run of 4, the longest), pid 112 one 0; 11 rounds,
 * 10 fruitless, 5 pages.  The other task's rounds do not break a task's run.
 */
TEST(runs_are_per_task)
{
	static const char *const lines[] = {
		ROUND("rl-dd-110", "1.000000", "0"), ROUND("rl-dd-111", "1.000100", "0"),
		ROUND("rl-dd-110", "1.000200", "0"), ROUND("rl-dd-111", "1.000300", "0"),
		ROUND("rl-dd-110", "1.000400", "5"), ROUND("rl-dd-111", "1.000500", "0"),
		ROUND("rl-dd-110", "1.000600", "0"), ROUND("rl-dd-111", "1.000700", "0"),
		ROUND("rl-dd-110", "1.000800", "0"), ROUND("rl-dd-110", "1.000900", "0"),
	};
	struct tracestat ts;
	char *buf;
	size_t i;

	tracestat_init(&ts);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		CHECK_EQ_INT(tracestat_feed_line(&ts, lines[i]), TRACESTAT_MEMCG_RECLAIM);
	/* the stream reader hands lines on with their newline */
	CHECK_EQ_INT(tracestat_feed_line(&ts, ROUND("rl-dd-112", "1.001000", "0") "\n"),
		     TRACESTAT_MEMCG_RECLAIM);
	CHECK_EQ_INT(tracestat_feed_line(&ts, ROUND("rl-dd-110", "1.5", "x")),
		     TRACESTAT_MALFORMED);
	tracestat_finish(&ts);
	/* a round is not a reclaim wait */
	CHECK_EQ_INT(ts.events, 0);
	CHECK_EQ_INT(ts.memcg_reclaim.rounds, 11);
	CHECK_EQ_INT(ts.memcg_reclaim.fruitless, 10);
	CHECK_EQ_INT(ts.memcg_reclaim.reclaimed, 5);
	CHECK_EQ_INT(ts.memcg_reclaim.run_max, 4);
	buf = printed(&ts.memcg_reclaim, 1);
	CHECK(buf != NULL);
	CHECK_STR(buf, "memcg_reclaim.rounds\t11\nmemcg_reclaim.fruitless\t10\n"
		  "memcg_reclaim.fruitless_share\t0.9091\n"
		  "memcg_reclaim.reclaimed_pages\t5\nmemcg_reclaim.fruitless_run_max\t4\n");
	free(buf);
	tracestat_free(&ts);
}

/* A run ends at a round that frees something, and the longest is kept. */
TEST(run_max_survives_a_fruitful_round)
{
	struct memcg_reclaim_stats m;
	char *buf;
	int i;

	memcg_reclaim_init(&m);
	for (i = 0; i < 17; i++)
		memcg_reclaim_add(&m, 7, 0);
	memcg_reclaim_add(&m, 7, 1);
	memcg_reclaim_add(&m, 7, 0);
	CHECK_EQ_INT(m.run_max, 17);
	CHECK_EQ_INT(m.tasks[0].run, 1);
	/* no round: no rows */
	memcg_reclaim_init(&m);
	buf = printed(&m, 1);
	CHECK(buf != NULL);
	CHECK_STR(buf, "");
	free(buf);
}

/* Tasks past the table are counted, not followed, and said so. */
TEST(tasks_past_the_table)
{
	struct memcg_reclaim_stats m;
	char *buf;
	int pid;

	memcg_reclaim_init(&m);
	for (pid = 1; pid <= MEMCG_RECLAIM_MAX_TASKS + 2; pid++)
		memcg_reclaim_add(&m, pid, 0);
	CHECK_EQ_INT(m.rounds, MEMCG_RECLAIM_MAX_TASKS + 2);
	CHECK_EQ_INT(m.ntasks, MEMCG_RECLAIM_MAX_TASKS);
	CHECK_EQ_INT(m.untracked, 2);
	CHECK_EQ_INT(m.run_max, 1);
	buf = printed(&m, 0);
	CHECK(buf != NULL);
	CHECK(strstr(buf, "memcg_reclaim.untracked_rounds 2\n") != NULL);
	free(buf);
}
