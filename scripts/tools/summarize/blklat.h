/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blklat: a device's blktrace (the binary records of blkparse -d, as
 * run.sh --blktrace keeps them in DEV.blktrace.bin) into the latency of
 * each completed request, from its dispatch (D2C) and from the queueing of
 * the bio it came from (Q2C), per direction.
 *
 * btt matches a completion to its queue event by the request's own
 * sector; a bio split at the device's largest request has one queue event
 * (Q) for all its pieces and a split event (X) per cut, so btt finds a Q
 * for the first piece only.  Here a completion's Q is the latest queue
 * event of its direction, before it, whose range holds the completion's
 * first sector: the bio it was cut from.  A completion's D is the earliest
 * dispatch of its direction and sector before it that no completion has
 * taken yet.  Notes, flushes and discards are not requests here.
 */
#ifndef RECLAIMLAB_BLKLAT_H
#define RECLAIMLAB_BLKLAT_H

#include <stddef.h>

enum blklat_dir { BLKLAT_READ, BLKLAT_WRITE, BLKLAT_NR_DIRS };

/* one direction's requests; latencies in nanoseconds, ascending */
struct blklat_dir_stats {
	size_t completions;	/* completions that moved data */
	size_t dispatched;	/* dispatches that moved data */
	long *d2c_ns;		/* one per completion matched to a dispatch */
	size_t nd2c;
	long *q2c_ns;		/* one per completion matched to a queue event */
	size_t nq2c;
};

struct blklat {
	struct blklat_dir_stats dir[BLKLAT_NR_DIRS];
	size_t records;		/* trace records read, notes included */
};

/*
 * Reads the records of buf (len bytes) into lat.  Returns 0, or -1 with err
 * naming the first bad record (a bad magic or version, a record cut short);
 * lat then holds nothing to free.
 */
int blklat_read(const unsigned char *buf, size_t len, struct blklat *lat,
		char *err, size_t errlen);

void blklat_free(struct blklat *lat);

/* "read" or "write" */
const char *blklat_dir_name(enum blklat_dir d);

#endif
