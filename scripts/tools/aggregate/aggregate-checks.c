// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate-checks: the scenarios' "# Check:" lines, parsed and evaluated
 * over the rows into verdicts (the rules are in aggregate-checks.h).
 */
#include "aggregate/aggregate-checks.h"
#include "lib/cli.h"
#include "lib/record.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS_SUFFIX	".events"

/* ------------------------------------------------------------------ */
/* Checks                                                             */

static const char *const op_names[] = {
	[AGG_LT] = "<", [AGG_LE] = "<=", [AGG_GT] = ">",
	[AGG_GE] = ">=", [AGG_EQ] = "==", [AGG_NE] = "!=",
};

#define OPS_VALID	"< <= > >= == !="
#define SELS_VALID	"fs=X mode=Y"

const char *agg_op_name(enum agg_op op)
{
	return op_names[op];
}


static int parse_op(const char *tok)
{
	size_t i;

	for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (!strcmp(tok, op_names[i]))
			return (int)i;
	return -1;
}

static int check_error(char *err, size_t errlen, const char *fmt,
		       const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, what);
	return -1;
}

/* fs=X or mode=Y into side; -1 with a message if it is neither. */
static int parse_selector(const char *tok, struct agg_side *side, char *err,
			  size_t errlen)
{
	const char *eq = strchr(tok, '=');
	char *dst;

	if (!eq)
		return check_error(err, errlen,
				   "expected a selector, got '%s' (valid: " SELS_VALID ")",
				   tok);
	if ((size_t)(eq - tok) == 2 && !strncmp(tok, "fs", 2))
		dst = side->fs;
	else if ((size_t)(eq - tok) == 4 && !strncmp(tok, "mode", 4))
		dst = side->mode;
	else
		return check_error(err, errlen,
				   "unknown selector '%s' (valid: " SELS_VALID ")",
				   tok);
	if (!eq[1] || strchr(eq + 1, '='))
		return check_error(err, errlen,
				   "bad selector '%s' (valid: " SELS_VALID
				   " with one word after =)", tok);
	if (*dst)
		return check_error(err, errlen,
				   "selector '%s' repeats a dimension of its side (valid: each of "
				   SELS_VALID " once per side)", tok);
	snprintf(dst, AGG_WORD_MAX + 1, "%s", eq + 1);
	return 0;
}

static int is_metric_word(const char *tok)
{
	double v;

	return !strchr(tok, '=') && parse_op(tok) < 0 &&
	       agg_parse_number(tok, &v) < 0;
}

#define MAX_TOKENS	16

int agg_parse_check(const char *text, struct agg_check *c, char *err,
		    size_t errlen)
{
	char buf[AGG_CHECK_MAX + 1], *tok[MAX_TOKENS], *p;
	size_t len, nt = 0, i = 0;
	int op;

	memset(c, 0, sizeof(*c));
	while (*text == ' ' || *text == '\t')
		text++;
	len = strlen(text);
	while (len && strchr(" \t\r\n", text[len - 1]))
		len--;
	if (!len)
		return check_error(err, errlen, "%sempty check (valid: METRIC [fs=X] [mode=Y] OP NUMBER|[METRIC] [fs=X] [mode=Y])", "");
	if (len > AGG_CHECK_MAX)
		return check_error(err, errlen, "check longer than %s characters",
				   "512");
	memcpy(buf, text, len);
	buf[len] = '\0';
	memcpy(c->text, buf, len + 1);
	for (p = strtok(buf, " \t"); p; p = strtok(NULL, " \t")) {
		if (nt == MAX_TOKENS)
			return check_error(err, errlen, "too many words in '%s'",
					   c->text);
		if (strlen(p) > AGG_WORD_MAX)
			return check_error(err, errlen, "word too long: '%s'", p);
		tok[nt++] = p;
	}

	if (!is_metric_word(tok[0]))
		return check_error(err, errlen,
				   "check starts with '%s', not a metric (valid: METRIC [fs=X] [mode=Y] OP ...)",
				   tok[0]);
	snprintf(c->left.metric, sizeof(c->left.metric), "%s", tok[i++]);
	while (i < nt && strchr(tok[i], '=') && parse_op(tok[i]) < 0)
		if (parse_selector(tok[i++], &c->left, err, errlen) < 0)
			return -1;
	if (i == nt)
		return check_error(err, errlen,
				   "no operator in '%s' (valid: " OPS_VALID ", between spaces)",
				   c->text);
	op = parse_op(tok[i]);
	if (op < 0)
		return check_error(err, errlen,
				   "expected an operator, got '%s' (valid: " OPS_VALID ", between spaces)",
				   tok[i]);
	c->op = (enum agg_op)op;
	i++;
	if (i == nt)
		return check_error(err, errlen,
				   "nothing after the operator in '%s' (valid: a NUMBER, or [METRIC] [fs=X] [mode=Y])",
				   c->text);
	if (agg_parse_number(tok[i], &c->right.number) == 0) {
		c->right.is_number = 1;
		if (++i < nt)
			return check_error(err, errlen,
					   "extra word '%s' after the number (valid: NUMBER alone)",
					   tok[i]);
		return 0;
	}
	if (is_metric_word(tok[i]))
		snprintf(c->right.metric, sizeof(c->right.metric), "%s", tok[i++]);
	else
		snprintf(c->right.metric, sizeof(c->right.metric), "%s",
			 c->left.metric);
	for (; i < nt; i++) {
		if (parse_op(tok[i]) >= 0)
			return check_error(err, errlen,
					   "second operator '%s' (valid: one operator per check)",
					   tok[i]);
		if (parse_selector(tok[i], &c->right, err, errlen) < 0)
			return -1;
	}
	return 0;
}

size_t agg_scenario_checks(const struct scenario *scn, struct agg_check **out,
			   char *err, size_t errlen)
{
	char msg[AGG_CHECK_MAX + 64];
	struct agg_check *v;
	size_t i;

	*out = NULL;
	if (!scn->nchecks)
		return 0;
	v = calloc(scn->nchecks, sizeof(*v));
	if (!v) {
		errno = ENOMEM;
		return (size_t)-1;
	}
	for (i = 0; i < scn->nchecks; i++) {
		if (agg_parse_check(scn->checks[i].text, &v[i], msg, sizeof(msg)) < 0) {
			if (err && errlen)
				snprintf(err, errlen, "line %u: %s", scn->checks[i].line, msg);
			free(v);
			errno = EINVAL;
			return (size_t)-1;
		}
	}
	*out = v;
	return scn->nchecks;
}

/* "waits.X.full_timeout_share" and "waits.X.pNN_usec": a wait statistic. */
static int wait_stat_prefix(const char *metric, size_t *plen)
{
	const char *dot = strrchr(metric, '.'), *p;

	if (strncmp(metric, "waits.", 6) || !dot)
		return 0;
	*plen = dot - metric;
	if (!strcmp(dot + 1, "full_timeout_share"))
		return 2;
	if (dot[1] != 'p' || !strchr("0123456789", dot[2]) || !dot[2])
		return 0;
	for (p = dot + 2; *p >= '0' && *p <= '9'; p++)
		;
	return !strcmp(p, "_usec");
}

/*
 * The waits a wait statistic of run r rests on (see AGG_MIN_WAITS): 0 and
 * *count, or -1 when metric is none or its run has no count of them.
 */
static int wait_count(const struct agg_set *s, const struct agg_run *r,
		      const char *metric, double *count)
{
	char name[AGG_LINE_MAX];
	size_t plen;
	int kind = wait_stat_prefix(metric, &plen);
	double none;

	if (!kind || plen + 32 > sizeof(name))
		return -1;
	snprintf(name, sizeof(name), "%.*s.events", (int)plen, metric);
	if (agg_run_value(s, r, name, count) < 0)
		return -1;
	snprintf(name, sizeof(name), "%.*s.no_timeout_events", (int)plen, metric);
	if (kind == 2 && agg_run_value(s, r, name, &none) == 0)
		*count -= none;
	return 0;
}

/* Was r's workload OOM-killed? */
static int oom_killed(const struct agg_set *s, const struct agg_run *r)
{
	double kills;

	return agg_run_value(s, r, AGG_OOM_METRIC, &kills) == 0 && kills > 0;
}

enum agg_counted agg_run_counted(const struct agg_set *s, const struct agg_run *r,
				 const char *metric, double *waits)
{
	if (strcmp(metric, AGG_OOM_METRIC) && oom_killed(s, r))
		return AGG_LEFT_OOM;
	if (wait_count(s, r, metric, waits) == 0 && *waits < AGG_MIN_WAITS)
		return AGG_LEFT_FEW;
	return AGG_COUNTED;
}

/*
 * Sorted unique values of dimension d among the runs of scn, the excluded
 * ones too: a filesystem whose runs all failed is "not measured", not gone.
 */
static size_t dim_values(const struct agg_set *s, const char *scn,
			 enum agg_dim d, const char **vals)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->nruns; i++) {
		const struct agg_run *r = &s->runs[i];
		const char *v = r->dim[d];

		if (r->dim[AGG_SCENARIO] != scn)
			continue;
		for (j = 0; j < n && strcmp(vals[j], v) < 0; j++)
			;
		if (j < n && vals[j] == v)
			continue;
		memmove(vals + j + 1, vals + j, (n - j) * sizeof(*vals));
		vals[j] = v;
		n++;
	}
	return n;
}

/*
 * The kernels of a scenario's runs (their kernel dimension: a name on a
 * matrix of kernels, compare.sh --kernel, else RECORD_NO_KERNEL), sorted,
 * each once.  A check that names modes is evaluated per kernel.
 */
static size_t kernel_values(const struct agg_set *s, const char *scn,
			    const char **vals)
{
	return dim_values(s, scn, AGG_KERNEL, vals);
}

/* A kernel value that names a kernel (not the "-" of one kernel). */
static int names_kernel(const char *kernel)
{
	return kernel && strcmp(kernel, RECORD_NO_KERNEL);
}

/* Did the matrix have a run of scn with this fs, mode and kernel? */
static int have_cell(const struct agg_set *s, const char *scn, const char *fs,
		     const char *mode, const char *kernel)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].dim[AGG_SCENARIO] == scn &&
		    s->runs[i].dim[AGG_FS] == fs && s->runs[i].dim[AGG_MODE] == mode &&
		    s->runs[i].dim[AGG_KERNEL] == kernel)
			return 1;
	return 0;
}

/* Did the matrix have a run of scn with this mode on this kernel? */
static int have_mode_on(const struct agg_set *s, const char *scn, const char *mode,
			const char *kernel)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].dim[AGG_SCENARIO] == scn && s->runs[i].dim[AGG_MODE] == mode &&
		    s->runs[i].dim[AGG_KERNEL] == kernel)
			return 1;
	return 0;
}

/*
 * Do runs a and b differ in a figure they measured?  The host's run.*
 * rows (wall time, status) say nothing of the guest's world, and a metric
 * only one of them has counts as a difference.
 */
static int runs_differ(const struct agg_set *s, const struct agg_run *a,
		       const struct agg_run *b)
{
	size_t i;
	double other;

	for (i = a->first; i < a->last; i++) {
		const struct agg_row *row = &s->rows[i];

		if (!strncmp(row->metric, "run.", 4))
			continue;
		if (agg_run_value(s, b, row->metric, &other) < 0 || other != row->value)
			return 1;
	}
	return 0;
}

/*
 * The side's values in the cell into *vals (malloc'ed, sorted): the runs
 * of the cell's fs and mode, or the side's own, of the cell's kernel.
 */
static int eval_side(const struct agg_set *s, const char *scn,
		     const struct agg_side *side, const char *cell_fs,
		     const char *cell_mode, const char *cell_kernel,
		     struct agg_value *out, double **pvals)
{
	const char *want_fs = *side->fs ? side->fs : cell_fs;
	const char *want_mode = *side->mode ? side->mode : cell_mode;
	double *vals, count;
	const struct agg_run *first = NULL;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	vals = malloc((s->nruns + 1) * sizeof(*vals));
	*pvals = vals;
	if (!vals)
		return -1;
	if (side->is_number) {
		out->n = 1;
		out->median = side->number;
		vals[0] = side->number;
		return 0;
	}
	for (i = 0; i < s->nruns; i++) {
		const struct agg_run *r = &s->runs[i];

		if (r->excluded || r->dim[AGG_SCENARIO] != scn)
			continue;
		if (want_fs && strcmp(r->dim[AGG_FS], want_fs))
			continue;
		if (want_mode && strcmp(r->dim[AGG_MODE], want_mode))
			continue;
		if (cell_kernel && r->dim[AGG_KERNEL] != cell_kernel)
			continue;
		switch (agg_run_counted(s, r, side->metric, &count)) {
		case AGG_LEFT_OOM:
			out->dropped_oom++;
			continue;
		case AGG_LEFT_FEW:
			if (!out->dropped_few++)
				out->few_min = out->few_max = count;
			out->few_min = count < out->few_min ? count : out->few_min;
			out->few_max = count > out->few_max ? count : out->few_max;
			continue;
		case AGG_COUNTED:
			break;
		}
		if (agg_run_value(s, r, side->metric, &vals[n]) == 0) {
			if (!n)
				first = r;
			else if (!out->runs_differ)
				out->runs_differ = runs_differ(s, first, r);
			n++;
		}
	}
	out->n = n;
	if (n) {
		out->median = agg_median(vals, n);
		out->spread = vals[n - 1] - vals[0];
	}
	return 0;
}

enum agg_verdict_kind agg_interval_verdict(enum agg_op op, double lo, double hi)
{
	switch (op) {
	case AGG_GT:
		return lo > 0 ? AGG_REPRODUCED : hi <= 0 ? AGG_NOT_REPRODUCED : AGG_INCONCLUSIVE;
	case AGG_GE:
		return lo >= 0 ? AGG_REPRODUCED : hi < 0 ? AGG_NOT_REPRODUCED : AGG_INCONCLUSIVE;
	case AGG_LT:
		return hi < 0 ? AGG_REPRODUCED : lo >= 0 ? AGG_NOT_REPRODUCED : AGG_INCONCLUSIVE;
	case AGG_LE:
		return hi <= 0 ? AGG_REPRODUCED : lo > 0 ? AGG_NOT_REPRODUCED : AGG_INCONCLUSIVE;
	case AGG_EQ:
		return lo == 0 && hi == 0 ? AGG_REPRODUCED :
		       (lo > 0 || hi < 0) ? AGG_NOT_REPRODUCED : AGG_INCONCLUSIVE;
	case AGG_NE:
		return (lo > 0 || hi < 0) ? AGG_REPRODUCED :
		       lo == 0 && hi == 0 ? AGG_NOT_REPRODUCED : AGG_INCONCLUSIVE;
	}
	return AGG_INCONCLUSIVE;
}

/* Does a OP b hold? */
static int holds(enum agg_op op, double a, double b)
{
	return agg_interval_verdict(op, a - b, a - b) == AGG_REPRODUCED;
}

enum agg_verdict_kind agg_share_verdict(double lo, double hi)
{
	if (lo > AGG_SHARE_MAJORITY)
		return AGG_REPRODUCED;
	if (hi < AGG_SHARE_MAJORITY)
		return AGG_NOT_REPRODUCED;
	return AGG_INCONCLUSIVE;
}

/* A metric that counts events: how many, or whether any, per run. */
static int count_metric(const char *m)
{
	size_t len = strlen(m), el = strlen(EVENTS_SUFFIX);

	if (!strcmp(m, AGG_OOM_METRIC) || !strncmp(m, "counter.", 8))
		return 1;
	return !strncmp(m, "waits.", 6) && len > el &&
	       !strcmp(m + len - el, EVENTS_SUFFIX);
}

int agg_count_check(const struct agg_check *c)
{
	return c->right.is_number && count_metric(c->left.metric);
}

/* The verdict of one cell, from both sides' values. */
static int decide(const struct agg_check *c, struct agg_verdict *v,
		  const double *lv, const double *rv)
{
	size_t i;

	if (!v->left.n || !v->right.n) {
		v->kind = AGG_NOT_MEASURED;
		return 0;
	}
	if (agg_count_check(c)) {
		v->is_count = 1;
		for (i = 0; i < v->left.n; i++)
			v->hits += holds(c->op, lv[i], c->right.number);
		agg_wilson(v->hits, v->left.n, &v->share_lo, &v->share_hi);
	}
	if (v->left.n < AGG_MIN_RUNS ||
	    (!c->right.is_number && v->right.n < AGG_MIN_RUNS)) {
		v->kind = AGG_NOT_ENOUGH_RUNS;
		return 0;
	}
	if (v->is_count) {
		v->kind = agg_share_verdict(v->share_lo, v->share_hi);
		return 0;
	}
	v->has_diff = 1;
	v->diff = v->left.median - v->right.median;
	if (v->left.spread == 0 && v->right.spread == 0) {
		/*
		 * Against a number, runs that differed in other figures but
		 * gave this one the same value are seeds that agree: judged as
		 * a count outcome is, by the share of seeds in which the check
		 * held.  Runs identical in everything are one run said n
		 * times, and decide nothing.
		 */
		if (c->right.is_number && v->left.runs_differ) {
			v->is_count = 1;
			for (i = 0; i < v->left.n; i++)
				v->hits += holds(c->op, lv[i], c->right.number);
			agg_wilson(v->hits, v->left.n, &v->share_lo, &v->share_hi);
			v->kind = agg_share_verdict(v->share_lo, v->share_hi);
			return 0;
		}
		v->kind = AGG_NO_VARIATION;
		return 0;
	}
	if (agg_bootstrap_diff(lv, v->left.n, rv, v->right.n, &v->lo, &v->hi) < 0)
		return -1;
	v->has_interval = 1;
	v->kind = agg_interval_verdict(c->op, v->lo, v->hi);
	return 0;
}

size_t agg_eval_check(const struct agg_set *s, const char *scenario,
		      const struct agg_check *c, struct agg_verdict **out)
{
	const char *scn = agg_interned(s, scenario);
	const char **fs_vals = NULL, **mode_vals = NULL, **kernel_vals = NULL;
	size_t nfs = 1, nmode = 1, nkernel = 1, i, j, k, n = 0;
	struct agg_verdict *v = NULL;

	*out = NULL;
	fs_vals = malloc((s->nruns + 1) * sizeof(*fs_vals));
	mode_vals = malloc((s->nruns + 1) * sizeof(*mode_vals));
	kernel_vals = malloc((s->nruns + 1) * sizeof(*kernel_vals));
	if (!fs_vals || !mode_vals || !kernel_vals)
		goto nomem;
	fs_vals[0] = mode_vals[0] = kernel_vals[0] = NULL;
	if (scn && !*c->left.fs && !*c->right.fs)
		nfs = dim_values(s, scn, AGG_FS, fs_vals);
	if (scn && !*c->left.mode && !*c->right.mode)
		nmode = dim_values(s, scn, AGG_MODE, mode_vals);
	if (scn)
		nkernel = kernel_values(s, scn, kernel_vals);
	v = calloc(nfs * nmode * nkernel + 1, sizeof(*v));
	if (!v)
		goto nomem;
	for (i = 0; scn && i < nfs; i++) {
		for (j = 0; j < nmode; j++) {
			for (k = 0; k < nkernel; k++) {
				struct agg_verdict *cur;
				size_t used = 0;

				if (fs_vals[i] && mode_vals[j] &&
				    !have_cell(s, scn, fs_vals[i], mode_vals[j], kernel_vals[k]))
					continue;
				if (!fs_vals[i] && mode_vals[j] &&
				    !have_mode_on(s, scn, mode_vals[j], kernel_vals[k]))
					continue;
				cur = &v[n++];

				if (fs_vals[i])
					used += snprintf(cur->where, sizeof(cur->where),
							 "fs=%s", fs_vals[i]);
				if (mode_vals[j])
					used += snprintf(cur->where + used, sizeof(cur->where) - used,
							 "%smode=%s", used ? " " : "", mode_vals[j]);
				/* the place: the where without its kernel */
				memcpy(cur->place, cur->where, sizeof(cur->place));
				if (names_kernel(kernel_vals[k])) {
					snprintf(cur->kernel, sizeof(cur->kernel), "%s", kernel_vals[k]);
					/* shown as the mode on its kernel, else as the cell's kernel */
					if (mode_vals[j])
						snprintf(cur->where + used, sizeof(cur->where) - used,
							 "@%s", kernel_vals[k]);
					else
						snprintf(cur->where + used, sizeof(cur->where) - used,
							 "%skernel=%s", used ? " " : "", kernel_vals[k]);
				}
				if (!*cur->where)
					snprintf(cur->where, sizeof(cur->where), "all");
				{
					double *lv = NULL, *rv = NULL;
					int bad = eval_side(s, scn, &c->left, fs_vals[i], mode_vals[j],
							    kernel_vals[k], &cur->left, &lv) < 0 ||
						  eval_side(s, scn, &c->right, fs_vals[i], mode_vals[j],
							    kernel_vals[k], &cur->right, &rv) < 0 ||
						  decide(c, cur, lv, rv) < 0;

					free(lv);
					free(rv);
					if (bad)
						goto nomem;
				}
			}
		}
	}
	if (!n) {	/* no run of the scenario: say so once */
		snprintf(v[0].where, sizeof(v[0].where), "no runs");
		v[0].kind = AGG_NOT_MEASURED;
		n = 1;
	}
	free(fs_vals);
	free(mode_vals);
	free(kernel_vals);
	*out = v;
	return n;
nomem:
	free(fs_vals);
	free(mode_vals);
	free(kernel_vals);
	free(v);
	return (size_t)-1;
}

/*
 * What a verdict says of the check for comparing kernels: reproduced, not
 * reproduced, or -1 if it decided nothing.  Runs without variation decide
 * by their values: under the cpu clock a lab kernel often gives the same
 * figure in every seed, where a native kernel varies.
 */
static int outcome(const struct agg_check *c, const struct agg_verdict *v)
{
	if (v->kind == AGG_REPRODUCED || v->kind == AGG_NOT_REPRODUCED)
		return v->kind;
	if (v->kind == AGG_NO_VARIATION && v->has_diff)
		return holds(c->op, v->left.median, v->right.median) ?
		       AGG_REPRODUCED : AGG_NOT_REPRODUCED;
	return -1;
}

static int is_native(const char *kernel, const char *const *native,
		     size_t nnative)
{
	size_t k;

	for (k = 0; k < nnative; k++)
		if (!strcmp(native[k], kernel))
			return 1;
	return 0;
}

size_t agg_mark_native(const struct agg_check *c, struct agg_verdict *v,
		       size_t n, const char *const *native, size_t nnative)
{
	size_t i, j, marked = 0;

	for (i = 0; i < n; i++)
		v[i].native_differs = 0;
	for (i = 0; i < n; i++) {
		int oi = outcome(c, &v[i]), oj;

		if (!*v[i].kernel || oi < 0 || is_native(v[i].kernel, native, nnative))
			continue;
		for (j = 0; j < n && !v[i].native_differs; j++) {
			oj = outcome(c, &v[j]);
			if (j == i || oj < 0 || oj == oi)
				continue;
			if (strcmp(v[i].place, v[j].place) ||
			    !is_native(v[j].kernel, native, nnative))
				continue;
			v[i].native_differs = 1;
			v[i].native_kind = v[j].kind;
			v[i].native_outcome = (enum agg_verdict_kind)oj;
			memcpy(v[i].native_kernel, v[j].kernel, sizeof(v[i].native_kernel));
			marked++;
		}
	}
	return marked;
}

const char *agg_verdict_name(enum agg_verdict_kind k)
{
	switch (k) {
	case AGG_REPRODUCED:
		return "reproduced";
	case AGG_NOT_REPRODUCED:
		return "not reproduced";
	case AGG_INCONCLUSIVE:
		return "inconclusive";
	case AGG_NO_VARIATION:
		return "not enough variation to judge";
	case AGG_NOT_ENOUGH_RUNS:
		return "not enough runs";
	case AGG_NOT_MEASURED:
		return "not measured";
	case AGG_NVERDICTS:
		break;
	}
	return "?";
}

/* ------------------------------------------------------------------ */
/* Output                                                             */

static void format_side(char *med, char *n, char *sp, size_t size,
			const struct agg_side *side,
			const struct agg_value *val)
{
	if (side->is_number) {
		agg_format(med, size, side->number);
		snprintf(n, size, "-");
		snprintf(sp, size, "-");
	} else if (!val->n) {
		snprintf(med, size, "-");
		snprintf(n, size, "0");
		snprintf(sp, size, "-");
	} else {
		agg_format(med, size, val->median);
		snprintf(n, size, "%zu", val->n);
		agg_format(sp, size, val->spread);
	}
}

/* Appends printf-style text to buf at *used, truncating at size. */
static void note_add(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void note_add(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

/* "N waits < minimum M": why a side without runs was not measured. */
static void few_waits(char *buf, size_t size, size_t *used,
		      const struct agg_value *val)
{
	char lo[32], hi[32];

	agg_format(lo, sizeof(lo), val->few_min);
	agg_format(hi, sizeof(hi), val->few_max);
	if (val->few_min == val->few_max)
		note_add(buf, size, used, "%s waits < minimum %d", hi, AGG_MIN_WAITS);
	else
		note_add(buf, size, used, "%s to %s waits < minimum %d", lo, hi,
			 AGG_MIN_WAITS);
}

/* "left side not measured[: N waits < minimum M]" */
static void side_missing(char *buf, size_t size, size_t *used,
			 const char *name, const struct agg_value *val)
{
	note_add(buf, size, used, "%s side not measured", name);
	if (val->dropped_few) {
		note_add(buf, size, used, ": ");
		few_waits(buf, size, used, val);
	}
}

/* The runs a side dropped, after the rest of the note. */
static void dropped_note(char *buf, size_t size, size_t *used,
			 const char *name, const struct agg_value *val,
			 int both)
{
	const char *side = both ? name : "";
	const char *sep = both ? " side: " : "";

	if (val->dropped_oom)
		note_add(buf, size, used, "; %s%s%zu OOM-killed run%s dropped", side, sep,
			 val->dropped_oom, val->dropped_oom > 1 ? "s" : "");
	if (val->dropped_few && val->n) {
		note_add(buf, size, used, "; %s%s%zu run%s dropped: ", side, sep,
			 val->dropped_few, val->dropped_few > 1 ? "s" : "");
		few_waits(buf, size, used, val);
	}
}

/*
 * "OOM kill in 4 of 10 seeds (95% CI 0.17-0.69)": the share of the runs
 * (each repeat its own seed) in which a count outcome held.
 */
static void share_note(const struct agg_check *c, const struct agg_verdict *v,
		       char *buf, size_t size, size_t *used)
{
	const char *what = NULL;
	char num[32];

	if (!strcmp(c->left.metric, AGG_OOM_METRIC)) {
		if (holds(c->op, 1, c->right.number) && !holds(c->op, 0, c->right.number))
			what = "OOM kill";
		else if (holds(c->op, 0, c->right.number) && !holds(c->op, 1, c->right.number))
			what = "no OOM kill";
	}
	if (what) {
		note_add(buf, size, used, "%s", what);
	} else {
		agg_format(num, sizeof(num), c->right.number);
		note_add(buf, size, used, "%s %s %s", c->left.metric, agg_op_name(c->op), num);
	}
	note_add(buf, size, used, " in %zu of %zu seeds (95%% CI %.2f-%.2f)", v->hits,
		 v->left.n, v->share_lo, v->share_hi);
}

void agg_verdict_note(const struct agg_check *c, const struct agg_verdict *v,
		      char *buf, size_t size)
{
	char d[32], lo[32], hi[32];
	size_t used = 0;
	int both = !c->right.is_number;

	if (size)
		buf[0] = '\0';
	if (v->kind == AGG_NOT_MEASURED) {
		const struct agg_value *l = &v->left, *r = &v->right;

		if (!strcmp(v->where, "no runs")) {
			note_add(buf, size, &used, "no run of the scenario");
			return;
		}
		if (!l->n && !r->n && !l->dropped_few && !r->dropped_few) {
			note_add(buf, size, &used, "neither side measured");
		} else {
			if (!l->n)
				side_missing(buf, size, &used, "left", l);
			if (!r->n) {
				if (used)
					note_add(buf, size, &used, "; ");
				side_missing(buf, size, &used, "right", r);
			}
		}
	} else if (v->is_count) {
		share_note(c, v, buf, size, &used);
		if (v->kind == AGG_NOT_ENOUGH_RUNS)
			note_add(buf, size, &used, "; a verdict needs %d runs a side (--repeat %d)",
				 AGG_MIN_RUNS, AGG_MIN_RUNS);
	} else if (v->kind == AGG_NOT_ENOUGH_RUNS) {
		note_add(buf, size, &used, "a verdict needs %d runs a side (--repeat %d)",
			 AGG_MIN_RUNS, AGG_MIN_RUNS);
	} else if (v->kind == AGG_NO_VARIATION) {
		agg_format(d, sizeof(d), v->diff);
		note_add(buf, size, &used,
			 "difference %s, no interval: every run%s gave the same value (spread 0), so nothing varied to judge it by; the check %s on these values",
			 d, both ? " of each side" : "",
			 holds(c->op, v->left.median, v->right.median) ? "holds" : "fails");
	} else {
		agg_format(d, sizeof(d), v->diff);
		agg_format(lo, sizeof(lo), v->lo);
		agg_format(hi, sizeof(hi), v->hi);
		note_add(buf, size, &used, "difference %s [95%% CI %s, %s]", d, lo, hi);
	}
	dropped_note(buf, size, &used, "left", &v->left, both);
	if (both)
		dropped_note(buf, size, &used, "right", &v->right, both);
}

void agg_print_verdicts(FILE *f, const char *scenario,
			const struct agg_check *c,
			const struct agg_verdict *v, size_t n)
{
	char lm[32], ln[32], ls[32], rm[32], rn[32], rs[32], note[320];
	size_t i;

	for (i = 0; i < n; i++) {
		agg_verdict_note(c, &v[i], note, sizeof(note));
		format_side(lm, ln, ls, sizeof(lm), &c->left, &v[i].left);
		format_side(rm, rn, rs, sizeof(rm), &c->right, &v[i].right);
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			scenario, c->text, v[i].where,
			agg_verdict_name(v[i].kind), lm, ln, ls,
			agg_op_name(c->op), rm, rn, rs, note);
	}
}

/* ------------------------------------------------------------------ */
/* One verdict                                                        */

/*
 * The distinct values of dimension d among the runs of scn (excluded ones
 * too), in the order first seen, as "a b c" into buf (truncated at size);
 * returns how many.
 */
static size_t value_list(const struct agg_set *s, const char *scn,
			 enum agg_dim d, char *buf, size_t size)
{
	size_t i, j, n = 0, used = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < s->nruns; i++) {
		const char *v = s->runs[i].dim[d];
		int seen = 0;

		if (s->runs[i].dim[AGG_SCENARIO] != scn)
			continue;
		/* seen before: the same value in an earlier run */
		for (j = 0; j < i && !seen; j++)
			seen = s->runs[j].dim[AGG_SCENARIO] == scn && s->runs[j].dim[d] == v;
		if (seen)
			continue;
		if (used < size) {
			int k = snprintf(buf + used, size - used, "%s%s", n ? " " : "", v);

			used += k > 0 ? (size_t)k : 0;
		}
		n++;
	}
	return n;
}

/* Has a run of scn the value want in dimension d (a mode on any kernel)? */
static int has_value(const struct agg_set *s, const char *scn, enum agg_dim d,
		     const char *want)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].dim[AGG_SCENARIO] == scn && !strcmp(s->runs[i].dim[d], want))
			return 1;
	return 0;
}

/* "check 'T' names fs=X, which no run of S has (valid: ...)" for a side. */
static int named_values_exist(const struct agg_set *s, const char *scenario,
			      const char *scn, const struct agg_check *c,
			      const struct agg_side *side, char *err, size_t errlen)
{
	static const enum agg_dim dims[] = { AGG_FS, AGG_MODE };
	char list[512];
	size_t k;

	for (k = 0; k < 2; k++) {
		const char *want = dims[k] == AGG_FS ? side->fs : side->mode;
		const char *name = agg_dim_names[dims[k]];

		if (!*want || has_value(s, scn, dims[k], want))
			continue;
		value_list(s, scn, dims[k], list, sizeof(list));
		cli_fail(err, errlen,
			 "check '%s' names %s=%s, which no run of scenario %s has (valid: %s=X with X one of: %s)",
			 c->text, name, want, scenario, name, list);
		return -1;
	}
	return 0;
}

int agg_one_verdict(const struct agg_set *s, const char *scenario,
		    const struct agg_check *c, const struct agg_verdict *v, size_t n,
		    char *err, size_t errlen)
{
	const char *scn = agg_interned(s, scenario), **vals;
	char fs[512], modes[512], kernels[512], msg[1536], example[AGG_CHECK_MAX + 128];
	size_t nfs = 0, nmode = 0, nkernel, used = 0, i;

	if (!scn)	/* no run of the scenario: one verdict, "not measured" */
		return n == 1 ? 0 : cli_fail(err, errlen, "no run of scenario %s", scenario);
	if (named_values_exist(s, scenario, scn, c, &c->left, err, errlen) < 0 ||
	    (!c->right.is_number &&
	     named_values_exist(s, scenario, scn, c, &c->right, err, errlen) < 0))
		return -1;
	if (n == 1)
		return 0;
	/* the dimensions it is evaluated over (agg_eval_check) with 2+ values */
	if (!*c->left.fs && !*c->right.fs)
		nfs = value_list(s, scn, AGG_FS, fs, sizeof(fs));
	if (!*c->left.mode && !*c->right.mode)
		nmode = value_list(s, scn, AGG_MODE, modes, sizeof(modes));
	vals = malloc((s->nruns + 1) * sizeof(*vals));
	if (!vals) {
		errno = ENOMEM;
		return -1;
	}
	nkernel = kernel_values(s, scn, vals);
	kernels[0] = '\0';
	for (i = 0; i < nkernel; i++)
		note_add(kernels, sizeof(kernels), &used, "%s%s", i ? " " : "",
			 names_kernel(vals[i]) ? vals[i] : "(none)");
	free(vals);
	used = 0;
	note_add(msg, sizeof(msg), &used, "check '%s' gives %zu verdicts over the runs of scenario %s (",
		 c->text, n, scenario);
	for (i = 0; i < n; i++)
		note_add(msg, sizeof(msg), &used, "%s%s", i ? "; " : "", v[i].where);
	note_add(msg, sizeof(msg), &used, "), not one: one for each");
	if (nfs > 1)
		note_add(msg, sizeof(msg), &used, " fs (%s)", fs);
	if (nmode > 1)
		note_add(msg, sizeof(msg), &used, "%s mode (%s)", nfs > 1 ? " and" : "", modes);
	if (nkernel > 1)
		note_add(msg, sizeof(msg), &used, "%s kernel (%s)",
			 nfs > 1 || nmode > 1 ? " and" : "", kernels);
	if (nfs <= 1 && nmode <= 1 && nkernel <= 1)
		note_add(msg, sizeof(msg), &used, " place above");
	if (nfs > 1 || nmode > 1) {
		note_add(msg, sizeof(msg), &used, "; name %s%s%s in the check",
			 nfs > 1 ? "fs=X" : "", nfs > 1 && nmode > 1 ? " and " : "",
			 nmode > 1 ? "mode=Y" : "");
		if (c->right.is_number) {
			/* the selectors right after the metric, the rest as written */
			snprintf(example, sizeof(example), "%s%s%.*s%s%.*s%s", c->left.metric,
				 nfs > 1 ? " fs=" : "", nfs > 1 ? (int)strcspn(fs, " ") : 0, fs,
				 nmode > 1 ? " mode=" : "",
				 nmode > 1 ? (int)strcspn(modes, " ") : 0, modes,
				 c->text + strlen(c->left.metric));
			note_add(msg, sizeof(msg), &used, " (e.g. '%s')", example);
		} else {
			note_add(msg, sizeof(msg), &used, ", on both sides");
		}
	}
	if (nkernel > 1)
		note_add(msg, sizeof(msg), &used,
			 "; a check cannot name a kernel: judge the runs of one kernel");
	return cli_fail(err, errlen, "%s", msg);
}
