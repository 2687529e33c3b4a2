// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate-rows: reading the summary rows of a comparison matrix into a
 * set of runs and their metrics (the rules are in aggregate.h).
 */
#include "aggregate/aggregate-rows.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const agg_dim_names[AGG_NDIMS] = {
	"scenario", "fs", "profile", "mode", "kernel",
};

/* a row's fields: the run, its dimensions (field 1 + dim), then these */
enum { F_REPEAT = 1 + AGG_NDIMS, F_METRIC, F_VALUE, AGG_FIELDS };

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

int agg_parse_number(const char *p, double *out)
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
	const char *field[AGG_FIELDS], *p, *tab, *name, *dim[AGG_NDIMS], *metric;
	size_t flen[AGG_FIELDS], len, nf = 0;
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
	for (p = line; nf < AGG_FIELDS; p = tab + 1) {
		tab = memchr(p, '\t', (size_t)(line + len - p));
		field[nf] = p;
		flen[nf] = tab ? (size_t)(tab - p) : (size_t)(line + len - p);
		if (!flen[nf])
			return malformed(s, "empty field");
		nf++;
		if (!tab)
			break;
	}
	if (nf != AGG_FIELDS || field[F_VALUE] + flen[F_VALUE] != line + len)
		return malformed(s, "not 9 tab-separated fields");
	if (parse_repeat(field[F_REPEAT], flen[F_REPEAT], &repeat) < 0)
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
	metric = strtab_intern(&s->strings, field[F_METRIC], flen[F_METRIC]);
	if (!metric)
		goto nomem;
	run = find_run(s, name, dim, repeat);
	if (run == -1)
		goto nomem;
	if (run == -2)
		return malformed(s, "run fields differ from its earlier rows");

	memcpy(valbuf, field[F_VALUE], flen[F_VALUE]);
	valbuf[flen[F_VALUE]] = '\0';
	if (agg_parse_number(valbuf, &value) < 0) {
		if (!strcmp(metric, STATUS_METRIC)) {
			s->runs[run].status = strtab_intern(&s->strings, valbuf,
							    flen[F_VALUE]);
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

int agg_dim_from_name(const char *name)
{
	int d;

	for (d = 0; d < AGG_NDIMS; d++)
		if (!strcmp(agg_dim_names[d], name))
			return d;
	return -1;
}

/* The value of metric in run r, by the missing-task-events rule too. */
int agg_run_value(const struct agg_set *s, const struct agg_run *r,
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

const char *agg_interned(const struct agg_set *s, const char *str)
{
	return strtab_find(&s->strings, str);
}
