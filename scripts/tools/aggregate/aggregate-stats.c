// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate-stats: the statistics of the rows: groups (median, spread),
 * pairs of groups, the bootstrap interval of a difference of medians and
 * the Wilson interval of a share.
 */
#include "aggregate/aggregate-stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

size_t agg_pairs_by(const struct agg_group *g, size_t ng, const enum agg_dim *dims,
		    size_t ndims, const char *const *va, const char *const *vb,
		    struct agg_pair **out)
{
	struct agg_pair *p;
	size_t i, k, n = 0;

	*out = NULL;
	p = malloc((ng + 1) * sizeof(*p));
	if (!p)
		return (size_t)-1;
	for (i = 0; i < ng; i++) {
		struct agg_group key;
		const struct agg_group *b;

		for (k = 0; k < ndims && !strcmp(g[i].dim[dims[k]], va[k]); k++)
			;
		if (k < ndims)
			continue;
		key = g[i];
		for (k = 0; k < ndims; k++)
			key.dim[dims[k]] = vb[k];	/* compared with strcmp when not interned */
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

size_t agg_pairs(const struct agg_group *g, size_t ng, enum agg_dim dim,
		 const char *va, const char *vb, struct agg_pair **out)
{
	return agg_pairs_by(g, ng, &dim, 1, &va, &vb, out);
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

	fprintf(f, "scenario\tfs\tprofile\tmode\tkernel\tmetric\tn\tmedian\tmin\tmax\tspread\n");
	for (i = 0; i < n; i++) {
		agg_format(med, sizeof(med), g[i].median);
		agg_format(lo, sizeof(lo), g[i].min);
		agg_format(hi, sizeof(hi), g[i].max);
		agg_format(sp, sizeof(sp), g[i].spread);
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%zu\t%s\t%s\t%s\t%s\n",
			g[i].dim[AGG_SCENARIO], g[i].dim[AGG_FS],
			g[i].dim[AGG_PROFILE], g[i].dim[AGG_MODE], g[i].dim[AGG_KERNEL], g[i].metric,
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
