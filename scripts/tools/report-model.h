/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model of a matrix the report is written from: its runs as their
 * folders describe them, and per scenario the aggregate groups, the pairs
 * against the reference mode and the verdicts of the scenario's checks.
 */
#ifndef RECLAIMLAB_REPORT_MODEL_H
#define RECLAIMLAB_REPORT_MODEL_H

#include <stdio.h>

#include "aggregate.h"
#include "record.h"
#include "report.h"
#include "scenario.h"

/* the subfolder of a run folder with what the host derived (lib.sh RL_DERIVED) */
#define RL_DERIVED_DIR "derived"
/* the subfolder of a run folder with all the guest wrote (lib.sh RL_GUEST) */
#define RL_GUEST_DIR "guest"

/* A list of owned strings. */
struct strv {
	char **v;
	size_t n, cap;
};

void strv_push(struct strv *s, const char *x);
void strv_add_unique(struct strv *s, const char *x);
int strv_has(const struct strv *s, const char *x);
void strv_sort(struct strv *s);
void strv_print(FILE *f, const struct strv *s, const char *sep);
void strv_free(struct strv *s);
/* Drops the entries that start with prefix. */
void strv_remove_prefix(struct strv *s, const char *prefix);
/* The words of text (split at blanks and commas) appended. */
void strv_split(struct strv *s, const char *text);

struct rep_run {
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
	/* the matrix's list of guest files refused (struct rep's refused) */
	struct strv *refused;
};

struct rep_verdict {
	const struct agg_check *check;
	struct agg_verdict v;
};

struct rep_scn {
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
	struct rep_verdict *verdicts;
	size_t nverdicts;
};

struct rep {
	const struct rep_opts *o;
	const char *matrix;
	const char *out_dir;		/* where report.md and plots/ go */
	struct rep_run *runs;		/* by name */
	size_t nruns;
	size_t interrupted;		/* leftovers of attempts a resume redid */
	struct strv stalls;		/* "RUN (N ticks)" */
	char *conf_text;		/* matrix.conf */
	const char *conf_repeat, *conf_profile, *conf_mem, *conf_timeout;
	const char *conf_sets;
	char *conf_values[6];		/* owned storage of the above */
	struct strv scenarios, fs, modes;
	const char *ref_mode;		/* the mode the others are compared with */
	struct rep_scn *scn;		/* in scenario order */
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
int rep_load(struct rep *r, const struct rep_opts *o, const char *out_dir,
	     char *err, size_t errlen);
void rep_free(struct rep *r);

size_t rep_count_status(const struct rep *r, const char *status);
/* Runs of scenario/fs/mode that are ok (ok = 1) or not (ok = 0). */
size_t rep_count_runs(const struct rep *r, const char *scn, const char *fs,
		      const char *mode, int ok);
/* The first ok run of scenario scn, else its first run; NULL if none. */
const struct rep_run *rep_first_run(const struct rep *r, const char *scn);
/* The group of metric in fs/mode (any profile; the last one found). */
const struct agg_group *rep_group(const struct rep_scn *s, const char *fs,
				  const char *mode, const char *metric);
/* Whether two values differ as the tables print them. */
int rep_formatted_differ(double a, double b);
int rep_not_significant(const struct rep *r, const struct rep_scn *s,
			const char *fs, const char *mode, const char *metric);
/* Adds, sorted, the group metrics PREFIX...SUFFIX (either suffix). */
void rep_metrics_like(const struct rep_scn *s, struct strv *out,
		      const char *prefix, const char *suffix,
		      const char *suffix2);
/*
 * Adds the left metric of every verdict: those starting with prefix
 * (with = 1) or the others (with = 0).
 */
void rep_check_metrics(const struct rep_scn *s, struct strv *out,
		       const char *prefix, int with);
int rep_any_group_max_above(const struct rep_scn *s, const char *metric,
			    double v);
int rep_mode_all_absent(const struct rep *r, const char *mode);
void rep_knob_line(const struct rep *r, const char *scn, const char *mode,
		   FILE *f);
void rep_print_params(const struct rep *r, const struct rep_run *run,
		      FILE *f);
/* The last line of MATRIX/NAME.err, cut for a table; malloc'ed or NULL. */
char *rep_err_of(const struct rep *r, const struct rep_run *run);
/* A file the host wrote into a run folder, as text; malloc'ed, NULL if absent. */
char *rep_run_file(const struct rep_run *run, const char *name);
/*
 * The guest's file RUN/guest/NAME of at most max bytes (guest-read.h), as
 * text; malloc'ed, NULL if absent or refused (then listed in refused).
 */
char *rep_guest_file(const struct rep_run *run, const char *name, size_t max);
/* The last value of metric in the run's summary rows; NAN if none. */
double rep_run_metric(const struct rep_run *run, const char *metric);

/*
 * A string as one gnuplot string literal, into buf: single-quoted with '
 * doubled, control characters, bytes past ASCII and ` (command
 * substitution) made '?', cut at REP_GP_STRING_MAX characters (and to
 * size).  Returns buf.
 */
#define REP_GP_STRING_MAX	400
#define REP_GP_QUOTED_SIZE	(2 * REP_GP_STRING_MAX + 3)
char *rep_gp_quote(char *buf, size_t size, const char *s);

/* report.c, plots.c, html.c */
int report_markdown(struct rep *r, FILE *f, FILE *notes);
void rep_plots_section(struct rep *r, struct rep_scn *s, FILE *f, FILE *notes);
int report_html(const char *markdown, const char *title, const char *plots_dir,
		FILE *out);

/*
 * The next line of the text at *p, its newline cut off in place, and *p
 * moved past it; NULL at the end (or for a NULL *p).
 */
char *rep_next_line(char **p);
/* Reads a whole file; malloc'ed and NUL-terminated, NULL if it cannot. */
char *rep_read_file(const char *path, size_t *len);
void *rep_xmalloc(size_t n);
char *rep_xstrdup(const char *s);

#endif
