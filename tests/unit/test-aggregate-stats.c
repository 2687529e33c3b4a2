// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/aggregate/aggregate-stats.c: medians, groups, pairs,
 * bootstrap and Wilson intervals, the output (the fixtures
 * are described in test-aggregate.h).
 */
#include "test-aggregate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */

TEST(test_median)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double same[] = { 2, 2, 2, 2 };

	CHECK_NEAR(agg_median(odd, 3), 3, 1e-12);
	CHECK_NEAR(odd[0], 1, 0);		/* sorted in place */
	CHECK_NEAR(agg_median(even, 4), 2.5, 1e-12);
	CHECK_NEAR(agg_median(one, 1), 7, 0);
	CHECK_NEAR(agg_median(same, 4), 2, 0);
	CHECK(isnan(agg_median(one, 0)));
}

TEST(test_groups_statistics)
{
	struct agg_set s;
	struct agg_group *g;
	const struct agg_group *x;
	size_t n, i;

	CHECK_EQ_INT(load(&s, "fs-completion.tsv"), 0);
	CHECK_EQ_INT(s.malformed, 0);
	CHECK_EQ_INT(s.text, 14);		/* the knob rows */
	n = agg_groups(&s, &g);
	/* 3 fs x 2 modes x 4 metrics; the failed btrfs run is left out */
	CHECK_EQ_INT(n, 24);
	x = group(g, n, "ext4", "patched", FTS);
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ_INT(x->n, 3);
		CHECK_NEAR(x->median, 0.2, 1e-12);
		CHECK_NEAR(x->min, 0.1, 1e-12);
		CHECK_NEAR(x->max, 0.3, 1e-12);
		CHECK_NEAR(x->spread, 0.2, 1e-12);
		CHECK_STR(x->dim[AGG_SCENARIO], "fs-completion");
		CHECK_STR(x->dim[AGG_PROFILE], "hdd");
	}
	x = group(g, n, "vfat", "vanilla", FTS);
	CHECK(x && x->n == 1 && x->spread == 0 && x->median == 0.5);
	CHECK(group(g, n, "btrfs", "vanilla", FTS) == NULL);
	/* sorted by fs, mode, metric */
	for (i = 1; i < n; i++) {
		int c = strcmp(g[i - 1].dim[AGG_FS], g[i].dim[AGG_FS]);

		if (!c)
			c = strcmp(g[i - 1].dim[AGG_MODE], g[i].dim[AGG_MODE]);
		if (!c)
			c = strcmp(g[i - 1].metric, g[i].metric);
		CHECK(c < 0);
	}
	CHECK_STR(g[0].dim[AGG_FS], "ext4");
	CHECK_STR(g[0].dim[AGG_MODE], "patched");
	free(g);
	agg_free(&s);
}

TEST(test_significance)
{
	struct agg_group a = { .n = 3, .median = 10, .spread = 2 };
	struct agg_group b = { .n = 3, .median = 7, .spread = 1 };
	double d;

	CHECK_EQ_INT(agg_significance(&a, &b, &d), AGG_SIGNIFICANT);
	CHECK_NEAR(d, 3, 1e-12);
	b.spread = 4;		/* difference inside b's spread */
	CHECK_EQ_INT(agg_significance(&a, &b, &d), AGG_NOT_SIGNIFICANT);
	CHECK_EQ_INT(agg_significance(&b, &a, &d), AGG_NOT_SIGNIFICANT);
	CHECK_NEAR(d, -3, 1e-12);
	b.spread = 3;		/* equal to the spread: not smaller */
	CHECK_EQ_INT(agg_significance(&a, &b, NULL), AGG_SIGNIFICANT);
	b.median = 10;		/* no difference at all */
	b.spread = 0;
	a.spread = 0;
	CHECK_EQ_INT(agg_significance(&a, &b, &d), AGG_NOT_SIGNIFICANT);
	a.n = b.n = 1;		/* nothing known of the spread */
	b.median = 1;
	CHECK_EQ_INT(agg_significance(&a, &b, &d), AGG_SINGLE_RUN);
	b.n = 2;		/* one side has repeats: judged */
	CHECK_EQ_INT(agg_significance(&a, &b, &d), AGG_SIGNIFICANT);
	CHECK_STR(agg_sig_name(AGG_SIGNIFICANT), "significant");
	CHECK_STR(agg_sig_name(AGG_NOT_SIGNIFICANT), "n.s.");
	CHECK_STR(agg_sig_name(AGG_SINGLE_RUN), "single run");
}

TEST(test_pairs_by_mode)
{
	struct agg_set s;
	struct agg_group *g;
	struct agg_pair *p;
	size_t ng, np, i, seen = 0;

	CHECK_EQ_INT(load(&s, "fs-completion.tsv"), 0);
	ng = agg_groups(&s, &g);
	np = agg_pairs(g, ng, AGG_MODE, "patched", "vanilla", &p);
	CHECK_EQ_INT(np, 12);		/* 3 fs x 4 metrics */
	for (i = 0; i < np; i++) {
		CHECK_STR(p[i].a->dim[AGG_MODE], "patched");
		CHECK_STR(p[i].b->dim[AGG_MODE], "vanilla");
		CHECK(p[i].a->dim[AGG_FS] == p[i].b->dim[AGG_FS]);
		CHECK(p[i].a->metric == p[i].b->metric);
		if (strcmp(p[i].a->metric, FTS))
			continue;
		seen++;
		if (!strcmp(p[i].a->dim[AGG_FS], "ext4")) {
			CHECK_NEAR(p[i].diff, -0.05, 1e-12);
			CHECK_EQ_INT(p[i].sig, AGG_NOT_SIGNIFICANT);
		} else if (!strcmp(p[i].a->dim[AGG_FS], "xfs")) {
			CHECK_NEAR(p[i].diff, 0.24, 1e-12);
			CHECK_EQ_INT(p[i].sig, AGG_SIGNIFICANT);
		} else {
			CHECK_EQ_INT(p[i].sig, AGG_SINGLE_RUN);
		}
	}
	CHECK_EQ_INT(seen, 3);
	free(p);
	/* by fs: xfs vs ext4 of the same mode */
	np = agg_pairs(g, ng, AGG_FS, "xfs", "ext4", &p);
	CHECK_EQ_INT(np, 8);
	free(p);
	/* a value nobody has: no pairs */
	np = agg_pairs(g, ng, AGG_MODE, "patched", "noplug", &p);
	CHECK_EQ_INT(np, 0);
	free(p);
	free(g);
	agg_free(&s);
}

TEST(test_format_and_print)
{
	char buf[32], *out = NULL;
	size_t len = 0;
	struct agg_set s;
	struct agg_group *g;
	struct agg_check c;
	struct agg_verdict *v;
	size_t n;
	FILE *f;

	agg_format(buf, sizeof(buf), 134217728);
	CHECK_STR(buf, "134217728");
	agg_format(buf, sizeof(buf), 0.2667);
	CHECK_STR(buf, "0.2667");
	agg_format(buf, sizeof(buf), 733.085);
	CHECK_STR(buf, "733.085");
	agg_format(buf, sizeof(buf), 123456.78);
	CHECK_STR(buf, "123456.8");
	agg_format(buf, sizeof(buf), -0.0);
	CHECK_STR(buf, "0");
	agg_format(buf, sizeof(buf), NAN);
	CHECK_STR(buf, "-");

	CHECK_EQ_INT(load(&s, "memcg-dd.tsv"), 0);
	f = open_memstream(&out, &len);
	CHECK(f != NULL);
	if (!f) {
		agg_free(&s);
		return;
	}
	n = agg_groups(&s, &g);
	CHECK_EQ_INT(n, 8);
	agg_print_groups(f, g, 1);
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=vanilla > 0", &c, &v);
	CHECK_EQ_INT(n, 2);
	agg_print_verdicts(f, "memcg-dd", &c, v, 1);
	fclose(f);
	CHECK_STR(out,
		  "scenario\tfs\tprofile\tmode\tkernel\tmetric\tn\tmedian\tmin\tmax\tspread\n"
		  "memcg-dd\text4\thdd\tpatched\t-\ttool.v1-writer1.mbps\t2\t41.5\t41\t42\t1\n"
		  "memcg-dd\tworkload.oom_kills mode=vanilla > 0\tfs=ext4\tnot enough runs\t1.5\t2\t1\t>\t0\t-\t-\tOOM kill in 2 of 2 seeds (95% CI 0.34-1.00); a verdict needs 3 runs a side (--repeat 3)\n");
	free(out);
	free(v);
	free(g);
	agg_free(&s);
}

/* The interval: fixed seed, so the same values give the same bounds. */
TEST(test_bootstrap_interval)
{
	const double a[] = { 10, 11, 12, 13, 14 }, b[] = { 1, 2, 3 }, z[] = { 0, 0, 0 };
	const double zero = 0;
	double lo, hi, lo2, hi2;

	CHECK_EQ_INT(agg_bootstrap_diff(a, 5, b, 3, &lo, &hi), 0);
	CHECK(lo > 0 && lo <= hi);
	CHECK(lo >= 10 - 3 && hi <= 14 - 1);	/* inside the extremes */
	CHECK_EQ_INT(agg_bootstrap_diff(a, 5, b, 3, &lo2, &hi2), 0);
	CHECK(lo == lo2 && hi == hi2);
	CHECK_EQ_INT(agg_bootstrap_diff(z, 3, &zero, 1, &lo, &hi), 0);
	CHECK(lo == 0 && hi == 0);
	CHECK_EQ_INT(agg_interval_verdict(AGG_GT, 1, 3), AGG_REPRODUCED);
	CHECK_EQ_INT(agg_interval_verdict(AGG_GT, -1, 3), AGG_INCONCLUSIVE);
	CHECK_EQ_INT(agg_interval_verdict(AGG_GT, -3, 0), AGG_NOT_REPRODUCED);
	CHECK_EQ_INT(agg_interval_verdict(AGG_LT, -3, -1), AGG_REPRODUCED);
	CHECK_EQ_INT(agg_interval_verdict(AGG_LE, 0, 0), AGG_REPRODUCED);
	CHECK_EQ_INT(agg_interval_verdict(AGG_EQ, 0, 0), AGG_REPRODUCED);
	CHECK_EQ_INT(agg_interval_verdict(AGG_EQ, 0, 1), AGG_INCONCLUSIVE);
	CHECK_EQ_INT(agg_interval_verdict(AGG_EQ, 1, 2), AGG_NOT_REPRODUCED);
	CHECK_EQ_INT(agg_interval_verdict(AGG_NE, 1, 2), AGG_REPRODUCED);
}

/*
 * Wilson score 95% intervals against Newcombe (1998), "Two-sided
 * confidence intervals for the single proportion", Stat Med 17:857,
 * table I, method 3 (score, no continuity correction): 81/263, 15/148,
 * 0/20, 1/29; and 4 of 10 seeds, 0.1682-0.6873.
 */
TEST(test_wilson_interval)
{
	static const struct { size_t k, n; double lo, hi; } known[] = {
		{ 81, 263, 0.2553, 0.3662 }, { 15, 148, 0.0624, 0.1605 },
		{ 0, 20, 0, 0.1611 }, { 1, 29, 0.0061, 0.1718 },
		{ 4, 10, 0.1682, 0.6873 }, { 10, 10, 0.7225, 1 },
		{ 3, 3, 0.4385, 1 }, { 0, 4, 0, 0.4899 },
	};
	double lo, hi, lo2, hi2;
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		CHECK_EQ_INT(agg_wilson(known[i].k, known[i].n, &lo, &hi), 0);
		CHECK_NEAR(lo, known[i].lo, 5e-5);
		CHECK_NEAR(hi, known[i].hi, 5e-5);
	}
	/* the ends exactly, and k of n mirrors n - k of n */
	CHECK_EQ_INT(agg_wilson(0, 7, &lo, &hi), 0);
	CHECK(lo == 0 && hi < 1);
	CHECK_EQ_INT(agg_wilson(7, 7, &lo, &hi), 0);
	CHECK(hi == 1 && lo > 0);
	CHECK_EQ_INT(agg_wilson(3, 11, &lo, &hi), 0);
	CHECK_EQ_INT(agg_wilson(8, 11, &lo2, &hi2), 0);
	CHECK_NEAR(lo, 1 - hi2, 1e-12);
	CHECK_NEAR(hi, 1 - lo2, 1e-12);
	CHECK_EQ_INT(agg_wilson(0, 0, &lo, &hi), -1);
	CHECK_EQ_INT(agg_wilson(3, 2, &lo, &hi), -1);
	/* most seeds, at 95%: above 1/2, below it, or holding it */
	CHECK_EQ_INT(agg_share_verdict(0.51, 1), AGG_REPRODUCED);
	CHECK_EQ_INT(agg_share_verdict(0, 0.49), AGG_NOT_REPRODUCED);
	CHECK_EQ_INT(agg_share_verdict(0.44, 1), AGG_INCONCLUSIVE);
	CHECK_EQ_INT(agg_share_verdict(0.17, 0.69), AGG_INCONCLUSIVE);
}
