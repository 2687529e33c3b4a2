// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate: statistics over the summary rows of a comparison matrix.
 * See aggregate.h for the rules.
 */
#include "aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const agg_dim_names[AGG_NDIMS] = {
	"scenario", "fs", "profile", "mode",
};

#define STATUS_METRIC	"run.status"
#define EVENTS_METRIC	"waits.events"
#define TASK_PREFIX	"waits.task."
#define EVENTS_SUFFIX	".events"

/* ------------------------------------------------------------------ */
/* Interned strings                                                   */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot of s, or of the empty slot where it would go. */
static size_t strtab_slot(const struct agg_strtab *t, const char *s)
{
	size_t i = (size_t)hash_str(s) & (t->cap - 1);

	while (t->v[i] && strcmp(t->v[i], s))
		i = (i + 1) & (t->cap - 1);
	return i;
}

static const char *strtab_find(const struct agg_strtab *t, const char *s)
{
	if (!t->cap)
		return NULL;
	return t->v[strtab_slot(t, s)];
}

static int strtab_grow(struct agg_strtab *t)
{
	struct agg_strtab bigger;
	size_t i;

	bigger.cap = t->cap ? t->cap * 2 : 64;
	bigger.n = t->n;
	bigger.v = calloc(bigger.cap, sizeof(*bigger.v));
	if (!bigger.v)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->v[i])
			bigger.v[strtab_slot(&bigger, t->v[i])] = t->v[i];
	free(t->v);
	*t = bigger;
	return 0;
}

/* The one copy of s[0..len); NULL on ENOMEM. */
static const char *strtab_intern(struct agg_strtab *t, const char *s,
				 size_t len)
{
	char *copy;
	size_t slot;

	copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	if ((t->n + 1) * 2 > t->cap && strtab_grow(t) < 0) {
		free(copy);
		return NULL;
	}
	slot = strtab_slot(t, copy);
	if (t->v[slot]) {
		free(copy);
		return t->v[slot];
	}
	t->v[slot] = copy;
	t->n++;
	return copy;
}

static void strtab_free(struct agg_strtab *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free((char *)t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Grows *v (of *cap elements of size) to hold n + 1; -1 on ENOMEM. */
static int reserve(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Reading rows                                                       */

void agg_init(struct agg_set *s)
{
	memset(s, 0, sizeof(*s));
}

void agg_free(struct agg_set *s)
{
	strtab_free(&s->strings);
	free(s->runs);
	free(s->rows);
	free(s->wanted);
	memset(s, 0, sizeof(*s));
}

int agg_only_scenario(struct agg_set *s, const char *scenario)
{
	size_t len = strlen(scenario);

	if (!len || len > AGG_WORD_MAX)
		return -1;
	s->only_scenario = strtab_intern(&s->strings, scenario, len);
	if (!s->only_scenario) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int agg_want_metric(struct agg_set *s, const char *metric)
{
	const char *m = strtab_intern(&s->strings, metric, strlen(metric));
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < s->nwanted; i++)
		if (s->wanted[i] == m)
			return 0;
	if (reserve((void **)&s->wanted, &s->wanted_cap, s->nwanted,
		    sizeof(*s->wanted)) < 0)
		return -1;
	s->wanted[s->nwanted++] = m;
	return 0;
}

static int malformed(struct agg_set *s, const char *why)
{
	if (!s->malformed) {
		snprintf(s->first_error, sizeof(s->first_error), "%s", why);
		s->first_error_line = s->lines;
	}
	s->malformed++;
	return AGG_MALFORMED;
}

/* A positive whole number of at most 9 digits. */
static int parse_repeat(const char *p, size_t len, long *out)
{
	long v = 0;
	size_t i;

	if (!len || len > 9)
		return -1;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	if (v < 1)
		return -1;
	*out = v;
	return 0;
}

/* A finite number taking the whole string. */
static int parse_number(const char *p, double *out)
{
	char *end;
	double v;

	if (!*p || *p == ' ' || *p == '\t')
		return -1;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || *end || !isfinite(v) || errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

/* The run of this name, created with these fields; -1 ENOMEM, -2 clash. */
static long find_run(struct agg_set *s, const char *name,
		     const char *const dim[AGG_NDIMS], long repeat)
{
	size_t hint = s->run_hint;	/* rows of one run come together */
	struct agg_run *r;
	size_t i;
	int d;

	if (hint < s->nruns && s->runs[hint].name == name) {
		i = hint;
	} else {
		for (i = 0; i < s->nruns; i++)
			if (s->runs[i].name == name)
				break;
	}
	if (i < s->nruns) {
		r = &s->runs[i];
		for (d = 0; d < AGG_NDIMS; d++)
			if (r->dim[d] != dim[d])
				return -2;
		if (r->repeat != repeat)
			return -2;
		s->run_hint = i;
		return (long)i;
	}
	if (reserve((void **)&s->runs, &s->runs_cap, s->nruns,
		    sizeof(*s->runs)) < 0)
		return -1;
	r = &s->runs[s->nruns];
	memset(r, 0, sizeof(*r));
	r->name = name;
	for (d = 0; d < AGG_NDIMS; d++)
		r->dim[d] = dim[d];
	r->repeat = repeat;
	s->run_hint = s->nruns;
	return (long)s->nruns++;
}

int agg_feed_line(struct agg_set *s, const char *line)
{
	const char *field[8], *p, *tab, *name, *dim[AGG_NDIMS], *metric;
	size_t flen[8], len, nf = 0;
	long repeat, run;
	double value;
	char valbuf[AGG_LINE_MAX];
	int d;

	s->lines++;
	len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len || line[0] == '#')
		return AGG_IGNORED;
	if (len >= AGG_LINE_MAX)
		return malformed(s, "line too long");
	for (p = line; nf < 8; p = tab + 1) {
		tab = memchr(p, '\t', (size_t)(line + len - p));
		field[nf] = p;
		flen[nf] = tab ? (size_t)(tab - p) : (size_t)(line + len - p);
		if (!flen[nf])
			return malformed(s, "empty field");
		nf++;
		if (!tab)
			break;
	}
	if (nf != 8 || field[7] + flen[7] != line + len)
		return malformed(s, "not 8 tab-separated fields");
	if (parse_repeat(field[5], flen[5], &repeat) < 0)
		return malformed(s, "repeat is not a positive number");

	name = strtab_intern(&s->strings, field[0], flen[0]);
	if (!name)
		goto nomem;
	for (d = 0; d < AGG_NDIMS; d++) {
		dim[d] = strtab_intern(&s->strings, field[1 + d], flen[1 + d]);
		if (!dim[d])
			goto nomem;
	}
	if (s->only_scenario && dim[AGG_SCENARIO] != s->only_scenario) {
		s->other_scenario++;
		return AGG_IGNORED;
	}
	metric = strtab_intern(&s->strings, field[6], flen[6]);
	if (!metric)
		goto nomem;
	run = find_run(s, name, dim, repeat);
	if (run == -1)
		goto nomem;
	if (run == -2)
		return malformed(s, "run fields differ from its earlier rows");

	memcpy(valbuf, field[7], flen[7]);
	valbuf[flen[7]] = '\0';
	if (parse_number(valbuf, &value) < 0) {
		if (!strcmp(metric, STATUS_METRIC)) {
			s->runs[run].status = strtab_intern(&s->strings, valbuf,
							    flen[7]);
			if (!s->runs[run].status)
				goto nomem;
		} else {
			s->text++;
		}
		return AGG_TEXT;
	}
	if (reserve((void **)&s->rows, &s->rows_cap, s->nrows,
		    sizeof(*s->rows)) < 0)
		goto nomem;
	s->rows[s->nrows].run = (size_t)run;
	s->rows[s->nrows].metric = metric;
	s->rows[s->nrows].value = value;
	s->rows[s->nrows].seq = s->nrows;
	s->nrows++;
	return AGG_ROW;
nomem:
	errno = ENOMEM;
	return -1;
}

int agg_feed_stream(struct agg_set *s, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	errno = 0;
	while ((got = getline(&line, &cap, f)) >= 0) {
		if ((size_t)got >= AGG_LINE_MAX) {
			s->lines++;
			malformed(s, "line too long");
			continue;
		}
		if (agg_feed_line(s, line) < 0) {
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(f)) {
		if (!errno)
			errno = EIO;
		rc = -1;
	}
	free(line);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Finishing                                                          */

static int cmp_row_run_metric(const void *pa, const void *pb)
{
	const struct agg_row *a = pa, *b = pb;
	int c;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	c = strcmp(a->metric, b->metric);
	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int is_task_events(const char *m)
{
	size_t len = strlen(m), pre = strlen(TASK_PREFIX),
	       suf = strlen(EVENTS_SUFFIX);

	return len > pre + suf && !strncmp(m, TASK_PREFIX, pre) &&
	       !strcmp(m + len - suf, EVENTS_SUFFIX);
}

/* The row of metric in run r (rows sorted and ranged), or NULL. */
static const struct agg_row *run_row(const struct agg_set *s,
				     const struct agg_run *r,
				     const char *metric)
{
	size_t lo = r->first, hi = r->last;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->rows[mid].metric, metric);

		if (!c)
			return &s->rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Sorts rows by run and metric, drops repeats, sets the run ranges. */
static void sort_rows(struct agg_set *s, int count_duplicates)
{
	size_t i, out = 0;

	/* qsort() wants a non-NULL base even for 0 elements: a set of none */
	if (s->nrows)
		qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_row_run_metric);
	for (i = 0; i < s->nrows; i++) {
		if (out && s->rows[out - 1].run == s->rows[i].run &&
		    s->rows[out - 1].metric == s->rows[i].metric) {
			s->rows[out - 1] = s->rows[i];	/* the later wins */
			if (count_duplicates)
				s->duplicates++;
			continue;
		}
		s->rows[out++] = s->rows[i];
	}
	s->nrows = out;
	for (i = 0; i < s->nruns; i++)
		s->runs[i].first = s->runs[i].last = 0;
	for (i = 0; i < s->nrows; i++) {
		struct agg_run *r = &s->runs[s->rows[i].run];

		if (i == 0 || s->rows[i - 1].run != s->rows[i].run)
			r->first = i;
		r->last = i + 1;
	}
}

/* Is metric a task-events metric seen in a run of this scenario? */
static int seen_in_scenario(const struct agg_set *s, const char *scenario,
			    const char *metric)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].dim[AGG_SCENARIO] == scenario &&
		    run_row(s, &s->runs[i], metric))
			return 1;
	return 0;
}

/* Adds 0 rows of metric to the runs of scenario (NULL: all) lacking it. */
static int fill_metric(struct agg_set *s, const char *scenario,
		       const char *metric)
{
	size_t i, n = s->nruns;

	for (i = 0; i < n; i++) {
		const struct agg_run *r = &s->runs[i];

		if (scenario && r->dim[AGG_SCENARIO] != scenario)
			continue;
		if (!run_row(s, r, EVENTS_METRIC) || run_row(s, r, metric))
			continue;
		if (reserve((void **)&s->rows, &s->rows_cap, s->nrows,
			    sizeof(*s->rows)) < 0)
			return -1;
		s->rows[s->nrows].run = i;
		s->rows[s->nrows].metric = metric;
		s->rows[s->nrows].value = 0;
		s->rows[s->nrows].seq = s->nrows;
		s->nrows++;
		s->filled++;
	}
	return 0;
}

/* The missing-task-events rule, for the metrics seen or wanted. */
static int fill_missing(struct agg_set *s)
{
	const char **names = NULL;
	size_t nnames = 0, cap = 0, i, j, k, nrows = s->nrows;
	int rc = 0;

	for (i = 0; i < nrows; i++) {
		const char *m = s->rows[i].metric;

		if (!is_task_events(m) || (i && s->rows[i - 1].metric == m))
			continue;
		for (j = 0; j < nnames && names[j] != m; j++)
			;
		if (j < nnames)
			continue;
		if (reserve((void **)&names, &cap, nnames, sizeof(*names)) < 0) {
			free(names);
			return -1;
		}
		names[nnames++] = m;
	}
	/* A task's events are filled in the scenarios where it waited. */
	for (j = 0; j < nnames && !rc; j++) {
		for (k = 0; k < s->nruns && !rc; k++) {
			const char *scn = s->runs[k].dim[AGG_SCENARIO];
			size_t earlier;

			for (earlier = 0; earlier < k; earlier++)
				if (s->runs[earlier].dim[AGG_SCENARIO] == scn)
					break;
			if (earlier < k || !seen_in_scenario(s, scn, names[j]))
				continue;
			rc = fill_metric(s, scn, names[j]);
		}
	}
	for (j = 0; j < s->nwanted && !rc; j++)
		if (is_task_events(s->wanted[j]))
			rc = fill_metric(s, NULL, s->wanted[j]);
	free(names);
	return rc;
}

int agg_finish(struct agg_set *s)
{
	size_t i;

	if (s->finished)
		return 0;
	s->finished = 1;
	for (i = 0; i < s->nruns; i++)
		s->runs[i].excluded = s->runs[i].status &&
				      strcmp(s->runs[i].status, "ok");
	sort_rows(s, 1);
	if (fill_missing(s) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (s->filled)
		sort_rows(s, 0);
	return 0;
}

static int cmp_run_ptr(const void *pa, const void *pb)
{
	const struct agg_run *const *a = pa, *const *b = pb;

	return strcmp((*a)->name, (*b)->name);
}

static size_t list_runs(const struct agg_set *s, int excluded,
			const struct agg_run ***out)
{
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; i < s->nruns; i++)
		n += !s->runs[i].excluded == !excluded;
	if (!n)
		return 0;
	*out = malloc(n * sizeof(**out));
	if (!*out)
		return 0;
	n = 0;
	for (i = 0; i < s->nruns; i++)
		if (!s->runs[i].excluded == !excluded)
			(*out)[n++] = &s->runs[i];
	qsort(*out, n, sizeof(**out), cmp_run_ptr);
	return n;
}

size_t agg_excluded(const struct agg_set *s, const struct agg_run ***out)
{
	return list_runs(s, 1, out);
}

size_t agg_included(const struct agg_set *s, const struct agg_run ***out)
{
	return list_runs(s, 0, out);
}

/* ------------------------------------------------------------------ */
/* Groups and pairs                                                   */

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

double agg_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Sort context: qsort has none, and the rows are what the indexes name. */
static const struct agg_set *sort_set;

static int cmp_dims(const char *const a[AGG_NDIMS],
		    const char *const b[AGG_NDIMS])
{
	int d, c;

	for (d = 0; d < AGG_NDIMS; d++) {
		if (a[d] == b[d])
			continue;
		c = strcmp(a[d], b[d]);
		if (c)
			return c;
	}
	return 0;
}

static int cmp_row_group(const void *pa, const void *pb)
{
	const struct agg_row *a = &sort_set->rows[*(const size_t *)pa];
	const struct agg_row *b = &sort_set->rows[*(const size_t *)pb];
	int c = cmp_dims(sort_set->runs[a->run].dim, sort_set->runs[b->run].dim);

	if (c)
		return c;
	return a->metric == b->metric ? 0 : strcmp(a->metric, b->metric);
}

size_t agg_groups(const struct agg_set *s, struct agg_group **out)
{
	size_t *idx, i, n = 0, ng = 0, start;
	double *vals;
	struct agg_group *g;

	*out = NULL;
	idx = malloc((s->nrows + 1) * sizeof(*idx));
	vals = malloc((s->nrows + 1) * sizeof(*vals));
	g = malloc((s->nrows + 1) * sizeof(*g));
	if (!idx || !vals || !g) {
		free(idx);
		free(vals);
		free(g);
		return (size_t)-1;
	}
	for (i = 0; i < s->nrows; i++)
		if (!s->runs[s->rows[i].run].excluded)
			idx[n++] = i;
	sort_set = s;
	qsort(idx, n, sizeof(*idx), cmp_row_group);
	sort_set = NULL;
	for (start = 0; start < n; ) {
		const struct agg_row *first = &s->rows[idx[start]];
		const struct agg_run *r = &s->runs[first->run];
		struct agg_group *cur = &g[ng++];
		size_t end = start, k;
		int d;

		while (end < n) {
			const struct agg_row *row = &s->rows[idx[end]];

			if (row->metric != first->metric ||
			    cmp_dims(s->runs[row->run].dim, r->dim))
				break;
			end++;
		}
		for (k = start; k < end; k++)
			vals[k - start] = s->rows[idx[k]].value;
		for (d = 0; d < AGG_NDIMS; d++)
			cur->dim[d] = r->dim[d];
		cur->metric = first->metric;
		cur->n = end - start;
		cur->median = agg_median(vals, cur->n);
		cur->min = vals[0];
		cur->max = vals[cur->n - 1];
		cur->spread = cur->max - cur->min;
		start = end;
	}
	free(idx);
	free(vals);
	*out = g;
	return ng;
}

enum agg_sig agg_significance(const struct agg_group *a,
			      const struct agg_group *b, double *diff)
{
	double d = a->median - b->median;
	double spread = a->spread > b->spread ? a->spread : b->spread;

	if (diff)
		*diff = d;
	if (a->n <= 1 && b->n <= 1)
		return AGG_SINGLE_RUN;
	if (d == 0 || fabs(d) < spread)
		return AGG_NOT_SIGNIFICANT;
	return AGG_SIGNIFICANT;
}

const char *agg_sig_name(enum agg_sig sig)
{
	switch (sig) {
	case AGG_SIGNIFICANT:
		return "significant";
	case AGG_NOT_SIGNIFICANT:
		return "n.s.";
	case AGG_SINGLE_RUN:
		return "single run";
	}
	return "?";
}

static int cmp_group_key(const struct agg_group *a, const struct agg_group *b)
{
	int c = cmp_dims(a->dim, b->dim);

	if (c)
		return c;
	return a->metric == b->metric ? 0 : strcmp(a->metric, b->metric);
}

static const struct agg_group *find_group(const struct agg_group *g,
					  size_t ng,
					  const struct agg_group *key)
{
	size_t lo = 0, hi = ng;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_group_key(&g[mid], key);

		if (!c)
			return &g[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t agg_pairs(const struct agg_group *g, size_t ng, enum agg_dim dim,
		 const char *va, const char *vb, struct agg_pair **out)
{
	struct agg_pair *p;
	size_t i, n = 0;

	*out = NULL;
	p = malloc((ng + 1) * sizeof(*p));
	if (!p)
		return (size_t)-1;
	for (i = 0; i < ng; i++) {
		struct agg_group key;
		const struct agg_group *b;

		if (strcmp(g[i].dim[dim], va))
			continue;
		key = g[i];
		key.dim[dim] = vb;	/* compared with strcmp when not interned */
		b = find_group(g, ng, &key);
		if (!b)
			continue;
		p[n].a = &g[i];
		p[n].b = b;
		p[n].sig = agg_significance(&g[i], b, &p[n].diff);
		n++;
	}
	*out = p;
	return n;
}

int agg_dim_from_name(const char *name)
{
	int d;

	for (d = 0; d < AGG_NDIMS; d++)
		if (!strcmp(agg_dim_names[d], name))
			return d;
	return -1;
}

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
	       parse_number(tok, &v) < 0;
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
	if (parse_number(tok[i], &c->right.number) == 0) {
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

/* The value of metric in run r, by the missing-task-events rule too. */
static int run_value(const struct agg_set *s, const struct agg_run *r,
		     const char *metric, double *v)
{
	const struct agg_row *row = run_row(s, r, metric);

	if (row) {
		*v = row->value;
		return 0;
	}
	if (is_task_events(metric) && run_row(s, r, EVENTS_METRIC)) {
		*v = 0;
		return 0;
	}
	return -1;
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
	if (run_value(s, r, name, count) < 0)
		return -1;
	snprintf(name, sizeof(name), "%.*s.no_timeout_events", (int)plen, metric);
	if (kind == 2 && run_value(s, r, name, &none) == 0)
		*count -= none;
	return 0;
}

/* Was r's workload OOM-killed? */
static int oom_killed(const struct agg_set *s, const struct agg_run *r)
{
	const struct agg_row *row = run_row(s, r, AGG_OOM_METRIC);

	return row && row->value > 0;
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
 * The kernels of a scenario's runs on a matrix of kernels (compare.sh
 * --kernel): the "@NAME" end of their modes, "" for a mode without one;
 * sorted, each once.  A check that names modes is evaluated per kernel.
 */
static size_t kernel_values(const struct agg_set *s, const char *scn,
			    const char **vals)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->nruns; i++) {
		const char *m = s->runs[i].dim[AGG_MODE], *at = strchr(m, '@');
		const char *v = at ? at : m + strlen(m);

		if (s->runs[i].dim[AGG_SCENARIO] != scn)
			continue;
		for (j = 0; j < n && strcmp(vals[j], v) < 0; j++)
			;
		if (j < n && !strcmp(vals[j], v))
			continue;
		memmove(vals + j + 1, vals + j, (n - j) * sizeof(*vals));
		vals[j] = v;
		n++;
	}
	return n;
}

/* Did the matrix have a run of scn with this fs and mode? */
static int have_cell(const struct agg_set *s, const char *scn, const char *fs,
		     const char *mode)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].dim[AGG_SCENARIO] == scn &&
		    s->runs[i].dim[AGG_FS] == fs && s->runs[i].dim[AGG_MODE] == mode)
			return 1;
	return 0;
}

/*
 * The side's values in the cell into *vals (malloc'ed, sorted).  The side's
 * mode=M is M@NAME in the cell of kernel "@NAME".
 */
static int eval_side(const struct agg_set *s, const char *scn,
		     const struct agg_side *side, const char *cell_fs,
		     const char *cell_mode, const char *cell_kernel,
		     struct agg_value *out, double **pvals)
{
	const char *want_fs = *side->fs ? side->fs : cell_fs;
	const char *want_mode = *side->mode ? side->mode : cell_mode;
	char mode_on_kernel[2 * sizeof(side->mode)];
	double *vals, count;

	if (*side->mode && cell_kernel && *cell_kernel) {
		snprintf(mode_on_kernel, sizeof(mode_on_kernel), "%s%s", side->mode,
			 cell_kernel);
		want_mode = mode_on_kernel;
	}
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
		if (strcmp(side->metric, AGG_OOM_METRIC) && oom_killed(s, r)) {
			out->dropped_oom++;
			continue;
		}
		if (wait_count(s, r, side->metric, &count) == 0 &&
		    count < AGG_MIN_WAITS) {
			if (!out->dropped_few++)
				out->few_min = out->few_max = count;
			out->few_min = count < out->few_min ? count : out->few_min;
			out->few_max = count > out->few_max ? count : out->few_max;
			continue;
		}
		if (run_value(s, r, side->metric, &vals[n]) == 0)
			n++;
	}
	out->n = n;
	if (n) {
		out->median = agg_median(vals, n);
		out->spread = vals[n - 1] - vals[0];
	}
	return 0;
}

/* xorshift64*: the bootstrap's resamples, the same for the same values */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static double resampled_median(const double *v, size_t n, double *tmp,
			       uint64_t *seed)
{
	size_t i;

	if (n == 1)
		return v[0];
	for (i = 0; i < n; i++)
		tmp[i] = v[rng_next(seed) % n];
	return agg_median(tmp, n);
}

int agg_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb,
		       double *lo, double *hi)
{
	double *d = malloc(AGG_BOOTSTRAP * sizeof(*d));
	double *tmp = malloc((na > nb ? na : nb) * sizeof(*tmp) + sizeof(*tmp));
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
	size_t i;

	if (!d || !tmp) {
		free(d);
		free(tmp);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < AGG_BOOTSTRAP; i++)
		d[i] = resampled_median(a, na, tmp, &seed) -
		       resampled_median(b, nb, tmp, &seed);
	qsort(d, AGG_BOOTSTRAP, sizeof(*d), cmp_double);
	/* the 2.5th and 97.5th percentiles, nearest rank */
	*lo = d[(size_t)(0.025 * AGG_BOOTSTRAP)];
	*hi = d[(size_t)(0.975 * AGG_BOOTSTRAP) - 1];
	free(d);
	free(tmp);
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

int agg_wilson(size_t k, size_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;	/* the normal's 97.5th percentile */
	double p, d, centre, half;

	if (!n || k > n)
		return -1;
	p = (double)k / (double)n;
	d = 1 + z * z / n;
	centre = (p + z * z / (2.0 * n)) / d;
	half = z / d * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
	*lo = k ? fmax(0, centre - half) : 0;
	*hi = k < n ? fmin(1, centre + half) : 1;
	return 0;
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
	const char *scn = strtab_find(&s->strings, scenario);
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
	else if (scn)
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
				    !have_cell(s, scn, fs_vals[i], mode_vals[j]))
					continue;
				cur = &v[n++];

				if (fs_vals[i])
					used += snprintf(cur->where, sizeof(cur->where),
							 "fs=%s", fs_vals[i]);
				if (mode_vals[j])
					used += snprintf(cur->where + used, sizeof(cur->where) - used,
							 "%smode=%s", used ? " " : "", mode_vals[j]);
				if (kernel_vals[k] && *kernel_vals[k])
					snprintf(cur->where + used, sizeof(cur->where) - used,
						 "%skernel=%s", used ? " " : "", kernel_vals[k] + 1);
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

void agg_format(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v);
	else if (fabs(v) >= 1e5)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.6g", v);
}

void agg_print_groups(FILE *f, const struct agg_group *g, size_t n)
{
	char med[32], lo[32], hi[32], sp[32];
	size_t i;

	fprintf(f, "scenario\tfs\tprofile\tmode\tmetric\tn\tmedian\tmin\tmax\tspread\n");
	for (i = 0; i < n; i++) {
		agg_format(med, sizeof(med), g[i].median);
		agg_format(lo, sizeof(lo), g[i].min);
		agg_format(hi, sizeof(hi), g[i].max);
		agg_format(sp, sizeof(sp), g[i].spread);
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%zu\t%s\t%s\t%s\t%s\n",
			g[i].dim[AGG_SCENARIO], g[i].dim[AGG_FS],
			g[i].dim[AGG_PROFILE], g[i].dim[AGG_MODE], g[i].metric,
			g[i].n, med, lo, hi, sp);
	}
}

void agg_print_pairs(FILE *f, const struct agg_pair *p, size_t n,
		     enum agg_dim dim)
{
	char ma[32], sa[32], mb[32], sb[32], df[32];
	size_t i;
	int d;

	for (d = 0; d < AGG_NDIMS; d++)
		if (d != (int)dim)
			fprintf(f, "%s\t", agg_dim_names[d]);
	fprintf(f, "metric\t%s_a\tn_a\tmedian_a\tspread_a\t%s_b\tn_b\tmedian_b\tspread_b\tdiff\tverdict\n",
		agg_dim_names[dim], agg_dim_names[dim]);
	for (i = 0; i < n; i++) {
		const struct agg_group *a = p[i].a, *b = p[i].b;

		agg_format(ma, sizeof(ma), a->median);
		agg_format(sa, sizeof(sa), a->spread);
		agg_format(mb, sizeof(mb), b->median);
		agg_format(sb, sizeof(sb), b->spread);
		agg_format(df, sizeof(df), p[i].diff);
		for (d = 0; d < AGG_NDIMS; d++)
			if (d != (int)dim)
				fprintf(f, "%s\t", a->dim[d]);
		fprintf(f, "%s\t%s\t%zu\t%s\t%s\t%s\t%zu\t%s\t%s\t%s\t%s\n",
			a->metric, a->dim[dim], a->n, ma, sa, b->dim[dim], b->n,
			mb, sb, df, agg_sig_name(p[i].sig));
	}
}

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
