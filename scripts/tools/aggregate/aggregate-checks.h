/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate-checks: the "# Check:" lines of the scenarios, parsed and
 * evaluated over a finished set of rows into verdicts.
 */
#ifndef RECLAIMLAB_AGGREGATE_CHECKS_H
#define RECLAIMLAB_AGGREGATE_CHECKS_H

#include "aggregate/aggregate-stats.h"
#include "lib/scenario.h"

/* Longer check texts are refused. */
#define AGG_CHECK_MAX	512

enum agg_op { AGG_LT, AGG_LE, AGG_GT, AGG_GE, AGG_EQ, AGG_NE };

/* One side of a check: a number, or a metric's median over selected runs. */
struct agg_side {
	int is_number;
	double number;
	char metric[AGG_WORD_MAX + 1];
	char fs[AGG_WORD_MAX + 1];	/* "" = not selected */
	char mode[AGG_WORD_MAX + 1];
};

struct agg_check {
	struct agg_side left, right;
	enum agg_op op;
	char text[AGG_CHECK_MAX + 1];	/* as written, trimmed */
};

/*
 * A verdict needs AGG_MIN_RUNS runs on each measured side.  Then:
 *  - A count outcome (agg_count_check: a count metric against a number,
 *    as workload.oom_kills > 0 or waits.task.COMM.events == 0) is the
 *    share of the left side's runs (seeds) in which the check held, with
 *    its Wilson score 95% interval: reproduced when the whole interval is
 *    above 1/2 (the check holds in most seeds), not reproduced when it is
 *    below, inconclusive when it holds 1/2.  Over an odd number of
 *    seeds the median holds the check exactly when more than half of
 *    them do: this is the median's question with an interval a yes/no
 *    outcome can have.
 *  - Otherwise, when every run of each side gave the same value (spread
 *    0; a number on the right has none), there is no variation to judge
 *    a difference by: "not enough variation to judge", never reproduced.
 *  - Otherwise a bootstrap 95% interval of the difference of medians (left
 *    minus right; a number on the right has no spread): reproduced when
 *    the whole interval is on the check's side, not reproduced when it is
 *    all on the other, inconclusive when it spans both.
 */
#define AGG_MIN_RUNS	3

/*
 * Which runs a side counts (agg_eval_check):
 *  - A run whose workload was OOM-killed (workload.oom_kills > 0) is
 *    dropped from every side but one of workload.oom_kills itself: a
 *    killed writer's figures are not the healthy writer's the check is
 *    about.  The verdict says how many runs were dropped.
 *  - A statistic of a wait distribution, a waits.* metric P.STAT with
 *    STAT full_timeout_share or pNN_usec, counts in a run only when P had
 *    at least AGG_MIN_WAITS waits there (P.events, less
 *    P.no_timeout_events for full_timeout_share, whose waits without a
 *    timeout are not in the share); a run with fewer is dropped and, when
 *    no run is left, the side is "not measured: N waits < minimum M".
 *    10: the shortest per-filesystem trace the 2012 thread quotes (ext4's)
 *    has 10 waits.
 */
#define AGG_OOM_METRIC	"workload.oom_kills"
#define AGG_MIN_WAITS	10

/*
 * Whether a side counts run r (an included run) for metric, by the two
 * rules above: AGG_COUNTED, or why not: AGG_LEFT_OOM (its workload was
 * OOM-killed) or AGG_LEFT_FEW (a wait statistic on fewer than
 * AGG_MIN_WAITS waits, their number in *waits).  The report's picture
 * counts runs as the checks do through it.
 */
enum agg_counted { AGG_COUNTED, AGG_LEFT_OOM, AGG_LEFT_FEW };
enum agg_counted agg_run_counted(const struct agg_set *s, const struct agg_run *r,
				 const char *metric, double *waits);

/* In the order of the report's columns: judged, then why not. */
enum agg_verdict_kind {
	AGG_REPRODUCED, AGG_NOT_REPRODUCED, AGG_INCONCLUSIVE,
	AGG_NO_VARIATION, AGG_NOT_ENOUGH_RUNS, AGG_NOT_MEASURED, AGG_NVERDICTS
};
/* The share a count outcome's verdict is judged against. */
#define AGG_SHARE_MAJORITY	0.5

/* Values of one side in one cell; n = 0 when nothing was measured. */
struct agg_value {
	size_t n;
	double median, spread;
	size_t dropped_oom;	/* runs left out: their workload OOM-killed */
	size_t dropped_few;	/* runs left out: fewer than AGG_MIN_WAITS waits */
	double few_min, few_max;	/* the fewest and most waits of such runs */
	/* its runs differed in some figure (run.* aside): the seeds moved them */
	int runs_differ;
};

/* One evaluation of a check: for one value of each free dimension. */
struct agg_verdict {
	char where[2 * AGG_WORD_MAX + 16];	/* "fs=ext4 mode=vanilla", or "all" */
	/*
	 * the kernel of a matrix of kernels the verdict is of ("" if none),
	 * and its place without it: "fs=ext4 mode=vanilla" of both
	 * "fs=ext4 mode=vanilla@host" and "fs=ext4 kernel=host" (the latter
	 * "fs=ext4"); verdicts of one place on two kernels compare
	 */
	char kernel[AGG_WORD_MAX + 1];
	char place[2 * AGG_WORD_MAX + 16];
	enum agg_verdict_kind kind;
	struct agg_value left, right;
	int has_interval;		/* enough runs: diff and its interval */
	int has_diff;			/* diff set (has_interval, or no variation) */
	double diff, lo, hi;		/* median difference, 95% interval */
	int is_count;			/* a count outcome: the share below */
	size_t hits;			/* left runs in which the check held */
	double share_lo, share_hi;	/* Wilson 95% interval of hits / left.n */
	/*
	 * agg_mark_native(): a native kernel decided the same check at the
	 * same place (fs, mode) the other way; its verdict and name
	 */
	int native_differs;
	enum agg_verdict_kind native_kind;	/* the native verdict */
	enum agg_verdict_kind native_outcome;	/* REPRODUCED or NOT_REPRODUCED */
	char native_kernel[AGG_WORD_MAX + 1];
};

/* The verdict of a count outcome's share interval (see AGG_MIN_RUNS). */
enum agg_verdict_kind agg_share_verdict(double lo, double hi);
/*
 * Is c a count outcome: a count metric (workload.oom_kills, a waits.*
 * metric ending in .events, a counter.*) on the left, a number on the
 * right?
 */
int agg_count_check(const struct agg_check *c);

/* The verdict of an interval [lo, hi] of left - right for op. */
enum agg_verdict_kind agg_interval_verdict(enum agg_op op, double lo, double hi);

/*
 * Parses "METRIC [sel...] OP (NUMBER | [METRIC] [sel...])" with sel one of
 * fs=X mode=Y and OP one of < <= > >= == !=.  Returns 0, or -1 with a
 * message naming what is wrong and what is valid in err.
 */
int agg_parse_check(const char *text, struct agg_check *c, char *err,
		    size_t errlen);
const char *agg_op_name(enum agg_op op);

/*
 * Parses the "# Check: ..." lines of a scenario (read by scenario.c).  *out
 * is malloc'ed (NULL if none).  Returns the count, or (size_t)-1 with errno
 * EINVAL and a message "line N: ..." in err for a bad check, or ENOMEM.
 */
size_t agg_scenario_checks(const struct scenario *scn, struct agg_check **out,
			   char *err, size_t errlen);

/*
 * Evaluates a check over the included runs of a scenario: once for every
 * combination of the values of the dimensions fs and mode that neither side
 * names, as the scenario's runs (excluded ones too) have them; a side
 * without any included run that has its metric is "not measured".  *out is
 * malloc'ed.
 * Returns the count, or (size_t)-1 on ENOMEM.
 */
size_t agg_eval_check(const struct agg_set *s, const char *scenario,
		      const struct agg_check *c, struct agg_verdict **out);
const char *agg_verdict_name(enum agg_verdict_kind k);

/*
 * Marks the verdicts of check c (v[0..n), from agg_eval_check()) that a
 * native kernel contradicts: a verdict on one kernel and the verdict on a
 * native one at the same place otherwise (the same where but for
 * "kernel=NAME" or the "@NAME" of "mode=M@NAME"), both deciding (reproduced
 * or not reproduced, or no variation with values for which the check holds
 * or fails) and not alike.  native lists the native kernels' names (without
 * "@").  Clears earlier marks; returns how many verdicts were marked.
 */
size_t agg_mark_native(const struct agg_check *c, struct agg_verdict *v,
		       size_t n, const char *const *native, size_t nnative);
/*
 * What a verdict rests on: "difference D [95% CI lo, hi]", a count
 * outcome's share ("OOM kill in 4 of 10 seeds (95% CI 0.17-0.69)"), that
 * the runs did not vary, "n < 3 runs", which side was not measured (and
 * why: "N waits < minimum M"), then the runs each side dropped
 * (OOM-killed, too few waits).
 */
void agg_verdict_note(const struct agg_check *c, const struct agg_verdict *v,
		      char *buf, size_t size);

/*
 * Does check c, evaluated over set s into v[0..n) (agg_eval_check), judge
 * as one verdict, a verdict a script can act on (rl-aggregate check
 * --one, compare.sh --check)?  0 when every fs and mode the check names is
 * one that a run of the scenario has (a mode without the "@KERNEL" of a
 * matrix of kernels), and n is 1 (a scenario without runs gives its one
 * "no runs" verdict); else -1 and a message in err naming the value no run
 * has, with the valid ones, or the verdicts and the dimensions they
 * differ in (fs, mode, kernel) with their values and what to name in the
 * check.  -1 with errno ENOMEM and no message when out of memory.
 */
int agg_one_verdict(const struct agg_set *s, const char *scenario,
		    const struct agg_check *c, const struct agg_verdict *v, size_t n,
		    char *err, size_t errlen);

void agg_print_verdicts(FILE *f, const char *scenario,
			const struct agg_check *c,
			const struct agg_verdict *v, size_t n);


#endif
