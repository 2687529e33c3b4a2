/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers of the unit tests of the aggregate modules
 * (test-aggregate-*.c), over inline rows and the fixtures in
 * tests/fixtures/aggregate/ (found through $RL_FIXTURES):
 *
 *   fs-completion.tsv  full_timeout_share of ext4/xfs (3 runs per mode),
 *                      vfat (1 run per mode) and a failed btrfs run:
 *                        ext4 patched 0.1 0.3 0.2     vanilla 0.25 0.2 0.3
 *                        xfs  patched 0.8 0.9 0.85    vanilla 0.6 0.62 0.61
 *                        vfat patched 0.4             vanilla 0.5
 *                        btrfs vanilla 0.99 (status failed)
 *   memcg-dd.tsv       oom_kills: ext4 patched 0 0, vanilla 2 1;
 *                      xfs patched 1, vanilla 0
 *   usb-responsiveness.tsv  reader waits: ext4 patched none (waits.events
 *                      5), ext4 vanilla 2, xfs vanilla no trace at all
 *   malformed.tsv      good rows among every kind of bad one
 *   checks.scn, bad-check.scn  "# Check:" header lines
 *
 * Inline: a test file that uses only some of them has no unused one.
 */
#ifndef RECLAIMLAB_TEST_AGGREGATE_H
#define RECLAIMLAB_TEST_AGGREGATE_H

#include "check.h"
#include "aggregate/aggregate.h"

#include <stdlib.h>
#include <string.h>

#define FTS "waits.task.rl-dd.full_timeout_share"

static inline FILE *open_fixture(const char *name)
{
	const char *dir = getenv("RL_FIXTURES");
	char path[4096];
	FILE *f;

	if (!dir) {
		fprintf(stderr, "  RL_FIXTURES is not set\n");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "  cannot open %s\n", path);
	return f;
}

/* A fresh set fed with fixture aggregate/NAME and finished. */
static inline int load(struct agg_set *s, const char *name)
{
	char path[256];
	FILE *f;
	int rc;

	agg_init(s);
	snprintf(path, sizeof(path), "aggregate/%s", name);
	f = open_fixture(path);
	if (!f)
		return -1;
	rc = agg_feed_stream(s, f);
	fclose(f);
	if (agg_finish(s) < 0)
		rc = -1;
	return rc;
}

static inline const struct agg_group *group(const struct agg_group *g, size_t n,
				     const char *fs, const char *mode,
				     const char *metric)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].dim[AGG_FS], fs) &&
		    !strcmp(g[i].dim[AGG_MODE], mode) &&
		    !strcmp(g[i].metric, metric))
			return &g[i];
	return NULL;
}

/* The verdict of a check in cell where, evaluated on set s. */
static inline const struct agg_verdict *verdict(const struct agg_verdict *v,
					 size_t n, const char *where)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].where, where))
			return &v[i];
	return NULL;
}

/* Parses text (must succeed) and evaluates it over scenario. */
static inline size_t eval(const struct agg_set *s, const char *scenario,
		   const char *text, struct agg_check *c,
		   struct agg_verdict **v)
{
	char err[256];

	*v = NULL;
	if (agg_parse_check(text, c, err, sizeof(err)) < 0) {
		fprintf(stderr, "  cannot parse '%s': %s\n", text, err);
		return 0;
	}
	return agg_eval_check(s, scenario, c, v);
}

#endif
