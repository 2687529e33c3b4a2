/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model of a matrix the report is written from: its runs as their
 * folders describe them, and per scenario the aggregate groups, the pairs
 * against the reference mode and the verdicts of the scenario's checks.
 */
#ifndef RECLAIMLAB_REPORT_MODEL_H
#define RECLAIMLAB_REPORT_MODEL_H

#include <stdio.h>

#include "aggregate/aggregate.h"
#include "lib/record.h"
#include "report/markdown.h"
#include "lib/scenario.h"
#include "lib/util.h"

/* the subfolder of a run folder with what the host derived (lib.sh RL_DERIVED) */
#define RL_DERIVED_DIR "derived"
/* the subfolder of a run folder with all the guest wrote (lib.sh RL_GUEST) */
#define RL_GUEST_DIR "guest"


struct model_run {
	/* run.conf, status and the summary joined (record.h); owns the strings below */
	struct record rec;
	const char *name;
	const char *dir;
	const char *scenario, *fs, *mode;	/* from run.conf */
	long repeat;
	char *status;			/* the status file's first line, or ok-but-unsummarized */
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
	struct strv native_kernels;	/* "NAME" of each mode M@NAME run natively */
	const char *ref_mode;		/* the mode the others are compared with */
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
void model_knob_line(const struct report_model *r, const char *scn, const char *mode,
		   FILE *f);
void model_print_params(const struct report_model *r, const struct model_run *run,
		      FILE *f);
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
	struct picture_fs *fs;		/* the matrix's, then the thread's others */
	size_t nfs;
};

/* "fluent", "batched" or "between" for a full-timeout share. */
const char *picture_class(double share);
/* The picture of s, which has a Picture line; free with model_picture_free(). */
void model_picture(const struct report_model *r, const struct model_scenario *s,
		   struct picture *out);
void model_picture_free(struct picture *p);

/*
 * A string as one gnuplot string literal, into buf: single-quoted with '
 * doubled, control characters, bytes past ASCII and ` (command
 * substitution) made '?', cut at GNUPLOT_STRING_MAX characters (and to
 * size).  Returns buf.
 */
#define GNUPLOT_STRING_MAX	400
#define GNUPLOT_QUOTED_SIZE	(2 * GNUPLOT_STRING_MAX + 3)
char *gnuplot_quote(char *buf, size_t size, const char *s);

/* report.c, plots.c, html.c */
int report_markdown(struct report_model *r, FILE *f, FILE *notes);
void plots_section(struct report_model *r, struct model_scenario *s, FILE *f, FILE *notes);
/* plots/SCENARIO.MODE.picture.{svg,png}; its name (without .svg), or NULL */
const char *plot_picture(struct report_model *r, const struct picture *p, char *name,
			 size_t size, FILE *notes);
int report_html(const char *markdown, const char *title, const char *plots_dir,
		FILE *out);


#endif
