/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracestat: statistics of page-reclaim waits in an ftrace text trace.
 *
 * Two wait events are understood: reclaimlab's mm_vmscan_reclaim_wait and
 * upstream's mm_vmscan_throttled (whose "usect_delayed" field name is
 * misspelled in 6.12); writeback_end_batch events go to the completion
 * statistics (completion.h), so one pass over a trace gives both.  The
 * caller feeds lines into an accumulator, calls tracestat_finish() once,
 * then reads the results or prints them.
 */
#ifndef RECLAIMLAB_TRACESTAT_H
#define RECLAIMLAB_TRACESTAT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "summarize/completion.h"
#include "summarize/memcg-reclaim.h"

/* Longer lines are counted as malformed and not parsed. */
#define TRACESTAT_LINE_MAX	4096
/* The kernel's comm is 15 bytes; allow slack for "<...>" and oddities. */
#define TRACESTAT_COMM_MAX	63
/* reason= and class= values; longer ones are malformed. */
#define TRACESTAT_WORD_MAX	63
/* "comm-pid" fits: 63 + 1 + 10 digits + NUL. */
#define TRACESTAT_NAME_MAX	80

/* Distinct tasks kept by name; later ones fold into "(other)". */
#define TRACESTAT_MAX_TASKS	128
/* Distinct reasons/classes kept, the known ones included. */
#define TRACESTAT_MAX_REASONS	32
#define TRACESTAT_MAX_CLASSES	16

/*
 * A trace timestamp is seconds since boot: one past ~31 years is damage,
 * and a line carrying it is malformed (a guest's 2e11 would otherwise
 * stretch every span computed from the trace).
 */
#define TRACESTAT_TS_MAX	1e9
/* The waits series is bounded like the completions' (completion.h). */
#define TRACESTAT_SERIES_MAX_S	COMPLETION_SERIES_MAX_S

#define TRACESTAT_OTHER_NAME	"(other)"
/* Class of upstream events, which do not record one. */
#define TRACESTAT_NO_CLASS	"-"

/* Percentiles reported, in percent. */
#define TRACESTAT_NPCT		6
extern const int tracestat_pct[TRACESTAT_NPCT];

/*
 * Histogram edges in ms: bucket i is [edge[i], edge[i + 1]) and the last
 * bucket is [edge[NBUCKETS - 1], infinity), i.e. "100+" = a full HZ/10 wait.
 */
#define TRACESTAT_NBUCKETS	12
extern const long tracestat_hist_edges_ms[TRACESTAT_NBUCKETS];

/* Known names, NULL-terminated, in the order they are reported. */
extern const char *const tracestat_reasons[];
extern const char *const tracestat_classes[];

enum tracestat_kind {
	TRACESTAT_IGNORED,	/* '#' header or blank line */
	TRACESTAT_WAIT,		/* a reclaim wait */
	TRACESTAT_COMPLETION,	/* a writeback_end_batch */
	TRACESTAT_MEMCG_RECLAIM,	/* a mm_vmscan_memcg_reclaim_end */
	TRACESTAT_OTHER,	/* a well-formed line of any other event */
	TRACESTAT_MALFORMED,
};

enum tracestat_format {
	TRACESTAT_FMT_RECLAIMLAB,	/* mm_vmscan_reclaim_wait */
	TRACESTAT_FMT_UPSTREAM,		/* mm_vmscan_throttled */
};

/*
 * One parsed line; only ts is set for TRACESTAT_OTHER, ts and completion
 * for TRACESTAT_COMPLETION.
 */
struct tracestat_event {
	double ts;
	char comm[TRACESTAT_COMM_MAX + 1];
	int pid;
	enum tracestat_format format;
	long usec_timeout;
	long usec_delayed;
	char reason[TRACESTAT_WORD_MAX + 1];
	char cls[TRACESTAT_WORD_MAX + 1];
	struct completion_event completion;
	unsigned long memcg_reclaimed;
};

struct tracestat_entry {
	char name[TRACESTAT_NAME_MAX];
	unsigned long count;
	unsigned long long usec;
};

/* A by-name counter with a fixed capacity and a fold-over entry. */
struct tracestat_table {
	struct tracestat_entry v[TRACESTAT_MAX_TASKS];
	size_t n;
	size_t limit;
	struct tracestat_entry other;
};

enum tracestat_dur_source {
	TRACESTAT_DUR_NONE,	/* no time span: stalled_ms_per_s is 0 */
	TRACESTAT_DUR_OPTION,	/* --duration */
	TRACESTAT_DUR_TRACE,	/* last_ts - first_ts */
};

struct tracestat {
	/* Filters: empty string = no filter. */
	char want_reason[TRACESTAT_WORD_MAX + 1];
	char want_task[TRACESTAT_NAME_MAX];
	double duration_opt;		/* > 0 if given */

	unsigned long events;		/* waits counted (after filters) */
	unsigned long filtered;		/* waits dropped by a filter */
	unsigned long other;
	unsigned long malformed;
	int have_ts;
	double first_ts, last_ts;	/* of all well-formed event lines */
	/*
	 * full_timeout: waits with a timeout that ran all of it.  A wait
	 * with usec_timeout=0 (folio_wait_writeback() in reclaim or
	 * migration: it has no timeout) is counted in no_timeout instead
	 * and left out of full_timeout_share, whose denominator is
	 * events - no_timeout.
	 */
	unsigned long full_timeout;
	unsigned long no_timeout;
	unsigned long long usec_total;
	struct tracestat_table reasons, classes, tasks;
	long *samples;			/* usec_delayed, sorted by finish */
	size_t nsamples, cap;

	/*
	 * Optional: the same statistics per task name (tracestat_by_comm()),
	 * and waits per time bin (tracestat_series()).
	 */
	int want_by_comm;
	struct tracestat *comms;	/* one accumulator per comm */
	size_t ncomms, comms_cap;
	/*
	 * A comm's accumulator also keeps one per reason (comm.NAME.reason.R.*
	 * rows): a check can read the writer's reason=dirty waits alone.
	 */
	int want_by_reason;
	struct tracestat *by_reason;	/* one accumulator per reason */
	size_t nby_reason, by_reason_cap;
	int want_series;
	double series_start, series_end, series_bin;
	int series_cut;			/* the window was cut to the max */
	unsigned long series_dropped;	/* waits past the max, not binned */
	unsigned long *series_events;
	unsigned long long *series_usec;
	size_t nbins;

	/* writeback completions: not filtered, not kept per task */
	struct completion_stats completions;
	/* memory cgroup reclaim rounds: not filtered, runs kept per pid */
	struct memcg_reclaim_stats memcg_reclaim;

	/* Filled by tracestat_finish(). */
	long pct_usec[TRACESTAT_NPCT];
	long max_usec;
	double full_timeout_share;	/* full_timeout / (events - no_timeout) */
	double duration_s;
	enum tracestat_dur_source dur_source;
	double stalled_ms_per_s;
	unsigned long hist[TRACESTAT_NBUCKETS];
};

void tracestat_init(struct tracestat *ts);
/* reason: a known name or VMSCAN_THROTTLE_*; -1 if not one of them. */
int tracestat_filter_reason(struct tracestat *ts, const char *reason);
/* task: a comm or "comm-pid"; -1 if empty or too long. */
int tracestat_filter_task(struct tracestat *ts, const char *task);
void tracestat_set_duration(struct tracestat *ts, double seconds);
/*
 * Also keep the statistics of each task name (print_tsv: comm.NAME.*), and
 * of each reason of its waits (comm.NAME.reason.REASON.*).
 */
void tracestat_by_comm(struct tracestat *ts);
/*
 * Also count waits and their usec_delayed per bin of bin seconds from
 * start (trace time); bins up to end are printed even when empty.  The
 * completions get a series of their own over the same window.  A window
 * longer than TRACESTAT_SERIES_MAX_S is cut to it (series_cut) and waits
 * later than that are not binned (series_dropped).  0, 1 if the window
 * was cut, -1 if bin is below 0.01 s (too many bins for the max), end is
 * before start, or either is negative or not finite.
 */
int tracestat_series(struct tracestat *ts, double start, double end,
		     double bin);

enum tracestat_kind tracestat_parse_line(const char *line,
					 struct tracestat_event *ev);
/* Returns the line's kind, or -1 (errno ENOMEM) if a sample was lost. */
int tracestat_feed_line(struct tracestat *ts, const char *line);
/*
 * Feeds every line of f until EOF, or until *stop (may be NULL) is set by a
 * signal handler: reading trace_pipe only ends that way.  Returns 0, or -1
 * with errno set on read error (EINTR included) or ENOMEM.
 */
int tracestat_feed_stream(struct tracestat *ts, FILE *f,
			  volatile sig_atomic_t *stop);
void tracestat_finish(struct tracestat *ts);
void tracestat_free(struct tracestat *ts);

/* Iterates CDF points (unique usec_delayed ascending); 0 when done. */
int tracestat_cdf_point(const struct tracestat *ts, size_t *pos,
			long *usec, double *fraction);

void tracestat_print_text(FILE *f, const struct tracestat *ts,
			  const char *source);
void tracestat_print_tsv(FILE *f, const struct tracestat *ts);
void tracestat_print_hist(FILE *f, const struct tracestat *ts);
void tracestat_print_cdf(FILE *f, const struct tracestat *ts);
/*
 * "task<TAB>reason<TAB>usec_delayed<TAB>waits": how many waits of each task
 * name (tracestat_by_comm(); only the header without it) and reason lasted
 * each usec_delayed, by task, reason, then duration.  Counts, not a CDF's
 * rounded fractions: a report pools the runs of a filesystem by adding them.
 */
void tracestat_print_task_waits(FILE *f, const struct tracestat *ts);
/* "start_s<TAB>events<TAB>usec" per bin, seconds from the series start. */
void tracestat_print_series(FILE *f, const struct tracestat *ts);

#endif
