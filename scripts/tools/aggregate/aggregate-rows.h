/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate-rows: the summary rows of a comparison matrix, read into a
 * set of runs and their metrics.
 *
 * A row is nine tab-separated fields, a run's record joined (record.h:
 * run.conf's identity, then a metric of its status or of its summary):
 *   run scenario fs profile mode kernel repeat metric value
 * kernel is the run's on a matrix of kernels, "-" on one kernel.
 * The caller feeds rows into a set and calls agg_finish() once; the
 * statistics (aggregate-stats.h) and the checks (aggregate-checks.h) read
 * the finished set.
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
#ifndef RECLAIMLAB_AGGREGATE_ROWS_H
#define RECLAIMLAB_AGGREGATE_ROWS_H

#include <stddef.h>
#include <stdio.h>

/* Longer input lines are malformed. */
#define AGG_LINE_MAX	4096
/* Longer names (of a scenario kept, of a metric a check names) are refused. */
#define AGG_WORD_MAX	127

/* The dimensions of a row, in output order. */
enum agg_dim { AGG_SCENARIO, AGG_FS, AGG_PROFILE, AGG_MODE, AGG_KERNEL, AGG_NDIMS };
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
 * The value of metric in run r (a finished set), by the missing-task-events
 * rule too: 0, or -1 when the run has none.
 */
int agg_run_value(const struct agg_set *s, const struct agg_run *r,
		  const char *metric, double *v);
/* A value: a finite number taking the whole string; 0, or -1. */
int agg_parse_number(const char *p, double *out);
/* The set's one copy of str, or NULL when no row had it. */
const char *agg_interned(const struct agg_set *s, const char *str);

/* "fs" -> AGG_FS etc.; -1 if unknown. */
int agg_dim_from_name(const char *name);

#endif
