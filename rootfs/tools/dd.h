/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rl-dd logic: option parsing, the regenerable content pattern, verify
 * bookkeeping, pacing arithmetic and the block loops over an open fd.
 * dd-main.c opens files, installs signal handlers, writes the progress file
 * and prints the result; everything here can be driven by the unit test.
 */
#ifndef RECLAIMLAB_DD_H
#define RECLAIMLAB_DD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "size.h"

/* Content is a function of (seed, 4 KiB chunk index, position in chunk). */
#define DD_CHUNK 4096
#define DD_DEFAULT_BS (64 * 1024)
#define DD_MAX_BS (1ULL << 30)

enum dd_op { DD_WRITE, DD_READ, DD_VERIFY, DD_SPARSE };

struct dd_opts {
	enum dd_op op;
	const char *file;
	uint64_t size;		/* 0 = not given (read: until EOF) */
	uint64_t bs;
	double rate;		/* MB/s (10^6 bytes), 0 = unpaced */
	uint64_t seed;
	bool fsync;
	bool direct;
	const char *progress;	/* NULL = no progress file */
};

enum dd_parse_ret {
	DD_PARSE_OK = 0,
	DD_PARSE_HELP,		/* --help: print usage, exit 0 */
	DD_PARSE_ERR,		/* err holds a one-line message, exit 2 */
};

extern const char dd_usage[];

/* Parse argv (argv[0] is the program name).  Strings are borrowed. */
enum dd_parse_ret dd_parse_args(int argc, char *const argv[],
				struct dd_opts *o, char *err, size_t errlen);

/* Fill buf with the content of file bytes [off, off + len) for seed. */
void dd_pattern_fill(uint64_t seed, uint64_t off, void *buf, size_t len);

struct dd_verify {
	uint64_t bad_chunks;
	int64_t first_bad;	/* file offset of the first bad chunk, or -1 */
	uint64_t last_bad;	/* index + 1 of the last chunk counted, 0 = none */
};

void dd_verify_init(struct dd_verify *v);
/*
 * Compare buf, holding file bytes [off, off + len), with the pattern.
 * Calls must come in increasing offset order; a chunk split over two calls
 * is counted once.
 */
void dd_verify_buf(struct dd_verify *v, uint64_t seed, uint64_t off,
		   const void *buf, size_t len);
/* Count bytes [off, end) as bad: the file ended early. */
void dd_verify_missing(struct dd_verify *v, uint64_t off, uint64_t end);

/* Nanoseconds after the start at which byte count `bytes` is due. */
uint64_t dd_pace_ns(uint64_t bytes, double mbps);
struct timespec dd_ts_add_ns(struct timespec t, uint64_t ns);
double dd_ts_diff(struct timespec a, struct timespec b);	/* a - b, s */

/* Blocks between clock reads: grow while reads come too close together. */
uint64_t dd_tick_adjust(uint64_t every, double dt);

/* One transfer over an open fd. */
struct dd_xfer {
	/* in */
	int fd;
	uint64_t size;		/* bytes to move; read: 0 = until EOF */
	size_t bs;
	void *buf;		/* bs bytes; 4096-aligned for O_DIRECT */
	uint64_t seed;
	double rate;		/* MB/s, 0 = unpaced */
	bool fsync;		/* write: fsync before the clock stops */
	bool verify;		/* read: compare with the pattern */
	volatile sig_atomic_t *stop;	/* may be NULL */
	void (*progress)(void *arg, double t, uint64_t done);	/* may be NULL */
	void *arg;
	/* out */
	uint64_t done;		/* bytes written or read */
	double seconds;
	int err;		/* errno of the failure */
	const char *failed;	/* "write", "read" or "fsync" */
	bool stopped;		/* *stop ended the loop early */
	struct dd_verify v;
	/* private */
	struct timespec t0;
	uint64_t tick_every, tick_count;
	double last_tick, next_sample;
};

/* Both return 0, or -1 with x->err and x->failed set. */
int dd_write_fd(struct dd_xfer *x);
int dd_read_fd(struct dd_xfer *x);

/* Format the result line for o->op (no newline); returns snprintf's value. */
int dd_format_result(char *buf, size_t len, const struct dd_opts *o,
		     const struct dd_xfer *x);

#endif
