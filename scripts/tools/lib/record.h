/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record: one run's record, joined from the three files of its folder that
 * each say one thing about it, each written once by one writer:
 *
 *   run.conf             what the run is and how it was set up (run.sh,
 *                        before boot): scenario, fs, profile, mode,
 *                        repeat, params, knobs, clock, ...
 *   status               how it ended (rl-collect, after the guest is
 *                        gone): the status word on the first line, then
 *                        key=value facts: exit_status, wall_seconds,
 *                        simulated_seconds, clock_stalled_ticks, splats,
 *                        splat_kinds, oom_kills, model_errors,
 *                        knobs_absent, failed_step, reason,
 *                        host_disk_full
 *   derived/summary.tsv  what it measured (rl-summarize): rows
 *                        "RUN<TAB>METRIC<TAB>VALUE"
 *
 * The statistics (aggregate-rows.c) take rows with the run's identity in front,
 * "run scenario fs profile mode repeat metric value": record_rows() makes
 * them from the three files, so the identity is stored once (run.conf) and
 * joined here, by rl-report and rl-aggregate alike.
 */
#ifndef RECLAIMLAB_RECORD_H
#define RECLAIMLAB_RECORD_H

#include <stddef.h>

struct record {
	char *name;		/* the run folder's name */
	char *dir;		/* its path */
	char *conf;		/* run.conf's text; "" if there is none */
	char *status_text;	/* the status file's text */
	char *status;		/* its first line ("unknown" if empty) */
	char *scenario, *fs, *profile, *mode;	/* from run.conf; "" if absent */
	long repeat;
};

/*
 * Reads the record of the run folder dir (named name).  0, or -1 when it
 * has no status file (not a run, or one that never started).
 */
int record_load(struct record *rec, const char *dir, const char *name);
void record_free(struct record *rec);

/*
 * Each joined row, with the metric and value it carries and its line in
 * the summary (0 for a row of the status file); non-zero stops.
 */
typedef int (*record_row_fn)(void *arg, const char *row, const char *metric,
			     const char *value, unsigned long line);

/*
 * Calls fn with the run's joined rows: the status file's facts that are
 * numbers (in its order), the summary's rows (in its order), then
 * run.status with status (the run's status word as the caller sees it,
 * NULL: rec->status).  A run without a summary gives no rows.
 * Returns 0, fn's non-zero value, or -1 with a message in err: a summary
 * whose rows have the layout before 2026-12 (the identity in six columns
 * of its own: convert the matrix with scripts/convert-matrix.sh).
 */
int record_rows(const struct record *rec, const char *status,
		record_row_fn fn, void *arg, char *err, size_t errlen);

/* The last value of metric in the run's summary rows; NAN if none. */
double record_metric(const struct record *rec, const char *metric);

#endif
