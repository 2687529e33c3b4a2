/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate: statistics over the summary rows of a comparison matrix.
 *
 * A row is eight tab-separated fields, a run's record joined (record.h:
 * run.conf's identity, then a metric of its status or of its summary):
 *   run scenario fs profile mode repeat metric value
 * The caller feeds rows into a set, calls agg_finish() once, then asks for
 * groups (n, median, min, max, spread of a metric over the repeats of one
 * scenario/fs/profile/mode), for comparisons of two groups, or evaluates the
 * scenario files' "# Check:" lines.
 *
 * Rules:
 *  - Malformed rows (wrong field count, empty field, bad repeat, line too
 *    long, a run whose fields change between rows) are skipped and counted.
 *  - A value that is not a finite number is text: run.status is kept as the
 *    run's status, any other text value (knob.*=absent) is skipped and
 *    counted apart from the malformed rows.
 *  - A metric given twice for one run keeps its last value.
 *  - Runs whose run.status is present and not "ok" are excluded from every
 *    figure; agg_excluded() lists them.
 *  - Missing task events: a run that has waits.events but no
 *    waits.task.COMM.events had no wait of task COMM, so that metric is 0
 *    for it (for every COMM seen in any run, or named by agg_want_metric()).
 */
#ifndef RECLAIMLAB_AGGREGATE_H
#define RECLAIMLAB_AGGREGATE_H

#include "scenario.h"
#include <stddef.h>
#include <stdio.h>

/* Longer input lines are malformed. */
#define AGG_LINE_MAX	4096
/* Longer check texts are refused. */
#define AGG_CHECK_MAX	512
#define AGG_WORD_MAX	127

/* The dimensions of a row, in output order. */
enum agg_dim { AGG_SCENARIO, AGG_FS, AGG_PROFILE, AGG_MODE, AGG_NDIMS };
extern const char *const agg_dim_names[AGG_NDIMS];

enum agg_kind {
	AGG_ROW,		/* a numeric value, kept */
	AGG_TEXT,		/* a text value (run.status or skipped) */
	AGG_IGNORED,		/* blank line or '#' comment */
	AGG_MALFORMED,
};

struct agg_run {
	const char *name;
	const char *dim[AGG_NDIMS];
	long repeat;
	const char *status;	/* NULL if the rows had no run.status */
	int excluded;
	size_t first, last;	/* its rows: rows[first..last) after finish */
};

struct agg_row {
	size_t run;		/* index into runs */
	const char *metric;
	double value;
	size_t seq;		/* input order, for "last value wins" */
};

struct agg_strtab {
	const char **v;
	size_t n, cap;		/* cap is a power of two */
};

struct agg_set {
	struct agg_strtab strings;	/* interned: equal strings, equal pointers */
	struct agg_run *runs;
	size_t nruns, runs_cap;
	struct agg_row *rows;
	size_t nrows, rows_cap;
	const char **wanted;		/* metrics to fill by the missing rule */
	size_t nwanted, wanted_cap;
	const char *only_scenario;	/* rows of other scenarios are dropped */
	size_t run_hint;		/* the run of the previous row */

	unsigned long lines;		/* lines read */
	unsigned long malformed;
	unsigned long text;		/* non-numeric values other than run.status */
	unsigned long duplicates;	/* metric given again for one run */
	unsigned long filled;		/* rows added by the missing rule */
	unsigned long other_scenario;	/* rows dropped by only_scenario */
	char first_error[160];		/* why the first malformed row was */
	unsigned long first_error_line;
	int finished;
};

/* A metric over the runs of one scenario/fs/profile/mode. */
struct agg_group {
	const char *dim[AGG_NDIMS];
	const char *metric;
	size_t n;
	double median, min, max, spread;
};

enum agg_sig { AGG_SIGNIFICANT, AGG_NOT_SIGNIFICANT, AGG_SINGLE_RUN };

/* Two groups that differ only in one dimension. */
struct agg_pair {
	const struct agg_group *a, *b;
	double diff;		/* a->median - b->median */
	enum agg_sig sig;
};

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
#define AGG_BOOTSTRAP	2000

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
};

/* One evaluation of a check: for one value of each free dimension. */
struct agg_verdict {
	char where[2 * AGG_WORD_MAX + 16];	/* "fs=ext4 mode=vanilla", or "all" */
	enum agg_verdict_kind kind;
	struct agg_value left, right;
	int has_interval;		/* enough runs: diff and its interval */
	int has_diff;			/* diff set (has_interval, or no variation) */
	double diff, lo, hi;		/* median difference, 95% interval */
	int is_count;			/* a count outcome: the share below */
	size_t hits;			/* left runs in which the check held */
	double share_lo, share_hi;	/* Wilson 95% interval of hits / left.n */
};

/*
 * Wilson score 95% interval (z = 1.959964) of a share of k in n: 0 and
 * [*lo, *hi] within [0, 1], or -1 for n = 0 or k > n.
 */
int agg_wilson(size_t k, size_t n, double *lo, double *hi);
/* The verdict of a count outcome's share interval (see AGG_MIN_RUNS). */
enum agg_verdict_kind agg_share_verdict(double lo, double hi);
/*
 * Is c a count outcome: a count metric (workload.oom_kills, a waits.*
 * metric ending in .events, a counter.*) on the left, a number on the
 * right?
 */
int agg_count_check(const struct agg_check *c);

/*
 * The bootstrap interval of median(a) - median(b) (b may be one number,
 * nb = 1): AGG_BOOTSTRAP resamples from a fixed seed, so the same values
 * give the same interval.  -1 on ENOMEM.
 */
int agg_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb,
		       double *lo, double *hi);
/* The verdict of an interval [lo, hi] of left - right for op. */
enum agg_verdict_kind agg_interval_verdict(enum agg_op op, double lo, double hi);

void agg_init(struct agg_set *s);
void agg_free(struct agg_set *s);
/* Keep only rows of this scenario (before feeding); -1 if too long. */
int agg_only_scenario(struct agg_set *s, const char *scenario);
/* Fill this metric by the missing-task-events rule too (before finish). */
int agg_want_metric(struct agg_set *s, const char *metric);

/* Returns the line's kind, or -1 (errno ENOMEM). */
int agg_feed_line(struct agg_set *s, const char *line);
/* Every line of f; 0, or -1 with errno set (read error, ENOMEM). */
int agg_feed_stream(struct agg_set *s, FILE *f);
/* Dedupes, excludes runs not ok, applies the missing rule; -1 ENOMEM. */
int agg_finish(struct agg_set *s);

/* Runs not ok, in name order: *out is malloc'ed, or NULL if none. */
size_t agg_excluded(const struct agg_set *s, const struct agg_run ***out);
/* Runs included, in name order. */
size_t agg_included(const struct agg_set *s, const struct agg_run ***out);

/*
 * Groups sorted by scenario, fs, profile, mode, metric: *out is malloc'ed.
 * Returns the count, or (size_t)-1 on ENOMEM.
 */
size_t agg_groups(const struct agg_set *s, struct agg_group **out);

/* Median of v[0..n) (sorts v); NAN for n = 0. */
double agg_median(double *v, size_t n);

/*
 * Difference of medians and whether it is significant: not significant when
 * the difference is 0 or smaller than the spread of either group; a single
 * run on both sides says nothing about the spread ("single run").
 */
enum agg_sig agg_significance(const struct agg_group *a,
			      const struct agg_group *b, double *diff);
const char *agg_sig_name(enum agg_sig sig);

/*
 * Pairs of groups of dimension dim with value va and vb, equal in every
 * other dimension and in metric; *out is malloc'ed.  (size_t)-1 on ENOMEM.
 */
size_t agg_pairs(const struct agg_group *g, size_t ng, enum agg_dim dim,
		 const char *va, const char *vb, struct agg_pair **out);

/* "fs" -> AGG_FS etc.; -1 if unknown. */
int agg_dim_from_name(const char *name);

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
 * What a verdict rests on: "difference D [95% CI lo, hi]", a count
 * outcome's share ("OOM kill in 4 of 10 seeds (95% CI 0.17-0.69)"), that
 * the runs did not vary, "n < 3 runs", which side was not measured (and
 * why: "N waits < minimum M"), then the runs each side dropped
 * (OOM-killed, too few waits).
 */
void agg_verdict_note(const struct agg_check *c, const struct agg_verdict *v,
		      char *buf, size_t size);

/* Numbers as the TSV outputs print them: integers whole, others %.6g. */
void agg_format(char *buf, size_t size, double v);

void agg_print_groups(FILE *f, const struct agg_group *g, size_t n);
void agg_print_pairs(FILE *f, const struct agg_pair *p, size_t n,
		     enum agg_dim dim);
void agg_print_verdicts(FILE *f, const char *scenario,
			const struct agg_check *c,
			const struct agg_verdict *v, size_t n);

#endif
