// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scripts/tools/aggregate/aggregate-checks.c: parsing and evaluating
 * checks, verdicts (the fixtures
 * are described in test-aggregate.h).
 */
#include "test-aggregate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The test matrices name a run's column MODE@KERNEL, as compare.sh names
 * its folders; a row carries the mode and the kernel ("-": none) apart.
 */
static int mode_len(const char *m)
{
	const char *at = strchr(m, '@');

	return at ? (int)(at - m) : (int)strlen(m);
}

static const char *kernel_of(const char *m)
{
	const char *at = strchr(m, '@');

	return at ? at + 1 : "-";
}

TEST(test_parse_check_forms)
{
	struct agg_check c;
	char err[256];

	CHECK_EQ_INT(agg_parse_check("  " FTS " fs=xfs > fs=ext4 \n", &c, err,
				     sizeof(err)), 0);
	CHECK_STR(c.text, FTS " fs=xfs > fs=ext4");
	CHECK_STR(c.left.metric, FTS);
	CHECK_STR(c.left.fs, "xfs");
	CHECK_STR(c.left.mode, "");
	CHECK_EQ_INT(c.op, AGG_GT);
	CHECK(!c.right.is_number);
	CHECK_STR(c.right.metric, FTS);		/* the left metric again */
	CHECK_STR(c.right.fs, "ext4");

	CHECK_EQ_INT(agg_parse_check("workload.oom_kills mode=patched == 0", &c,
				     err, sizeof(err)), 0);
	CHECK_STR(c.left.mode, "patched");
	CHECK_EQ_INT(c.op, AGG_EQ);
	CHECK(c.right.is_number && c.right.number == 0);

	CHECK_EQ_INT(agg_parse_check("a fs=x mode=y <= b mode=z fs=w", &c, err,
				     sizeof(err)), 0);
	CHECK_EQ_INT(c.op, AGG_LE);
	CHECK_STR(c.right.metric, "b");
	CHECK_STR(c.right.mode, "z");
	CHECK_STR(c.right.fs, "w");

	CHECK_EQ_INT(agg_parse_check("a != -2.5e3", &c, err, sizeof(err)), 0);
	CHECK_EQ_INT(c.op, AGG_NE);
	CHECK_NEAR(c.right.number, -2500, 0);
	CHECK_EQ_INT(agg_parse_check("a < b", &c, err, sizeof(err)), 0);
	CHECK_EQ_INT(c.op, AGG_LT);
	CHECK_EQ_INT(agg_parse_check("a >= 1", &c, err, sizeof(err)), 0);
	CHECK_EQ_INT(c.op, AGG_GE);
	/* an interval of no width is a plain comparison of left - right */
#define HOLDS(op, l, r) (agg_interval_verdict(op, (l) - (r), (l) - (r)) == AGG_REPRODUCED)
	CHECK(HOLDS(AGG_GE, 1, 1) && !HOLDS(AGG_GT, 1, 1));
	CHECK(HOLDS(AGG_NE, 1, 2) && !HOLDS(AGG_EQ, 1, 2));
	CHECK(HOLDS(AGG_LE, 1, 2) && !HOLDS(AGG_LT, 2, 2));
#undef HOLDS
}

/* err must mention what is wrong and what is valid. */
#define CHECK_BAD(text, wrong, valid)					\
	do {								\
		char err_[256] = "";					\
		struct agg_check c_;					\
		CHECK_EQ_INT(agg_parse_check(text, &c_, err_,		\
					     sizeof(err_)), -1);	\
		CHECK(strstr(err_, wrong) != NULL);			\
		CHECK(strstr(err_, valid) != NULL);			\
		if (!strstr(err_, wrong) || !strstr(err_, valid))	\
			fprintf(stderr, "  message: %s\n", err_);	\
	} while (0)

TEST(test_parse_check_errors)
{
	CHECK_BAD("", "empty", "valid");
	CHECK_BAD("a fs=ext4", "no operator", "< <= > >= == !=");
	CHECK_BAD("a fs=ext4 0", "expected an operator, got '0'", "== !=");
	CHECK_BAD("a >", "nothing after the operator", "NUMBER");
	CHECK_BAD("a > 1 2", "extra word '2'", "NUMBER alone");
	CHECK_BAD("a > b > c", "second operator", "one operator");
	CHECK_BAD("a dev=ubda > 1", "unknown selector 'dev=ubda'", "fs=X mode=Y");
	CHECK_BAD("a fs= > 1", "bad selector 'fs='", "fs=X mode=Y");
	CHECK_BAD("a fs=x fs=y > 1", "repeats a dimension", "once per side");
	CHECK_BAD("> 1", "not a metric", "METRIC");
	CHECK_BAD("5 > 1", "not a metric", "METRIC");
	CHECK_BAD("a > b c", "expected a selector, got 'c'", "fs=X mode=Y");
	CHECK_BAD("a=>1", "not a metric", "METRIC");
}

/* A scenario file of the fixtures, read by scenario.c, and its checks. */
static size_t fixture_checks(const char *name, struct agg_check **c, char *err,
			     size_t errlen)
{
	static struct scenario scn;
	const char *dir = getenv("RL_FIXTURES");
	char path[4096];

	*c = NULL;
	if (!dir)
		return (size_t)-2;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (scn_load(path, &scn, err, errlen) < 0) {
		fprintf(stderr, "  %s: %s\n", name, err);
		return (size_t)-2;
	}
	return agg_scenario_checks(&scn, c, err, errlen);
}

TEST(test_read_checks_header_only)
{
	struct agg_check *c;
	char err[256] = "";
	size_t n;

	n = fixture_checks("aggregate/checks.scn", &c, err, sizeof(err));
	CHECK_EQ_INT(n, 3);	/* the one after the code is not read */
	if (n == 3) {
		CHECK_STR(c[0].text, FTS " fs=xfs > fs=ext4");
		CHECK_STR(c[1].left.mode, "patched");
		CHECK_STR(c[2].left.metric, "waits.task.rl-reader.events");
	}
	free(c);

	n = fixture_checks("aggregate/bad-check.scn", &c, err, sizeof(err));
	CHECK(n == (size_t)-1);
	CHECK_EQ_INT(errno, EINVAL);
	CHECK(strstr(err, "line 3: expected an operator") != NULL);
	CHECK(c == NULL);
}

/* Every check of the project's scenario files parses. */
TEST(test_project_scenarios_parse)
{
	static const char *const names[] = {
		"fs-completion", "memcg-dd", "usb-responsiveness",
		"kupdate-after-exit", "reclaim-plug", "usemem-swap", "fio-write",
	};
	static const size_t want[] = { 9, 2, 2, 6, 1, 3, 1 };
	struct agg_check *c;
	char path[256], err[256] = "";
	size_t i, n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "../../rootfs/scenarios/%s.scn",
			 names[i]);
		n = fixture_checks(path, &c, err, sizeof(err));
		if (n == (size_t)-1)
			fprintf(stderr, "  %s: %s\n", names[i], err);
		CHECK_EQ_INT(n, want[i]);
		free(c);
	}
}

TEST(test_eval_fs_on_both_sides)
{
	struct agg_set s;
	struct agg_check c;
	struct agg_verdict *v;
	const struct agg_verdict *x;
	size_t n;

	CHECK_EQ_INT(load(&s, "fs-completion.tsv"), 0);
	/* fs named on both sides: once per mode */
	n = eval(&s, "fs-completion", FTS " fs=xfs > fs=ext4", &c, &v);
	CHECK_EQ_INT(n, 2);
	x = verdict(v, n, "mode=patched");
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ_INT(x->kind, AGG_REPRODUCED);
		CHECK_NEAR(x->left.median, 0.85, 1e-12);
		CHECK_EQ_INT(x->left.n, 3);
		CHECK_NEAR(x->left.spread, 0.1, 1e-12);
		CHECK_NEAR(x->right.median, 0.2, 1e-12);
	}
	x = verdict(v, n, "mode=vanilla");
	CHECK(x && x->kind == AGG_REPRODUCED);
	free(v);

	/* the only btrfs run failed: not measured, never a verdict */
	n = eval(&s, "fs-completion", FTS " fs=xfs > fs=btrfs", &c, &v);
	CHECK_EQ_INT(n, 2);
	x = verdict(v, n, "mode=vanilla");
	CHECK(x && x->kind == AGG_NOT_MEASURED && x->right.n == 0 &&
	      x->left.n == 3);
	free(v);

	/* mode named: once per fs; ext4's patched median is below vanilla's */
	n = eval(&s, "fs-completion", FTS " mode=patched > mode=vanilla", &c, &v);
	CHECK_EQ_INT(n, 4);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_INCONCLUSIVE);
	x = verdict(v, n, "fs=xfs");
	CHECK(x && x->kind == AGG_REPRODUCED);
	/* btrfs ran, and failed: listed, not measured */
	x = verdict(v, n, "fs=btrfs");
	CHECK(x && x->kind == AGG_NOT_MEASURED);
	if (x)
		CHECK(x->left.n == 0 && x->right.n == 0);
	free(v);

	/* nothing named: every fs x mode that ran (no btrfs patched) */
	n = eval(&s, "fs-completion", FTS " < 0.5", &c, &v);
	CHECK_EQ_INT(n, 7);
	CHECK(verdict(v, n, "fs=btrfs mode=patched") == NULL);
	x = verdict(v, n, "fs=btrfs mode=vanilla");
	CHECK(x && x->kind == AGG_NOT_MEASURED);
	x = verdict(v, n, "fs=vfat mode=patched");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.n == 1);
	x = verdict(v, n, "fs=vfat mode=vanilla");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS);
	free(v);

	/* everything named: once; another metric on the right */
	n = eval(&s, "fs-completion",
		 "waits.p50_usec fs=xfs mode=patched > " FTS " fs=ext4 mode=vanilla",
		 &c, &v);
	CHECK_EQ_INT(n, 1);
	x = verdict(v, n, "all");
	CHECK(x && x->kind == AGG_REPRODUCED);
	if (x) {
		CHECK_NEAR(x->left.median, 2000, 0);
		CHECK_NEAR(x->right.median, 0.25, 1e-12);
	}
	free(v);
	agg_free(&s);
}

TEST(test_eval_number_per_fs)
{
	struct agg_set s;
	struct agg_check c;
	struct agg_verdict *v;
	const struct agg_verdict *x;
	size_t n;

	CHECK_EQ_INT(load(&s, "memcg-dd.tsv"), 0);
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=patched == 0", &c, &v);
	CHECK_EQ_INT(n, 2);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.n == 2);
	x = verdict(v, n, "fs=xfs");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.median == 1);
	free(v);
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=vanilla > 0", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.median == 1.5);
	x = verdict(v, n, "fs=xfs");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS);
	free(v);
	/* a metric no run has */
	n = eval(&s, "memcg-dd", "workload.nothing > 0", &c, &v);
	CHECK_EQ_INT(n, 4);
	CHECK(n && v[0].kind == AGG_NOT_MEASURED);
	free(v);
	/* a scenario with no run */
	n = eval(&s, "fs-completion", "workload.oom_kills == 0", &c, &v);
	CHECK_EQ_INT(n, 1);
	CHECK(n == 1 && v[0].kind == AGG_NOT_MEASURED &&
	      !strcmp(v[0].where, "no runs"));
	free(v);
	agg_free(&s);
}

/*
 * A matrix of kernels (compare.sh --kernel): modes MODE@KERNEL.  A check
 * that names a mode is evaluated on each kernel (mode=vanilla is
 * vanilla@6.1 in the cell kernel=6.1); one that names none, per mode.
 */
TEST(test_eval_per_kernel)
{
	static const char *const modes[] = { "patched@6.12", "vanilla@6.12", "vanilla@6.1" };
	static const char *const kills[] = { "0", "0", "2" };
	const struct agg_verdict *x;
	struct agg_verdict *v;
	struct agg_check c;
	struct agg_set s;
	char line[256];
	size_t i, r, n;

	agg_init(&s);
	for (i = 0; i < 3; i++)
		for (r = 1; r <= 4; r++) {
			snprintf(line, sizeof(line), "m.ext4.%s.r%zu\tmemcg-dd\text4\thdd\t%.*s\t%s\t%zu\tworkload.oom_kills\t%s",
				 modes[i], r, mode_len(modes[i]), modes[i], kernel_of(modes[i]), r, kills[i]);
			CHECK_EQ_INT(agg_feed_line(&s, line), AGG_ROW);
		}
	CHECK_EQ_INT(agg_finish(&s), 0);
	/* a count outcome: OOM-killed in 4 of 4 seeds (0.51-1), 0 of 4 */
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=vanilla > 0", &c, &v);
	CHECK_EQ_INT(n, 2);
	x = verdict(v, n, "fs=ext4 kernel=6.1");
	CHECK(x && x->kind == AGG_REPRODUCED && x->left.n == 4 && x->left.median == 2);
	x = verdict(v, n, "fs=ext4 kernel=6.12");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED && x->left.n == 4);
	free(v);
	/* 6.1 has no patched runs: not measured there, measured on 6.12 */
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=patched < mode=vanilla", &c, &v);
	x = verdict(v, n, "fs=ext4 kernel=6.1");
	CHECK(x && x->kind == AGG_NOT_MEASURED && x->right.n == 4);
	x = verdict(v, n, "fs=ext4 kernel=6.12");
	CHECK(x && x->left.n == 4 && x->right.n == 4);
	free(v);
	/* no mode named: one cell per mode, the kernel in its name */
	n = eval(&s, "memcg-dd", "workload.oom_kills == 0", &c, &v);
	CHECK_EQ_INT(n, 3);
	x = verdict(v, n, "fs=ext4 mode=vanilla@6.1");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED);
	x = verdict(v, n, "fs=ext4 mode=patched@6.12");
	CHECK(x && x->kind == AGG_REPRODUCED);
	free(v);
	agg_free(&s);
}

/*
 * Native kernels beside lab kernels: a lab verdict that a native kernel
 * decided the other way at the same fs and mode is marked, with the native
 * verdict; one that agrees, another filesystem's, a native kernel's own
 * and an undecided lab verdict are not.
 */
TEST(test_mark_native_disagreement)
{
	/* OOM kills per fs (ext4 xfs btrfs) and kernel; repeats per kernel */
	static const struct {
		const char *mode, *kills[3];
		size_t repeats;
	} k[] = {
		{ "vanilla@6.12", { "1", "0", "1" }, 5 },
		{ "vanilla@host", { "0", "1", "1" }, 5 },
		{ "vanilla@host2", { "1", "1", "1" }, 5 },
		{ "vanilla@6.1", { "0", "0", "0" }, 2 },
	};
	static const char *const fs[] = { "ext4", "xfs", "btrfs" };
	static const char *const native[] = { "host", "host2" };
	const struct agg_verdict *x;
	struct agg_verdict *v;
	struct agg_check c;
	struct agg_set s;
	char line[256];
	size_t i, f, r, n;

	agg_init(&s);
	for (i = 0; i < 4; i++)
		for (f = 0; f < 3; f++)
			for (r = 1; r <= k[i].repeats; r++) {
				snprintf(line, sizeof(line), "m.%s.%s.r%zu\tmemcg-dd\t%s\thdd\t%.*s\t%s\t%zu\tworkload.oom_kills\t%s",
					 fs[f], k[i].mode, r, fs[f], mode_len(k[i].mode), k[i].mode,
					 kernel_of(k[i].mode), r, k[i].kills[f]);
				CHECK_EQ_INT(agg_feed_line(&s, line), AGG_ROW);
			}
	CHECK_EQ_INT(agg_finish(&s), 0);
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=vanilla > 0", &c, &v);
	CHECK_EQ_INT(n, 12);
	CHECK_EQ_INT(agg_mark_native(&c, v, n, native, 2), 2);
	/* ext4: 6.12 kills, host does not */
	x = verdict(v, n, "fs=ext4 kernel=6.12");
	CHECK(x && x->kind == AGG_REPRODUCED && x->native_differs &&
	      x->native_kind == AGG_NOT_REPRODUCED && !strcmp(x->native_kernel, "host"));
	/* xfs: the other way round, judged against xfs' own native verdict */
	x = verdict(v, n, "fs=xfs kernel=6.12");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED && x->native_differs &&
	      x->native_outcome == AGG_REPRODUCED);
	/* btrfs: every kernel kills, nothing to mark */
	x = verdict(v, n, "fs=btrfs kernel=6.12");
	CHECK(x && x->kind == AGG_REPRODUCED && !x->native_differs);
	/* native kernels are not marked, though host and host2 differ on ext4 */
	x = verdict(v, n, "fs=ext4 kernel=host");
	CHECK(x && !x->native_differs);
	x = verdict(v, n, "fs=ext4 kernel=host2");
	CHECK(x && !x->native_differs);
	/* 6.1's two runs decide nothing */
	x = verdict(v, n, "fs=ext4 kernel=6.1");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && !x->native_differs);
	/* no native kernel named: nothing is marked, earlier marks cleared */
	CHECK_EQ_INT(agg_mark_native(&c, v, n, native, 0), 0);
	for (i = 0; i < n; i++)
		CHECK(!v[i].native_differs);
	free(v);
	/* no mode named: one verdict a mode, paired by fs and the mode's name */
	n = eval(&s, "memcg-dd", "workload.oom_kills == 0", &c, &v);
	CHECK_EQ_INT(agg_mark_native(&c, v, n, native, 2), 2);
	x = verdict(v, n, "fs=ext4 mode=vanilla@6.12");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED && x->native_differs &&
	      x->native_kind == AGG_REPRODUCED);
	free(v);
	agg_free(&s);

	/* runs without variation decide by their values */
	{
		struct agg_verdict w[2];

		CHECK_EQ_INT(agg_parse_check("fio.kb_s mode=vanilla > 1000", &c, line, sizeof(line)), 0);
		memset(w, 0, sizeof(w));
		snprintf(w[0].kernel, sizeof(w[0].kernel), "6.12");
		snprintf(w[0].place, sizeof(w[0].place), "fs=xfs");
		w[0].kind = AGG_NO_VARIATION;
		w[0].has_diff = 1;
		w[0].left.median = 2000;
		w[0].right.median = 1000;
		snprintf(w[1].kernel, sizeof(w[1].kernel), "host");
		snprintf(w[1].place, sizeof(w[1].place), "fs=xfs");
		w[1].kind = AGG_NOT_REPRODUCED;
		CHECK_EQ_INT(agg_mark_native(&c, w, 2, native, 1), 1);
		CHECK(w[0].native_differs && w[0].native_outcome == AGG_NOT_REPRODUCED);
		/* the same values on the native side: no disagreement */
		w[1] = w[0];
		snprintf(w[1].kernel, sizeof(w[1].kernel), "host");
		CHECK_EQ_INT(agg_mark_native(&c, w, 2, native, 1), 0);
		/* no variation without values decides nothing */
		w[0].has_diff = 0;
		w[1].kind = AGG_NOT_REPRODUCED;
		CHECK_EQ_INT(agg_mark_native(&c, w, 2, native, 1), 0);
	}
}

/* Three runs a side decide; the note gives the difference and interval. */
TEST(test_verdict_with_interval)
{
	struct agg_set s;
	struct agg_check c;
	struct agg_verdict *v;
	const struct agg_verdict *x;
	char note[160];
	size_t n;

	CHECK_EQ_INT(load(&s, "fs-completion.tsv"), 0);
	n = eval(&s, "fs-completion", FTS " fs=xfs > fs=ext4", &c, &v);
	x = verdict(v, n, "mode=vanilla");
	CHECK(x && x->kind == AGG_REPRODUCED && x->has_interval);
	if (x) {
		CHECK_NEAR(x->diff, 0.61 - 0.25, 1e-12);
		CHECK(x->lo > 0 && x->hi >= x->diff);
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK(!strncmp(note, "difference 0.36 [95% CI ", 24));
	}
	free(v);
	agg_free(&s);
}

/* Feeds "fs repeat metric value" rows of scenario fs-completion, mode patched. */
static void feed_rows(struct agg_set *s, const char *const *rows, size_t n)
{
	char line[512], fs[32], metric[128], value[32];
	int repeat;
	size_t i;

	for (i = 0; i < n; i++) {
		if (sscanf(rows[i], "%31s %d %127s %31s", fs, &repeat, metric, value) != 4) {
			fprintf(stderr, "  bad test row '%s'\n", rows[i]);
			continue;
		}
		snprintf(line, sizeof(line),
			 "fs-completion.%s.patched.r%d\tfs-completion\t%s\thdd\tpatched\t-\t%d\t%s\t%s",
			 fs, repeat, fs, repeat, metric, value);
		CHECK_EQ_INT(agg_feed_line(s, line), AGG_ROW);
	}
}

#define DIRTY "waits.task.rl-dd.reason.dirty."

/*
 * A wait statistic counts in a run only with AGG_MIN_WAITS waits (those
 * with a timeout, for a full-timeout share); a side left with none is
 * "not measured: N waits < minimum M".  An OOM-killed run is dropped from
 * every side but one of workload.oom_kills, and the note says so.
 */
TEST(test_min_waits_and_oom_killed_runs)
{
	static const char *const rows[] = {
		/* xfs: 12 dirty waits a run, share 0.6 */
		"xfs 1 waits.events 40", "xfs 1 " DIRTY "events 12", "xfs 1 " DIRTY "full_timeout_share 0.6",
		"xfs 2 waits.events 40", "xfs 2 " DIRTY "events 12", "xfs 2 " DIRTY "full_timeout_share 0.6",
		"xfs 3 waits.events 40", "xfs 3 " DIRTY "events 12", "xfs 3 " DIRTY "full_timeout_share 0.6",
		/* ext4: waits, none of them the writer's dirty ones */
		"ext4 1 waits.events 100", "ext4 2 waits.events 100", "ext4 3 waits.events 100",
		/* vfat: r1 OOM-killed */
		"vfat 1 workload.oom_kills 1", "vfat 1 waits.events 30", "vfat 1 " DIRTY "events 20",
		"vfat 1 " DIRTY "full_timeout_share 1",
		"vfat 2 workload.oom_kills 0", "vfat 2 waits.events 30", "vfat 2 " DIRTY "events 20",
		"vfat 2 " DIRTY "full_timeout_share 0.3",
		"vfat 3 workload.oom_kills 0", "vfat 3 waits.events 30", "vfat 3 " DIRTY "events 20",
		"vfat 3 " DIRTY "full_timeout_share 0.3",
		/* btrfs: 5 waits; 12; 12 of which 4 without a timeout */
		"btrfs 1 waits.events 30", "btrfs 1 " DIRTY "events 5", "btrfs 1 " DIRTY "p50_usec 3000",
		"btrfs 1 " DIRTY "full_timeout_share 0",
		"btrfs 2 waits.events 30", "btrfs 2 " DIRTY "events 12", "btrfs 2 " DIRTY "p50_usec 3000",
		"btrfs 2 " DIRTY "full_timeout_share 0",
		"btrfs 3 waits.events 30", "btrfs 3 " DIRTY "events 12", "btrfs 3 " DIRTY "p50_usec 3000",
		"btrfs 3 " DIRTY "no_timeout_events 4", "btrfs 3 " DIRTY "full_timeout_share 0",
	};
	struct agg_set s;
	struct agg_check c;
	struct agg_verdict *v;
	const struct agg_verdict *x;
	char note[320];
	size_t n;

	agg_init(&s);
	feed_rows(&s, rows, sizeof(rows) / sizeof(rows[0]));
	CHECK_EQ_INT(agg_finish(&s), 0);

	/* three runs counted, but all alike: nothing varied to judge by */
	n = eval(&s, "fs-completion", DIRTY "full_timeout_share fs=xfs >= 0.5", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->kind == AGG_NO_VARIATION && x->left.n == 3 &&
	      !x->left.dropped_few && !x->left.dropped_oom);
	free(v);

	/* no dirty wait at all (the missing rule: 0 of them) */
	n = eval(&s, "fs-completion", DIRTY "full_timeout_share fs=ext4 <= 0.1", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->kind == AGG_NOT_MEASURED && x->left.dropped_few == 3);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "left side not measured: 0 waits < minimum 10");
	}
	free(v);

	n = eval(&s, "fs-completion", DIRTY "full_timeout_share fs=xfs > fs=ext4", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->kind == AGG_NOT_MEASURED);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "right side not measured: 0 waits < minimum 10");
	}
	free(v);

	/* the OOM-killed run is left out: 2 runs, and the note counts it */
	n = eval(&s, "fs-completion", DIRTY "full_timeout_share fs=vfat > 0.1", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.n == 2 &&
	      x->left.dropped_oom == 1 && x->left.median == 0.3);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "a verdict needs 3 runs a side (--repeat 3); 1 OOM-killed run dropped");
	}
	free(v);
	n = eval(&s, "fs-completion", DIRTY "full_timeout_share fs=xfs > fs=vfat", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->right.dropped_oom == 1);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "a verdict needs 3 runs a side (--repeat 3); right side: 1 OOM-killed run dropped");
	}
	free(v);
	/* ... but not from a check of the OOM kills themselves */
	n = eval(&s, "fs-completion", "workload.oom_kills fs=vfat > 0", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->left.n == 3 && !x->left.dropped_oom);
	free(v);

	/* a share counts the waits with a timeout: 12 - 4 < 10 */
	n = eval(&s, "fs-completion", DIRTY "full_timeout_share fs=btrfs <= 0.1", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->kind == AGG_NOT_ENOUGH_RUNS && x->left.n == 1 &&
	      x->left.dropped_few == 2);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "a verdict needs 3 runs a side (--repeat 3); 2 runs dropped: 5 to 8 waits < minimum 10");
	}
	free(v);
	/* a percentile all of them */
	n = eval(&s, "fs-completion", DIRTY "p50_usec fs=btrfs >= 2000", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->left.n == 2 && x->left.dropped_few == 1);
	free(v);
	/*
	 * a count is no statistic of a distribution: no minimum; it is a
	 * count outcome, 3 of 3 seeds, whose interval (0.44-1) holds 1/2
	 */
	n = eval(&s, "fs-completion", DIRTY "events fs=ext4 == 0", &c, &v);
	x = verdict(v, n, "mode=patched");
	CHECK(x && x->kind == AGG_INCONCLUSIVE && x->left.n == 3 && x->is_count &&
	      x->hits == 3);
	free(v);
	/* the same rules for one run, as the report's picture counts runs */
	{
		static const struct {
			const char *run, *stat;
			enum agg_counted want;
			double waits;
		} runs[] = {
			{ "fs-completion.xfs.patched.r1", "full_timeout_share", AGG_COUNTED, 12 },
			{ "fs-completion.vfat.patched.r1", "full_timeout_share", AGG_LEFT_OOM, -1 },
			{ "fs-completion.vfat.patched.r1", "events", AGG_LEFT_OOM, -1 },
			{ "fs-completion.ext4.patched.r1", "full_timeout_share", AGG_LEFT_FEW, 0 },
			{ "fs-completion.btrfs.patched.r3", "full_timeout_share", AGG_LEFT_FEW, 8 },
			{ "fs-completion.btrfs.patched.r3", "p50_usec", AGG_COUNTED, 12 },
			/* a count is no statistic: no minimum */
			{ "fs-completion.btrfs.patched.r1", "events", AGG_COUNTED, -1 },
		};
		const struct agg_run **inc;
		char metric[128];
		size_t i, k, ninc = agg_included(&s, &inc);

		for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
			double waits = -1;

			for (k = 0; k < ninc && strcmp(inc[k]->name, runs[i].run); k++)
				;
			CHECK(k < ninc);
			if (k == ninc)
				continue;
			snprintf(metric, sizeof(metric), DIRTY "%s", runs[i].stat);
			if (agg_run_counted(&s, inc[k], metric, &waits) != runs[i].want ||
			    (runs[i].waits >= 0 && waits != runs[i].waits)) {
				fprintf(stderr, "  %s %s: got %g waits\n", runs[i].run, metric, waits);
				CHECK(0);
			}
		}
		free(inc);
	}
	agg_free(&s);
}

/* Feeds metric's values of scenario scn, fs ext4, mode, repeats 1..n. */
static void feed_values(struct agg_set *s, const char *scn, const char *mode,
			const char *metric, const double *vals, size_t n)
{
	char line[512];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%s.ext4.%s.r%zu\t%s\text4\thdd\t%s\t-\t%zu\t%s\t%g",
			 scn, mode, i + 1, scn, mode, i + 1, metric, vals[i]);
		CHECK_EQ_INT(agg_feed_line(s, line), AGG_ROW);
	}
}

TEST(test_count_check_kinds)
{
	static const struct { const char *text; int count; } checks[] = {
		{ "workload.oom_kills mode=vanilla > 0", 1 },
		{ "workload.oom_kills == 0", 1 },
		{ "waits.task.rl-reader.events == 0", 1 },
		{ "waits.events > 0", 1 },
		{ "counter.nr_reclaim_throttle_kswapd mode=patched > 0", 1 },
		/* a metric on the right: a difference, not a share */
		{ "workload.oom_kills mode=patched < mode=vanilla", 0 },
		{ "waits.task.rl-dd.full_timeout_share >= 0.5", 0 },
		{ "waits.task.rl-dd.events_per_s > 0", 0 },
		{ "tool.kupdate.busy_mbps > 40", 0 },
	};
	struct agg_check c;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		CHECK_EQ_INT(agg_parse_check(checks[i].text, &c, err, sizeof(err)), 0);
		if (agg_count_check(&c) != checks[i].count)
			fprintf(stderr, "  %s: count %d\n", checks[i].text, !checks[i].count);
		CHECK_EQ_INT(agg_count_check(&c), checks[i].count);
	}
}

/*
 * A count outcome is the share of seeds in which the check held, with its
 * Wilson interval; identical runs are judged too (a share varies by seed
 * even when each seed's run is repeatable).
 */
TEST(test_count_outcome_verdicts)
{
	static const double four[] = { 0, 2, 0, 1, 0, 0, 3, 0, 0, 1 };
	static const double all[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const double none[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	const struct agg_verdict *x;
	struct agg_verdict *v;
	struct agg_check c;
	struct agg_set s;
	char note[320];
	size_t n;

	agg_init(&s);
	feed_values(&s, "memcg-dd", "vanilla", "workload.oom_kills", four, 10);
	feed_values(&s, "memcg-dd", "unthrottled", "workload.oom_kills", all, 10);
	feed_values(&s, "memcg-dd", "patched", "workload.oom_kills", none, 10);
	feed_values(&s, "usb", "vanilla", "waits.events", all, 4);
	feed_values(&s, "usb", "vanilla", "waits.task.rl-reader.events", none, 4);
	CHECK_EQ_INT(agg_finish(&s), 0);

	n = eval(&s, "memcg-dd", "workload.oom_kills mode=vanilla > 0", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->is_count && x->hits == 4 && x->left.n == 10 &&
	      x->kind == AGG_INCONCLUSIVE && !x->has_interval);
	if (x) {
		CHECK_NEAR(x->share_lo, 0.1682, 5e-5);
		CHECK_NEAR(x->share_hi, 0.6873, 5e-5);
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "OOM kill in 4 of 10 seeds (95% CI 0.17-0.69)");
	}
	free(v);
	/* 10 of 10, every run alike: judged all the same */
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=unthrottled > 0", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_REPRODUCED && x->hits == 10 && x->left.spread == 0);
	free(v);
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=patched > 0", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED && x->hits == 0);
	free(v);
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=patched == 0", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_REPRODUCED && x->hits == 10);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "no OOM kill in 10 of 10 seeds (95% CI 0.72-1.00)");
	}
	free(v);
	/* another threshold: the check as written */
	n = eval(&s, "memcg-dd", "workload.oom_kills mode=vanilla >= 3", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED && x->hits == 1);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "workload.oom_kills >= 3 in 1 of 10 seeds (95% CI 0.02-0.40)");
	}
	free(v);
	/* zero waits in 4 of 4 seeds (the missing rule gives the 0s) */
	n = eval(&s, "usb", "waits.task.rl-reader.events == 0", &c, &v);
	x = verdict(v, n, "fs=ext4 mode=vanilla");
	CHECK(x && x->kind == AGG_REPRODUCED && x->hits == 4 && x->left.n == 4);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "waits.task.rl-reader.events == 0 in 4 of 4 seeds (95% CI 0.51-1.00)");
	}
	free(v);
	agg_free(&s);
}

/*
 * Runs whose values are all alike on each side give a bootstrap interval
 * of no width: "not enough variation to judge", whatever the difference;
 * one side that varies gives an interval to judge by.
 */
/*
 * Against a number, runs that differ in another figure (the seeds moved
 * them) but give this one the same value are seeds that agree: judged by
 * the share of seeds, as a count outcome; 5 of 5 decide.
 */
TEST(test_same_value_of_differing_runs_is_judged_by_its_seeds)
{
	static const double share[] = { 0, 0, 0, 0, 0 };
	static const double waits[] = { 575, 560, 590, 571, 580 };
	const struct agg_verdict *x;
	struct agg_verdict *v;
	struct agg_check c;
	struct agg_set s;
	char note[320];
	size_t n;

	agg_init(&s);
	feed_values(&s, "fs", "2012-patched", "waits.full_timeout_share", share, 5);
	feed_values(&s, "fs", "2012-patched", "waits.events", waits, 5);
	CHECK_EQ_INT(agg_finish(&s), 0);
	n = eval(&s, "fs", "waits.full_timeout_share mode=2012-patched <= 0.1", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_REPRODUCED && x->is_count && x->hits == 5);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "waits.full_timeout_share <= 0.1 in 5 of 5 seeds (95% CI 0.57-1.00)");
	}
	free(v);
	n = eval(&s, "fs", "waits.full_timeout_share mode=2012-patched > 0.1", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NOT_REPRODUCED && x->hits == 0);
	free(v);
	agg_free(&s);
}

TEST(test_no_variation_verdict)
{
	static const double a[] = { 170, 170, 170 }, b[] = { 35, 35, 35 };
	static const double c3[] = { 0.6, 0.6, 0.6 }, varied[] = { 30, 36, 40 };
	const struct agg_verdict *x;
	struct agg_verdict *v;
	struct agg_check c;
	struct agg_set s;
	char note[320];
	size_t n;

	agg_init(&s);
	feed_values(&s, "fs", "patched", "waits.events", a, 3);
	feed_values(&s, "fs", "vanilla", "waits.events", b, 3);
	feed_values(&s, "fs", "patched", "waits.p50_usec", c3, 3);
	feed_values(&s, "fs", "vanilla", "waits.p50_usec", varied, 3);
	CHECK_EQ_INT(agg_finish(&s), 0);
	CHECK_STR(agg_verdict_name(AGG_NO_VARIATION), "not enough variation to judge");

	n = eval(&s, "fs", "waits.events mode=patched > mode=vanilla", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NO_VARIATION && !x->has_interval && x->has_diff &&
	      !x->is_count && x->diff == 135);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "difference 135, no interval: every run of each side gave the same value (spread 0), so nothing varied to judge it by; the check holds on these values");
	}
	free(v);
	/* a number on the right has no spread of its own */
	n = eval(&s, "fs", "waits.p50_usec mode=patched >= 1", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_NO_VARIATION);
	if (x) {
		agg_verdict_note(&c, x, note, sizeof(note));
		CHECK_STR(note, "difference -0.4, no interval: every run gave the same value (spread 0), so nothing varied to judge it by; the check fails on these values");
	}
	free(v);
	/* one side varies: an interval, and a verdict by it */
	n = eval(&s, "fs", "waits.p50_usec mode=vanilla > mode=patched", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_REPRODUCED && x->has_interval && x->hi > x->lo);
	free(v);
	n = eval(&s, "fs", "waits.p50_usec mode=vanilla > 35", &c, &v);
	x = verdict(v, n, "fs=ext4");
	CHECK(x && x->kind == AGG_INCONCLUSIVE && x->has_interval);
	free(v);
	agg_free(&s);
}

/*
 * One check, one verdict (agg_one_verdict, rl-aggregate check --one,
 * compare.sh --check): err says which verdicts a check gives and what to
 * name, or which value it names that no run has; EXPECT_ONE's text is a
 * piece err must hold ("" when it must pass).
 */
static void expect_one(const struct agg_set *s, const char *scenario,
		       const char *text, const char *want1, const char *want2)
{
	struct agg_verdict *v;
	struct agg_check c;
	char err[2048] = "";
	size_t n = eval(s, scenario, text, &c, &v);
	int rc = agg_one_verdict(s, scenario, &c, v, n, err, sizeof(err));

	if (!*want1) {
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(n, 1);
	} else {
		CHECK_EQ_INT(rc, -1);
		CHECK(strstr(err, want1) != NULL);
		CHECK(strstr(err, want2) != NULL);
	}
	if ((!*want1) != (rc == 0) || (*want1 && (!strstr(err, want1) || !strstr(err, want2))))
		fprintf(stderr, "  '%s': %s\n", text, err);
	free(v);
}

TEST(test_one_verdict)
{
	static const char *const modes[] = { "vanilla@a", "vanilla@b", "patched@b" };
	struct agg_set s, k;
	char line[256];
	size_t i, r;

	CHECK_EQ_INT(load(&s, "memcg-dd.tsv"), 0);
	/* fs and mode named: the one cell */
	expect_one(&s, "memcg-dd", "workload.oom_kills fs=ext4 mode=vanilla > 0", "", "");
	/* nothing named over 2 fs x 2 modes: the four, and what to add */
	expect_one(&s, "memcg-dd", "workload.oom_kills > 0",
		   "gives 4 verdicts over the runs of scenario memcg-dd (fs=ext4 mode=patched; fs=ext4 mode=vanilla; fs=xfs mode=patched; fs=xfs mode=vanilla), not one: one for each fs (ext4 xfs) and mode (patched vanilla)",
		   "name fs=X and mode=Y in the check (e.g. 'workload.oom_kills fs=ext4 mode=patched > 0')");
	/* one dimension left free */
	expect_one(&s, "memcg-dd", "workload.oom_kills mode=vanilla >= 1",
		   "one for each fs (ext4 xfs); name fs=X in the check",
		   "(e.g. 'workload.oom_kills fs=ext4 mode=vanilla >= 1')");
	/* a metric on the right: name it on both sides */
	expect_one(&s, "memcg-dd", "workload.oom_kills mode=vanilla > mode=patched",
		   "one for each fs (ext4 xfs)", "name fs=X in the check, on both sides");
	expect_one(&s, "memcg-dd", "workload.oom_kills fs=xfs mode=vanilla > fs=ext4 mode=patched", "", "");
	/* a value no run has, on either side: named with the valid ones */
	expect_one(&s, "memcg-dd", "workload.oom_kills fs=btrfs mode=vanilla > 0",
		   "names fs=btrfs, which no run of scenario memcg-dd has",
		   "(valid: fs=X with X one of: ext4 xfs)");
	expect_one(&s, "memcg-dd", "workload.oom_kills fs=ext4 mode=vanilla > mode=2012-vanilla",
		   "names mode=2012-vanilla, which no run", "X one of: patched vanilla)");
	/* no run of the scenario: its one "no runs" verdict (not measured) */
	expect_one(&s, "fs-completion", "workload.oom_kills > 0", "", "");
	agg_free(&s);

	/* a matrix of kernels a and b: a named mode is judged on each */
	agg_init(&k);
	for (i = 0; i < 3; i++)
		for (r = 1; r <= 3; r++) {
			snprintf(line, sizeof(line), "m.ext4.%s.r%zu\tmemcg-dd\text4\thdd\t%.*s\t%s\t%zu\tworkload.oom_kills\t0",
				 modes[i], r, mode_len(modes[i]), modes[i], kernel_of(modes[i]), r);
			CHECK_EQ_INT(agg_feed_line(&k, line), AGG_ROW);
		}
	CHECK_EQ_INT(agg_finish(&k), 0);
	expect_one(&k, "memcg-dd", "workload.oom_kills mode=vanilla == 0",
		   "(fs=ext4 kernel=a; fs=ext4 kernel=b), not one: one for each kernel (a b)",
		   "a check cannot name a kernel: judge the runs of one kernel");
	expect_one(&k, "memcg-dd", "workload.oom_kills == 0",
		   "one for each mode (vanilla patched) and kernel (a b); name mode=Y",
		   "judge the runs of one kernel");
	/* a mode is named without its kernel */
	expect_one(&k, "memcg-dd", "workload.oom_kills mode=vanilla@a == 0",
		   "names mode=vanilla@a, which no run", "X one of: vanilla patched)");
	agg_free(&k);

	/* planned runs (compare.sh before any guest starts): not ok, counted */
	agg_init(&k);
	CHECK_EQ_INT(agg_feed_line(&k, "p.ext4.vanilla@x.r1\tfs-completion\text4\t-\tvanilla\tx\t1\trun.status\tplanned"), AGG_TEXT);
	CHECK_EQ_INT(agg_finish(&k), 0);
	expect_one(&k, "fs-completion", "counter.nr_reclaim_wait_writeback mode=vanilla > 0", "", "");
	expect_one(&k, "fs-completion", "counter.nr_reclaim_wait_writeback mode=patched > 0",
		   "names mode=patched", "X one of: vanilla)");
	agg_free(&k);
}
