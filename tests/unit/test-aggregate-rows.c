// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/aggregate/aggregate-rows.c: reading and joining rows,
 * the missing-task-events rule (the fixtures
 * are described in test-aggregate.h).
 */
#include "test-aggregate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

TEST(test_feed_line_kinds)
{
	struct agg_set s;

	agg_init(&s);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\tm\t1.5\n"),
		     AGG_ROW);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\trun.status\tok"),
		     AGG_TEXT);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\tknob.x\tabsent"),
		     AGG_TEXT);
	CHECK_EQ_INT(agg_feed_line(&s, "# comment"), AGG_IGNORED);
	CHECK_EQ_INT(agg_feed_line(&s, "\n"), AGG_IGNORED);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4"), AGG_MALFORMED);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t-1\tm\t1"),
		     AGG_MALFORMED);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\tm\t"),
		     AGG_MALFORMED);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\tm\t1\t"),
		     AGG_MALFORMED);
	CHECK_EQ_INT(s.malformed, 4);
	CHECK_EQ_INT(s.text, 1);		/* run.status is not counted */
	CHECK_EQ_INT(s.nrows, 1);
	CHECK_EQ_INT(s.nruns, 1);
	CHECK_STR(s.runs[0].status, "ok");
	CHECK_EQ_INT(s.runs[0].repeat, 1);
	CHECK_STR(s.first_error, "not 9 tab-separated fields");
	CHECK_EQ_INT(s.first_error_line, 6);
	agg_free(&s);
}

TEST(test_malformed_fixture)
{
	struct agg_set s;
	struct agg_group *g;
	const struct agg_group *a;
	size_t n;

	CHECK_EQ_INT(load(&s, "malformed.tsv"), 0);
	CHECK_EQ_INT(s.lines, 17);
	CHECK_EQ_INT(s.malformed, 7);
	CHECK_EQ_INT(s.text, 4);
	CHECK_EQ_INT(s.duplicates, 1);
	CHECK_STR(s.first_error, "not 9 tab-separated fields");
	CHECK_EQ_INT(s.first_error_line, 5);
	CHECK_EQ_INT(s.nruns, 2);
	n = agg_groups(&s, &g);
	CHECK_EQ_INT(n, 2);			/* a and b */
	a = group(g, n, "ext4", "vanilla", "a");
	CHECK(a != NULL);
	if (a) {
		/* r1's later a=3 replaced a=1; r2 has a=5 */
		CHECK_EQ_INT(a->n, 2);
		CHECK_NEAR(a->median, 4, 1e-12);
		CHECK_NEAR(a->min, 3, 0);
		CHECK_NEAR(a->max, 5, 0);
	}
	a = group(g, n, "ext4", "vanilla", "b");
	CHECK(a && a->n == 1 && a->median == 2);	/* the CRLF row */
	free(g);
	agg_free(&s);
}

TEST(test_long_line_is_malformed)
{
	struct agg_set s;
	char *line = malloc(AGG_LINE_MAX + 100);
	FILE *f;

	agg_init(&s);
	CHECK(line != NULL);
	if (!line)
		return;
	memset(line, 'x', AGG_LINE_MAX + 98);
	memcpy(line, "r\ts\tf\tp\tm\t-\t1\tmetric\t", 21);
	line[AGG_LINE_MAX + 98] = '\n';
	line[AGG_LINE_MAX + 99] = '\0';
	CHECK_EQ_INT(agg_feed_line(&s, line), AGG_MALFORMED);
	f = fmemopen(line, strlen(line), "r");
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ_INT(agg_feed_stream(&s, f), 0);
		fclose(f);
	}
	CHECK_EQ_INT(s.malformed, 2);
	CHECK_STR(s.first_error, "line too long");
	CHECK_EQ_INT(s.nrows, 0);
	free(line);
	agg_free(&s);
}

TEST(test_excluded_runs)
{
	struct agg_set s;
	const struct agg_run **runs;
	size_t n;

	CHECK_EQ_INT(load(&s, "fs-completion.tsv"), 0);
	n = agg_excluded(&s, &runs);
	CHECK_EQ_INT(n, 1);
	if (n == 1) {
		CHECK_STR(runs[0]->name, "fs-completion.btrfs.vanilla.r1");
		CHECK_STR(runs[0]->status, "failed");
	}
	free(runs);
	n = agg_included(&s, &runs);
	CHECK_EQ_INT(n, 14);
	if (n == 14) {	/* in name order */
		CHECK_STR(runs[0]->name, "fs-completion.ext4.patched.r1");
		CHECK_STR(runs[13]->name, "fs-completion.xfs.vanilla.r3");
	}
	free(runs);
	agg_free(&s);
}

TEST(test_missing_task_events_rule)
{
	struct agg_set s;
	struct agg_check c;
	struct agg_verdict *v;
	const struct agg_verdict *x;
	struct agg_group *g;
	const struct agg_group *gr;
	size_t n;

	CHECK_EQ_INT(load(&s, "usb-responsiveness.tsv"), 0);
	n = eval(&s, "usb-responsiveness", "waits.task.rl-reader.events == 0",
		 &c, &v);
	CHECK_EQ_INT(n, 3);
	/* no reader row but a trace: the reader had 0 waits */
	x = verdict(v, n, "fs=ext4 mode=patched");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.n == 1 &&
	      x->left.median == 0);
	x = verdict(v, n, "fs=ext4 mode=vanilla");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.median == 2);
	/* no trace at all: not measured */
	x = verdict(v, n, "fs=xfs mode=vanilla");
	CHECK(x && x->kind == AGG_NOT_MEASURED);
	free(v);
	/* the rule is for events only */
	n = eval(&s, "usb-responsiveness", "waits.task.rl-reader.p50_usec == 0",
		 &c, &v);
	x = verdict(v, n, "fs=ext4 mode=patched");
	CHECK(x && x->kind == AGG_NOT_MEASURED);
	free(v);
	/* groups: seen task metrics were filled at finish */
	CHECK_EQ_INT(s.filled, 1);
	n = agg_groups(&s, &g);
	gr = group(g, n, "ext4", "patched", "waits.task.rl-reader.events");
	CHECK(gr && gr->n == 1 && gr->median == 0);
	CHECK(group(g, n, "xfs", "vanilla", "waits.task.rl-reader.events") == NULL);
	free(g);
	agg_free(&s);
}

TEST(test_want_metric_fills_unseen_task)
{
	struct agg_set s;
	struct agg_group *g;
	const struct agg_group *gr;
	FILE *f;
	size_t n;

	agg_init(&s);
	CHECK_EQ_INT(agg_want_metric(&s, "waits.task.rl-nobody.events"), 0);
	CHECK_EQ_INT(agg_want_metric(&s, "waits.p50_usec"), 0);	/* no rule */
	f = open_fixture("aggregate/usb-responsiveness.tsv");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(agg_feed_stream(&s, f), 0);
	fclose(f);
	CHECK_EQ_INT(agg_finish(&s), 0);
	CHECK_EQ_INT(s.filled, 3);	/* rl-reader once, rl-nobody twice */
	n = agg_groups(&s, &g);
	gr = group(g, n, "ext4", "vanilla", "waits.task.rl-nobody.events");
	CHECK(gr && gr->n == 1 && gr->median == 0);
	CHECK(group(g, n, "ext4", "vanilla", "waits.p50_usec") == NULL);
	free(g);
	agg_free(&s);
}

TEST(test_only_scenario)
{
	struct agg_set s;
	FILE *f;

	agg_init(&s);
	CHECK_EQ_INT(agg_only_scenario(&s, "memcg-dd"), 0);
	f = open_fixture("aggregate/fs-completion.tsv");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(agg_feed_stream(&s, f), 0);
	fclose(f);
	CHECK_EQ_INT(agg_feed_line(&s, "r\tmemcg-dd\text4\thdd\tpatched\t-\t1\tm\t1"),
		     AGG_ROW);
	CHECK_EQ_INT(agg_finish(&s), 0);
	CHECK_EQ_INT(s.other_scenario, 87);
	CHECK_EQ_INT(s.nruns, 1);
	CHECK_EQ_INT(s.nrows, 1);
	CHECK_EQ_INT(agg_only_scenario(&s, ""), -1);
	agg_free(&s);
}

/*
 * A set of no rows (no run summarized, or text rows only) is finished
 * and grouped without qsort() of a NULL base, which UBSan reports.
 */
TEST(test_empty_set)
{
	struct agg_group *g = NULL;
	struct agg_set s;

	agg_init(&s);
	CHECK_EQ_INT(agg_finish(&s), 0);
	CHECK_EQ_INT(agg_groups(&s, &g), 0);
	free(g);
	agg_free(&s);
	agg_init(&s);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\trun.status\tok"), AGG_TEXT);
	CHECK_EQ_INT(agg_feed_line(&s, "r1\ts\text4\thdd\tvanilla\t-\t1\tinput.refused\ttrace.txt"),
		     AGG_TEXT);
	CHECK_EQ_INT(s.nrows, 0);
	CHECK_EQ_INT(agg_finish(&s), 0);
	CHECK_EQ_INT(agg_groups(&s, &g), 0);
	free(g);
	agg_free(&s);
}
