/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysstat: the JSON of sysstat's extended device report, as a scenario
 * runs it in the guest (rootfs/lib/rl-scenario):
 *   iostat -d -x -k -y -o JSON 1 DEV...
 * into each device's means over the workload's intervals.  A column keeps
 * sysstat 12's name, made metric-safe: every character other than a letter,
 * a digit or _ becomes _ (w/s -> w_s, wkB/s -> wkB_s, wareq-sz -> wareq_sz,
 * aqu-sz -> aqu_sz; the JSON calls %util "util" and %wrqm "wrqm").
 *
 * A rate (r/s, wkB/s, aqu-sz, util, ...) is the mean over the intervals.
 * A column per request (r_await, wareq-sz, ...) is weighted by the
 * interval's requests of its kind, so an idle interval does not count and
 * wareq_sz's mean is the workload's kB written per write request; such a
 * column also has a spread (weighted population standard deviation).
 *
 * sysstat 12 no longer prints 2012's avgrq-sz; it is derived per interval,
 * in 512-byte sectors, as (rkB/s + wkB/s) * 2 / (r/s + w/s), and weighted by
 * the reads and writes.
 */
#ifndef RECLAIMLAB_SYSSTAT_H
#define RECLAIMLAB_SYSSTAT_H

#include <stddef.h>

#define SYSSTAT_NAME_MAX	64

struct sysstat_col {
	char metric[SYSSTAT_NAME_MAX];	/* wareq_sz */
	int per_request;		/* weighted by requests, has a spread */
	double weight, mean, m2;	/* West's weighted mean and squares */
};

struct sysstat_dev {
	char name[SYSSTAT_NAME_MAX];
	size_t intervals;
	struct sysstat_col *cols;	/* in the order of the first interval */
	size_t ncols;
};

struct sysstat_iostat {
	size_t intervals;		/* reports in the file: seconds sampled */
	struct sysstat_dev *devs;
	size_t ndevs;
};

/*
 * Reads iostat's JSON text (len bytes) into io.  A device whose name is
 * not a plain word (letters, digits, _ and -), a column whose value is
 * not a number and a key longer than SYSSTAT_NAME_MAX are skipped.
 * Returns 0, or -1 when the text is not sysstat's JSON (err says why; io
 * is then empty).  Free io with sysstat_iostat_free() either way.
 */
int sysstat_iostat_read(const char *text, size_t len, struct sysstat_iostat *io,
			char *err, size_t errlen);
void sysstat_iostat_free(struct sysstat_iostat *io);

/* A column's mean and spread; -1 when no interval had requests of its kind */
int sysstat_col_mean(const struct sysstat_col *c, double *mean, double *sd);

/* The column metric of a device, or NULL */
const struct sysstat_col *sysstat_col(const struct sysstat_dev *d, const char *metric);

#endif
