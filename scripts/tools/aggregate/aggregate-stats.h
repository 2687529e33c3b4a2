/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate-stats: statistics over a finished set of rows: groups (a
 * metric's median and spread over the repeats of one
 * scenario/fs/profile/mode), comparisons of two groups, the bootstrap
 * interval of a difference of medians, the Wilson interval of a share.
 */
#ifndef RECLAIMLAB_AGGREGATE_STATS_H
#define RECLAIMLAB_AGGREGATE_STATS_H

#include "aggregate/aggregate-rows.h"

/* A metric over the runs of one scenario/fs/profile/mode. */
struct agg_group {
	const char *dim[AGG_NDIMS];
	const char *metric;
	size_t n;
	double median, min, max, spread;
};

enum agg_sig { AGG_SIGNIFICANT, AGG_NOT_SIGNIFICANT, AGG_SINGLE_RUN };

/* Two groups that differ only in one dimension. */
struct agg_pair {
	const struct agg_group *a, *b;
	double diff;		/* a->median - b->median */
	enum agg_sig sig;
};

/* Resamples of a bootstrap interval (see aggregate-checks.h). */
#define AGG_BOOTSTRAP	2000

/*
 * Wilson score 95% interval (z = 1.959964) of a share of k in n: 0 and
 * [*lo, *hi] within [0, 1], or -1 for n = 0 or k > n.
 */
int agg_wilson(size_t k, size_t n, double *lo, double *hi);

/*
 * The bootstrap interval of median(a) - median(b) (b may be one number,
 * nb = 1): AGG_BOOTSTRAP resamples from a fixed seed, so the same values
 * give the same interval.  -1 on ENOMEM.
 */
int agg_bootstrap_diff(const double *a, size_t na, const double *b, size_t nb,
		       double *lo, double *hi);

/*
 * Groups sorted by scenario, fs, profile, mode, metric: *out is malloc'ed.
 * Returns the count, or (size_t)-1 on ENOMEM.
 */
size_t agg_groups(const struct agg_set *s, struct agg_group **out);

/* Median of v[0..n) (sorts v); NAN for n = 0. */
double agg_median(double *v, size_t n);

/*
 * Difference of medians and whether it is significant: not significant when
 * the difference is 0 or smaller than the spread of either group; a single
 * run on both sides says nothing about the spread ("single run").
 */
enum agg_sig agg_significance(const struct agg_group *a,
			      const struct agg_group *b, double *diff);
const char *agg_sig_name(enum agg_sig sig);

/*
 * Pairs of groups of dimension dim with value va and vb, equal in every
 * other dimension and in metric; *out is malloc'ed.  (size_t)-1 on ENOMEM.
 */
size_t agg_pairs(const struct agg_group *g, size_t ng, enum agg_dim dim,
		 const char *va, const char *vb, struct agg_pair **out);

/*
 * Pairs of groups with the values va in the dimensions dims and vb in
 * them, equal in every other dimension and in metric (a mode on one
 * kernel against another mode on another); *out is malloc'ed.
 * (size_t)-1 on ENOMEM.
 */
size_t agg_pairs_by(const struct agg_group *g, size_t ng, const enum agg_dim *dims,
		    size_t ndims, const char *const *va, const char *const *vb,
		    struct agg_pair **out);

/* Numbers as the TSV outputs print them: integers whole, others %.6g. */
void agg_format(char *buf, size_t size, double v);

void agg_print_groups(FILE *f, const struct agg_group *g, size_t n);
void agg_print_pairs(FILE *f, const struct agg_pair *p, size_t n,
		     enum agg_dim dim);

#endif
