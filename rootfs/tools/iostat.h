/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iostat: the logic behind rl-iostat.
 *
 * Parses /proc/diskstats text into snapshots and turns two snapshots into
 * the columns of `iostat -kx` (sysstat's extended device report as it looked
 * around 2012).  Nothing here does I/O, so the host unit test can feed it
 * hand-written fixtures.
 */
#ifndef RECLAIMLAB_IOSTAT_H
#define RECLAIMLAB_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>

#define IOSTAT_NAME_MAX 32	/* kernel disk names are at most 31 chars */

/*
 * One /proc/diskstats line.  nfields is how many statistics followed the
 * name: 11 (before 4.18), 15 (discard added in 4.18) or 17 (flush, 5.5+);
 * statistics a shorter line lacks read as zero.
 */
struct iostat_dev {
	unsigned int major, minor;
	char name[IOSTAT_NAME_MAX];
	int nfields;
	unsigned long long rd_ios, rd_merges, rd_sectors, rd_ticks;
	unsigned long long wr_ios, wr_merges, wr_sectors, wr_ticks;
	unsigned long long in_flight, io_ticks, time_in_queue;
	unsigned long long dc_ios, dc_merges, dc_sectors, dc_ticks;
	unsigned long long fl_ios, fl_ticks;
};

/* One /proc/diskstats read; "rejected" counts lines that failed to parse. */
struct iostat_snap {
	struct iostat_dev *devs;
	size_t ndevs;
	size_t cap;
	size_t rejected;
};

/*
 * One device over one interval.  The delta fields are kept so that callers
 * can weight and total rows; the rest are the iostat -kx columns.
 */
struct iostat_row {
	double elapsed_ms;
	unsigned long long rd_ios, wr_ios, rd_sectors, wr_sectors;
	double rrqm_s, wrqm_s, r_s, w_s, rkb_s, wkb_s;
	double avgrq_sz;	/* 512-byte sectors per request */
	double wareq_sz;	/* KiB per write request (sysstat 12's wareq-sz) */
	double avgqu_sz;	/* weighted ms in queue per elapsed ms */
	double await;		/* ms per request, queueing included */
	double svctm;		/* ms of busy time per request */
	double util;		/* percent of elapsed time the device was busy */
};

/* Whole run: the row between first and last snapshot plus totals in MiB. */
struct iostat_summary {
	struct iostat_row row;
	double read_mb, written_mb;
};

/*
 * Per-interval accumulator.  avgrq-sz is weighted by requests (West's
 * incremental weighted variance, so long runs lose no precision).
 */
struct iostat_acc {
	unsigned long intervals;
	unsigned long io_intervals;	/* intervals that completed a request */
	struct iostat_row sum;
	double rq_weight, rq_mean, rq_m2;
	double wrq_weight, wrq_mean, wrq_m2;	/* wareq-sz, by writes */
};

/*
 * Means over the intervals added.  mean.avgrq_sz is request-weighted, await
 * and svctm average only intervals that completed a request (an idle
 * interval has none to time), every other column averages all intervals.
 * mean's delta fields are zero; ios is the total requests seen.
 */
struct iostat_acc_result {
	unsigned long intervals;
	unsigned long long ios;
	struct iostat_row mean;
	double avgrq_sz_sd;	/* request-weighted population deviation */
	/*
	 * Write requests alone, weighted by writes: reclaim's swap-out or
	 * writeback without the reads beside it (sysstat 12's wareq-sz).
	 */
	double wareq_sz_mean, wareq_sz_sd;
};

/* Empty snapshot; free with iostat_snap_free(). */
void iostat_snap_init(struct iostat_snap *snap);
void iostat_snap_free(struct iostat_snap *snap);

/*
 * Replace snap's contents with the devices in buf (len bytes, need not be
 * NUL-terminated).  Malformed lines are skipped and counted in
 * snap->rejected.  Returns 0, or -1 if memory ran out.
 */
int iostat_parse(struct iostat_snap *snap, const char *buf, size_t len);

const struct iostat_dev *iostat_find(const struct iostat_snap *snap,
				     const char *name);

/* A whole UML disk: "ubd" and letters, no partition number. */
bool iostat_is_whole_ubd(const char *name);

/*
 * Columns for one device between two snapshots elapsed_ms apart.  A counter
 * that went down is taken as reset to zero, so its delta is its new value
 * and no rate is negative.  elapsed_ms <= 0 gives zero rates.
 */
void iostat_row(const struct iostat_dev *before, const struct iostat_dev *after,
		double elapsed_ms, struct iostat_row *row);

void iostat_summary(const struct iostat_dev *first,
		    const struct iostat_dev *last, double elapsed_ms,
		    struct iostat_summary *sum);

void iostat_acc_init(struct iostat_acc *acc);
void iostat_acc_add(struct iostat_acc *acc, const struct iostat_row *row);
void iostat_acc_result(const struct iostat_acc *acc,
		       struct iostat_acc_result *res);

/* Output formatting; each returns what snprintf returns. */
extern const char iostat_table_header[];
extern const char iostat_tsv_header[];
int iostat_format_row(char *buf, size_t len, const char *name,
		      const struct iostat_row *row);
int iostat_format_tsv(char *buf, size_t len, double time_s, const char *name,
		      const struct iostat_row *row);
int iostat_format_summary(char *buf, size_t len, const char *name,
			  const struct iostat_summary *sum,
			  const struct iostat_acc_result *res);

#endif
