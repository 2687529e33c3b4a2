/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of a comparison matrix (rl-report): report.md (markdown.h),
 * report.html (html.h) and the plots (plots.h), written from this model
 * of the matrix: its runs as their folders describe them, and per scenario
 * the aggregate groups, the pairs against the reference mode and the
 * verdicts of the scenario's checks.
 *
 * The model reads only the saved run folders (MATRIX/runs/NAME/: each
 * run's record, lib/record.h: run.conf, status and derived/summary.tsv,
 * joined there; the params, knobs and clock are run.conf's, recorded by
 * run.sh before boot; derived/ files of summarize-run.sh; the guest's
 * kernel-release, workload-seconds and *.progress in guest/, read through
 * lib/guest-read.h), MATRIX/matrix.conf, MATRIX/NAME.err and the scenario
 * files (lib/scenario.h).  The statistics and the checks are
 * aggregate-stats.c's and aggregate-checks.c's; summary rows are read by
 * metric name.  The same runs give the same report.
 */
#ifndef RECLAIMLAB_REPORT_MODEL_H
#define RECLAIMLAB_REPORT_MODEL_H

#include "aggregate/aggregate.h"
#include "lib/record.h"
#include "lib/scenario.h"
#include "lib/util.h"

struct report_opts {
	const char *matrix;		/* the matrix folder */
	const char *scenarios;		/* folder of NAME.scn */
	const char *fs_order;		/* "ext4 xfs ...": the catalogue's order */
	const char *mode_order;		/* "patched vanilla ..." */
	const char *png_term;		/* gnuplot's png terminal, NULL: no plots */
};


struct model_run {
	/* run.conf, status and the summary joined (record.h); owns the strings below */
	struct record rec;
	const char *name;
	const char *dir;
	const char *scenario, *fs;	/* from run.conf */
	/*
	 * the column the run is in: its mode, on a matrix of kernels the mode
	 * on its kernel (record_mode_label()); r->modes lists them
	 */
	char *mode;
	long repeat;
	char *status;			/* its state (record_state()) */
	const char *status_text;	/* the whole status file */
	const char *conf;		/* run.conf, as text */
	char *kernel;			/* kernel-release, NULL if none */
	int summarized;			/* derived/summary.tsv exists */
	/* the matrix's list of guest files refused (struct report_model's refused) */
	struct strv *refused;
};

struct model_verdict {
	const struct agg_check *check;
	struct agg_verdict v;
};

struct model_scenario {
	char *name;
	int have_file;
	struct scenario file;
	struct agg_set set;
	struct agg_group *groups;
	size_t ngroups;
	struct agg_pair *pairs;
	size_t npairs;
	struct agg_check *checks;
	size_t nchecks;
	struct model_verdict *verdicts;
	size_t nverdicts;
};

struct report_model {
	const struct report_opts *o;
	const char *matrix;
	const char *out_dir;		/* where report.md and plots/ go */
	struct model_run *runs;		/* by name */
	size_t nruns;
	size_t interrupted;		/* leftovers of attempts a resume redid */
	struct strv stalls;		/* "RUN (N ticks)" */
	char *conf_text;		/* matrix.conf */
	const char *conf_repeat, *conf_profile, *conf_mem, *conf_timeout;
	const char *conf_sets;
	char *conf_values[6];		/* owned storage of the above */
	struct strv scenarios, fs, modes;
	struct strv native_kernels;	/* the kernels of a matrix run natively */
	const char *ref_mode;		/* the mode (column) the others are compared with */
	struct model_scenario *scn;		/* in scenario order */
	size_t nscn;
	char malformed_note[1024];
	/*
	 * "RUN/guest/FILE: why" of each guest file refused or cut, by the
	 * report or by rl-summarize (its input.* rows); a pointer, so that
	 * questions asked of a const model can still add to it
	 */
	struct strv *refused;
};

/* Reads the matrix; 0, or -1 with a message in err. */
int model_load(struct report_model *r, const struct report_opts *o, const char *out_dir,
	     char *err, size_t errlen);
void model_free(struct report_model *r);

size_t model_count_status(const struct report_model *r, const char *status);
/* Runs of scenario/fs/mode that are ok (ok = 1) or not (ok = 0). */
size_t model_count_runs(const struct report_model *r, const char *scn, const char *fs,
		      const char *mode, int ok);
/* The first ok run of scenario scn, else its first run; NULL if none. */
const struct model_run *model_first_run(const struct report_model *r, const char *scn);
/* Is mode (a column, r->modes) the mode m on kernel k (a group's dimensions)? */
int model_mode_is(const char *mode, const char *m, const char *k);
/*
 * The mode and kernel (RECORD_NO_KERNEL on one kernel) of the column mode;
 * 0, or -1 when no run is in it.
 */
int model_mode_parts(const struct report_model *r, const char *mode, const char **m,
		     const char **k);
/* The group of metric in fs/mode (any profile; the last one found). */
const struct agg_group *model_group(const struct model_scenario *s, const char *fs,
				  const char *mode, const char *metric);
/* Whether two values differ as the tables print them. */
int differ_as_printed(double a, double b);
int model_not_significant(const struct report_model *r, const struct model_scenario *s,
			const char *fs, const char *mode, const char *metric);
/* Adds, sorted, the group metrics PREFIX...SUFFIX (either suffix). */
void model_metrics_like(const struct model_scenario *s, struct strv *out,
		      const char *prefix, const char *suffix,
		      const char *suffix2);
/*
 * Adds the left metric of every verdict: those starting with prefix
 * (with = 1) or the others (with = 0).
 */
void model_check_metrics(const struct model_scenario *s, struct strv *out,
		       const char *prefix, int with);
int model_any_group_max_above(const struct model_scenario *s, const char *metric,
			    double v);
int model_mode_all_absent(const struct report_model *r, const char *mode);
/*
 * Adds "knob=value" of every run of mode (and scenario scn, if not NULL):
 * run.conf's knobs, "absent" for those the kernel lacked, "n/a" for a
 * remount option of another filesystem; *any_file is set if any run was.
 */
void model_knob_lines(const struct report_model *r, const char *scn, const char *mode,
		      struct strv *lines, int *any_file);
/* A compare.sh error line without "reclaimlab: " and a trailing "; .../path". */
void strip_error_line(char *line);
/* The last line of MATRIX/NAME.err, cut for a table; malloc'ed or NULL. */
char *model_run_error(const struct report_model *r, const struct model_run *run);
/* A file the host wrote into a run folder, as text; malloc'ed, NULL if absent. */
char *model_run_file(const struct model_run *run, const char *name);
/*
 * The guest's file RUN/guest/NAME of at most max bytes (guest-read.h), as
 * text; malloc'ed, NULL if absent or refused (then listed in refused).
 */
char *model_guest_file(const struct model_run *run, const char *name, size_t max);
/* The last value of metric in the run's summary rows; NAN if none. */
double model_run_metric(const struct model_run *run, const char *metric);

/*
 * The thread's picture (a scenario's "# Picture:" line): per filesystem,
 * the waits the thread quotes beside the lab's in the picture's mode, each
 * classed by the share that ran the whole timeout, with the thread's
 * thresholds: fluent at most PICTURE_FLUENT_MAX, batched at least
 * PICTURE_BATCHED_MIN, between otherwise.
 */
#define PICTURE_FLUENT_MAX	0.1
#define PICTURE_BATCHED_MIN	0.5
/* the thread's reclaim_wait(HZ/10): a quoted wait this long ran it all */
#define PICTURE_TIMEOUT_USEC	100000L

struct picture_fs {
	const char *fs;
	/* the thread's quoted waits of fs (NULL: none) and what they show */
	const struct scn_thread_waits *thread;
	size_t thread_full;
	long thread_p50_usec;
	double thread_share;
	/*
	 * the lab's runs of the picture's mode on fs: all of them, those not
	 * ok ("NAME status: error", in missing), and of the ok ones those
	 * counted as a check's side counts them (agg_run_counted() for
	 * METRIC.full_timeout_share: not OOM-killed, AGG_MIN_WAITS waits)
	 */
	size_t runs, ok;
	struct strv missing;
	struct strv counted;		/* names of the runs counted */
	size_t left_oom, left_few;
	double few_min, few_max;	/* waits of the runs left_few */
	/* medians over the counted runs (NAN without any), the share's range */
	double events, p50_usec, share, share_min, share_max;
	const char *lacks;		/* the scenario's Lacks of fs, or NULL */
};

struct picture {
	const struct model_scenario *s;
	const struct scn_picture *p;
	/*
	 * the column it shows: the picture's mode, on a matrix of kernels that
	 * mode on the first kernel (in column order) that ran it
	 */
	const char *mode;
	struct picture_fs *fs;		/* the matrix's, then the thread's others */
	size_t nfs;
};

/* "fluent", "batched" or "between" for a full-timeout share. */
const char *picture_class(double share);
/* The picture of s, which has a Picture line; free with model_picture_free(). */
void model_picture(const struct report_model *r, const struct model_scenario *s,
		   struct picture *out);
void model_picture_free(struct picture *p);

#endif
