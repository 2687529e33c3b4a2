/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record: one run's record, the one module that reads and writes what a
 * run folder says of the run (its layout: run-folder.h).  Three files,
 * each written by one writer:
 *
 *   run.conf             what the run is and how it was set up (run.sh,
 *                        before boot): its identity, scenario, fs,
 *                        profile, mode, kernel_name, repeat, once, and
 *                        params, knobs, clock, ...
 *   status               how it ended: the status word on the first line,
 *                        then key=value facts (exit_status, wall_seconds,
 *                        simulated_seconds, clock_stalled_ticks, splats,
 *                        splat_kinds, oom_kills, model_errors,
 *                        knobs_absent, failed_step, reason,
 *                        host_disk_full).  Written by rl-collect alone,
 *                        through record_write_status(): the final word
 *                        after the guest is gone, and the words of a run
 *                        not collected (running, interrupted,
 *                        not-measured) that run.sh and native.sh hand it
 *                        (rl-collect --mark)
 *   derived/summary.tsv  what it measured (rl-summarize): rows
 *                        "METRIC<TAB>VALUE" (until 2026-12-07 with
 *                        the run's name in front, still read)
 *
 * The statistics (aggregate-rows.c) take rows with the run's identity in
 * front, "run scenario fs profile mode kernel repeat metric value":
 * record_rows() makes them from the three files, so the identity is stored
 * once (run.conf) and joined here, by rl-report and rl-aggregate alike.
 * The scripts read a status through rl-record (record-main.c).
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
	/*
	 * the kernel the run is of on a matrix of kernels (compare.sh
	 * --kernel: run.conf's kernel_name), "" on one kernel
	 */
	char *kernel;
	long repeat;
	/* derived/summary.tsv is there: the run was summarized */
	int summarized;
};

/*
 * The run's state: its status word, or RECORD_UNSUMMARIZED for a run that
 * ended ok but has no summary yet (scripts/summarize-run.sh makes one): it
 * measured nothing any table could show.
 */
#define RECORD_UNSUMMARIZED "unsummarized"
const char *record_state(const struct record *rec);

/* The word in a row's kernel field for a run of no kernel axis. */
#define RECORD_NO_KERNEL "-"

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
 * run.status with the status word.  A run without a summary gives no
 * rows (the report lists it as not summarized: rec->summarized).
 * Returns 0, fn's non-zero value, or -1 with a message in err: a summary
 * whose rows have the layout before 2026-12 (the identity in six columns
 * of its own: convert the matrix with scripts/convert-matrix.sh).
 */
int record_rows(const struct record *rec, record_row_fn fn, void *arg, char *err, size_t errlen);

/*
 * The name a report gives the runs of mode on kernel: the mode alone on
 * one kernel (kernel "" or RECORD_NO_KERNEL), else "MODE@KERNEL";
 * malloc'ed.  A label, shown, never taken apart again.
 */
char *record_mode_label(const char *mode, const char *kernel);

/* The last value of metric in the run's summary rows; NAN if none. */
double record_metric(const struct record *rec, const char *metric);

/* The value of the status fact key (malloc'ed), or NULL if it has none. */
char *record_fact(const struct record *rec, const char *key);

/*
 * The status of the run folder dir without loading its record: its word
 * (malloc'ed), or NULL when it has no status file.  The file is read only
 * if it is a regular file, not through a link, and at most
 * RECORD_STATUS_MAX bytes of it.
 */
#define RECORD_STATUS_MAX 65536
char *record_status_word(const char *dir);
/* The status fact key of dir's status file (malloc'ed), or NULL. */
char *record_status_fact(const char *dir, const char *key);

/*
 * Writes dir/status: word on the first line, then facts (key=value
 * lines, each ending in a newline, or ""), through dir/status.tmp renamed
 * into place, so that a status that is there is whole.  When that cannot
 * be done (a full disk), the old status file is rewritten in place with
 * word and short_facts (its blocks are freed first), if short_facts is
 * not NULL, so that the run is not taken for one still running.  0; 1
 * when only the short status could be written; -1 with a message in err.
 */
int record_write_status(const char *dir, const char *word, const char *facts,
			const char *short_facts, char *err, size_t errlen);

/*
 * Converts the run folder dir, saved before 2026-12 (issue 28), to the
 * layout of one record per run, in place (scripts/convert-matrix.sh): its
 * summary's rows "run scenario fs profile mode repeat metric value" to
 * "metric value", the identity checked equal to run.conf's first, and the
 * rows that copied the status (run.status, run.KEY of its facts,
 * workload.oom_kills) or the knobs (knob.*) left out; its status without
 * clock= and with knobs_absent= from the guest's knobs file (its
 * KNOB=absent lines).  0 converted, 1 nothing to convert, -1 with a
 * message in err.
 */
int record_convert(const char *dir, char *err, size_t errlen);

#endif
