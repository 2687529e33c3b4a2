/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summarize: what a run measured, from the raw files the guest wrote
 * (RUN/guest/, guest-read.h: a file that is not a regular file or is over
 * its cap gives no rows), into summary rows, one per metric,
 *   METRIC<TAB>VALUE (the run is its folder's: record.h)
 * what the run is stays in its run.conf and
 * how it ended in its status, which record.h joins to the rows (run.conf
 * is read only to refuse a folder that did not run a scenario).
 * The rows:
 *   waits.*            the trace (tracestat.c, one pass), waits.task.COMM.*
 *                      per task name; run.trace_overrun, the ring
 *                      buffer's lost events
 *   counter.*          /sys/kernel/debug/vm after the workload
 *   vmstat.*           /proc/vmstat deltas over the workload (non-zero)
 *   iostat.DEV.*       sysstat's iostat -x per device (iostat.json, sysstat.c):
 *                      COLUMN_mean, COLUMN_sd, intervals
 *   tool.NAME.*        each workload's result line (NAME.out: op=...)
 *   fio.JOB.*          fio's JSON (NAME.fio.json) per job: error, and per
 *                      direction kb_s, iops, clat_p50_us/_p99_us/_p999_us
 *   blk.DEV.DIR.*      DEV.blktrace.bin (run.sh --blktrace), per direction:
 *                      completions, d2c_/q2c_matched, d2c_ms_/q2c_ms_ p50,
 *                      p90, p99, max (blklat.c)
 *   input.refused      text: NAME, a guest file refused (not a regular
 *                      file, over its cap, values no run has); its rows
 *                      are missing
 *   input.cut          text: NAME, a guest file whose values were bounded
 *                      (a workload or trace longer than the series' max)
 * and, beside them in derived/, the trace's histogram, CDF and waits per
 * 0.1 s (waits-hist.tsv, waits-cdf.tsv, waits-series.tsv), folios ended
 * per 10 ms (completions-series.tsv) and the waits of each task and reason
 * by duration (waits-by-task.tsv: task, reason, usec_delayed, waits).
 */
#ifndef RECLAIMLAB_SUMMARIZE_H
#define RECLAIMLAB_SUMMARIZE_H

#include <stdio.h>

/* summarize_run()'s answer for a folder that is not a scenario's run */
#define SUMMARIZE_NOT_A_RUN	(-2)

/*
 * Writes the rows of run folder dir to out and the trace's files into
 * derived (an existing folder; each file made anew, cli_create()).
 * Returns 0, SUMMARIZE_NOT_A_RUN, or -1 on a read or write error; err
 * says which.  A refused guest file is not an error: the run is marked.
 */
int summarize_run(const char *dir, const char *derived, FILE *out, char *err,
		  size_t errlen);

#endif
